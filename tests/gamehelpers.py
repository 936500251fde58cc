"""Helpers shared by the tests that build games of several players at one table."""

from __future__ import annotations

import dataclasses


def table_log(states):
    """The games of several players at one table as one log: their events turn by turn, each naming its seat.

    ``states`` are finished games, one a seat (each with its own dice); the log is what a coach's table
    records, seat 0's first turn, then seat 1's, ..., then seat 0's second turn.
    """
    turns = []
    for st in states:
        mine = [[]]
        for ev in st.log:
            mine[-1].append(ev)
            if ev.kind == "score":
                mine.append([])
        turns.append(mine)
    log = []
    for t in range(len(turns[0])):
        for seat, mine in enumerate(turns):
            log += [dataclasses.replace(ev, player=seat) for ev in mine[t]]
    return log
