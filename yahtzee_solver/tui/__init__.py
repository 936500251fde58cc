"""The terminal game: prompt parsing (:mod:`.prompt`), drawing (:mod:`.board`), the session loop
(:mod:`.session`) and starting or resuming a game (:mod:`.start`).

The ``play`` command (:mod:`yahtzee_solver.cli.play`) only parses its options
and hands over to :func:`.start.play_game`.
"""
