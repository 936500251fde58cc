"""A reinforcement-learning environment: solitaire Yahtzee as a ``gymnasium`` environment.

For researchers who use Yahtzee as a benchmark: :class:`YahtzeeEnv` plays one
solitaire game per episode on the project's game engine
(:mod:`yahtzee_solver.game`, so the rules -- the forced Joker, the bonuses --
are the engine's), with integer actions, an observation array, a legal-action
mask, and the exact optimal policy as a baseline: the regret of every action
(expected final score lost against the best action) in each step's ``info``.

Needs the ``rl`` extra (``pip install 'yahtzee-solver[rl]'``); nothing else in
the package imports this module, so ``import yahtzee_solver`` never loads
gymnasium.

Example
-------
>>> from yahtzee_solver.env import YahtzeeEnv
>>> env = YahtzeeEnv("yahtzee")
>>> obs, info = env.reset(seed=1)
>>> done, ret = False, 0.0
>>> while not done:
...     obs, reward, done, truncated, info = env.step(env.optimal_action())
...     ret += reward
>>> ret == env.game.card.total
True

The environment is registered with gymnasium as :data:`ENV_ID`
(``gymnasium.make("yahtzee_solver/Yahtzee-v0", rules="yacht")``) when this
module is imported.
"""

from __future__ import annotations

from ..errors import YahtzeeError

__all__ = ["YahtzeeEnv", "N_REROLL_ACTIONS", "ENV_ID", "MissingExtraError"]


class MissingExtraError(YahtzeeError, ImportError):
    """An optional dependency (here gymnasium) is not installed; the message names the extra to install."""


try:
    import gymnasium  # noqa: F401
except ImportError:
    raise MissingExtraError("yahtzee_solver.env needs gymnasium: pip install 'yahtzee-solver[rl]'") from None

from .core import N_REROLL_ACTIONS, YahtzeeEnv  # noqa: E402

#: The id under which :class:`YahtzeeEnv` is registered with gymnasium (``gymnasium.make(ENV_ID, rules="yacht")``).
ENV_ID = "yahtzee_solver/Yahtzee-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="yahtzee_solver.env.core:YahtzeeEnv")
