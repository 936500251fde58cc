"""Saved games and records: the session that starts, resumes and files a game, the save, its ledger, the records, the history and the one-game lock."""
