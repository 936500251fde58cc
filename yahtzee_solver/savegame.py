"""The saved game: its format, where it lives, and how it is written and read.

``game.json`` in the data folder (:func:`save_path`) holds the game in
progress as JSON (:func:`state_to_dict` / :func:`state_from_dict`): the
configuration, the cards, the dice, the counters, the move log and the states
of the random generators, so a restored game rolls exactly the dice the
original would have rolled.  It is written atomically after every action and
validated on load; a save that cannot be restored is set aside
(:func:`~yahtzee_solver.files.set_aside`) and reported, never silently dropped.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .errors import CategoryError, DataFileError, SavedGameError, ScoreCardError, YahtzeeError
from .files import clip, data_dir, read_json, set_aside, write_json_atomic
from .game import MAX_ROLLS, N_DICE, Event, GameConfig, GameState
from .rules import RULESETS, get_rules
from .state import ScoreCard

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "save_path",
    "state_to_dict",
    "state_from_dict",
    "save_game",
    "load_game",
    "discard_game",
]

SAVE_FORMAT = "yahtzee_solver saved game"
SAVE_VERSION = 1

#: Errors that mean "this data cannot be decoded or validated" (the file is corrupt).
_CORRUPT = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


def save_path() -> Path:
    """``game.json`` (the game in progress) in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "game.json"


# -- random generators -----------------------------------------------------------------------------
def _bit_generator_state(rng: np.random.Generator) -> dict:
    return _plain(rng.bit_generator.state)


def _plain(x):
    """numpy scalars/arrays in a bit-generator state -> JSON-safe Python values."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return [_plain(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    return x


_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def _restore_generator(state) -> np.random.Generator:
    if not isinstance(state, dict) or state.get("bit_generator") not in _BIT_GENERATORS:
        raise SavedGameError("saved game has an invalid random generator state")
    bg = getattr(np.random, state["bit_generator"])()
    try:
        st = dict(state)
        if st["bit_generator"] == "MT19937":
            st["state"] = dict(st["state"])
            st["state"]["key"] = np.asarray(st["state"]["key"], dtype=np.uint32)
        bg.state = st
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        raise SavedGameError(f"saved game has an invalid random generator state ({e})") from None
    return np.random.Generator(bg)


# -- the format -------------------------------------------------------------------------------
def state_to_dict(state: GameState) -> dict:
    """The whole game as JSON-safe data, generator states included (see :func:`state_from_dict`)."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "config": state.config.to_dict(),
        "cards": [c.to_dict() for c in state.cards],
        "current": state.current,
        "round": state.round,
        "dice": None if state.dice is None else list(state.dice),
        "held": list(state.held),
        "rolls_used": state.rolls_used,
        "rng": _bit_generator_state(state.rng),
        "cpu_rng": _bit_generator_state(state.cpu_rng),
        "log": [e.to_dict() for e in state.log],
    }


def state_from_dict(data) -> GameState:
    """Restore a game written by :func:`state_to_dict`, checking that it is whole and consistent.

    Raises
    ------
    SavedGameError
        For data of another format or version, unknown rules or opponent,
        impossible cards, dice or counters, or a bad generator state.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SavedGameError("not a yahtzee_solver saved game")
    if data.get("version") != SAVE_VERSION:
        v = data.get("version")
        shown = repr(v) if isinstance(v, (int, float, type(None))) or (isinstance(v, str) and len(v) < 20) else "?"
        raise SavedGameError(f"saved game format version {shown}, this version reads {SAVE_VERSION}")
    try:
        cfg = data["config"]
        name = cfg["rules"]
        if not isinstance(name, str) or name not in RULESETS:
            shown = f" {name[:40]!r}" if isinstance(name, str) else ""
            raise SavedGameError(f"saved game has unknown rules{shown}")
        config = GameConfig(get_rules(cfg["rules"]), cfg["opponent"], cfg["first"], cfg["seed"])
        rules = config.rules
        cards = [ScoreCard.from_mapping(c, rules) for c in data["cards"]]
        current, rnd, rolls = data["current"], data["round"], data["rolls_used"]
        dice = data["dice"]
        held = data["held"]
        state = GameState(
            config, _restore_generator(data["rng"]), _restore_generator(data["cpu_rng"]),
            cards, current, rnd,
            None if dice is None else tuple(dice), tuple(held), rolls,
            [Event.from_dict(e) for e in data["log"]],
        )
    except SavedGameError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError,
            ScoreCardError, CategoryError) as e:
        detail = " ".join(str(e).split())
        if len(detail) > 120:
            detail = detail[:117] + "..."
        raise SavedGameError(f"saved game is damaged ({type(e).__name__}: {detail})") from None
    _check(state)
    return state


def _check(state: GameState) -> None:
    """Raise :class:`SavedGameError` unless the restored state ``state`` is one a game can reach."""
    cfg = state.config

    def bad(what):
        raise SavedGameError(f"saved game is inconsistent: {what}")

    if len(state.cards) != cfg.n_players:
        bad(f"{len(state.cards)} cards for {cfg.n_players} player(s)")
    if any(c.rules != cfg.rules for c in state.cards):
        bad("a card of other rules")
    for name in ("current", "round", "rolls_used"):
        v = getattr(state, name)
        if isinstance(v, bool) or not isinstance(v, int):
            bad(f"{name} {v!r}")
    if state.current not in range(cfg.n_players):
        bad(f"player {state.current!r} to move")
    if not 0 <= state.rolls_used <= MAX_ROLLS:
        bad(f"rolls used {state.rolls_used!r}")
    if len(state.held) != N_DICE or not all(isinstance(h, bool) for h in state.held):
        bad(f"held dice {list(state.held)!r}")
    if state.rolls_used == 0:
        if state.dice is not None or any(state.held):
            bad("dice before the first roll")
    elif (
        state.dice is None
        or len(state.dice) != N_DICE
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in state.dice)
    ):
        bad(f"dice {state.dice!r}")
    # Boxes filled: players who have already played this round have one more.
    n = [bin(c.filled).count("1") for c in state.cards]
    if state.is_terminal():
        return
    if not 1 <= state.round <= cfg.n_turns:
        bad(f"round {state.round!r}")
    if cfg.n_players == 1:
        want = [state.round - 1]
    else:
        want = [state.round - 1] * 2
        if state.current != cfg.first:
            want[cfg.first] = state.round
    if n != want:
        bad(f"boxes filled {n} in round {state.round}")


# -- the file ---------------------------------------------------------------------------------
def save_game(state: GameState, path: str | os.PathLike | None = None) -> Path:
    """Write the game in progress atomically (default :func:`save_path`).

    Raises
    ------
    DataFileError
        If it cannot be written (the previous save is left intact).
    """
    return write_json_atomic(path if path is not None else save_path(), state_to_dict(state))


def load_game(path: str | os.PathLike | None = None) -> GameState | None:
    """The saved game, or ``None`` if there is none.

    Raises
    ------
    DataFileError
        If the file is corrupt, foreign or inconsistent: it has been moved
        aside (:func:`~yahtzee_solver.files.set_aside`) and the message says where.
    """
    path = Path(path) if path is not None else save_path()
    try:
        data = read_json(path)
        return state_from_dict(data)
    except FileNotFoundError:
        return None
    except DataFileError:
        raise
    except (*_CORRUPT, YahtzeeError) as e:
        moved = set_aside(path)
        raise DataFileError(
            f"saved game {str(path)!r} cannot be restored ({clip(e)}); moved to {str(moved)!r}"
        ) from None


def discard_game(path: str | os.PathLike | None = None) -> None:
    """Delete the saved game (after it has ended); no error if there is none."""
    path = Path(path) if path is not None else save_path()
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise DataFileError(f"cannot remove {str(path)!r}: {e.strerror or e}") from None
