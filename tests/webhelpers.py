"""Driving a web game to a chosen position, for the API and browser tests."""

from __future__ import annotations

from yahtzee_solver.game import HUMAN, Hold, Roll, Score, cpu_actions, new_game
from yahtzee_solver.strategy.levels import make_strategy


def expert_until(post, seed: int, open_boxes: int, opponent: str = "expert"):
    """Play a new server game (``first`` me) with the expert's moves for the player, until the player's
    turn starts with ``open_boxes`` open boxes; the same game is mirrored by the engine and returned.

    ``post(path, body)`` sends one POST to the server.  The server's CPU plays its own steps
    (``/api/game/cpu``); the mirror plays the same level's steps, so it must be deterministic.
    """
    post("/api/game/new", {"opponent": opponent, "first": "me", "seed": seed, "abandon": True})
    st = new_game("yahtzee", opponent, "me", seed)
    me = make_strategy("expert", st.rules)
    cpu = make_strategy(opponent, st.rules, rng=st.cpu_rng)
    while not (st.current == HUMAN and st.rolls_used == 0 and len(st.cards[HUMAN].open_categories) == open_boxes):
        if st.current != HUMAN:
            post("/api/game/cpu", {})
            for a in cpu_actions(st, cpu):
                st.apply_action(a)
            continue
        for a in cpu_actions(st, me):
            if isinstance(a, Roll):
                post("/api/game/roll", {})
            elif isinstance(a, Hold):
                post("/api/game/hold", {"held": list(a.held)})
            elif isinstance(a, Score):
                post("/api/game/score", {"box": a.category, "confirm": True})
            st.apply_action(a)
    return st
