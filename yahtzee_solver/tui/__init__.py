"""The terminal game: prompt parsing (:mod:`.prompt`), drawing (:mod:`.board`) and the session loop (:mod:`.session`).

The ``play`` command (:mod:`yahtzee_solver.cli.play`) only parses its options
and hands over to :func:`.session.start_game` and :class:`.session.Session`.
"""
