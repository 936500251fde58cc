"""The reinforcement-learning environment (yahtzee_solver.env, the ``rl`` extra).

Skipped when gymnasium is not installed, except the tests that the package
works without it (plain ``import yahtzee_solver`` never loads gymnasium, and
``import yahtzee_solver.env`` then fails with one line naming the extra).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pytest

from yahtzee_solver import Advisor, get_rules
from yahtzee_solver.errors import IllegalMoveError, UsageError, YahtzeeError


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


# -- without gymnasium ---------------------------------------------------------------
def test_package_import_does_not_load_gymnasium():
    p = _run("import sys, yahtzee_solver; yahtzee_solver.Advisor; print('gymnasium' in sys.modules)")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_env_without_gymnasium_names_the_extra():
    # sys.modules[name] = None makes `import name` fail as if it were not installed
    p = _run(
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n"
        "    import yahtzee_solver.env\n"
        "except ImportError as e:\n"
        "    from yahtzee_solver.errors import YahtzeeError\n"
        "    print(isinstance(e, YahtzeeError)); print(e)\n"
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "True"
    assert len(lines) == 2 and "pip install 'yahtzee-solver[rl]'" in lines[1]


# -- with gymnasium --------------------------------------------------------------------
try:
    import gymnasium as gym
except ImportError:
    gym = None
else:
    from gymnasium.utils.env_checker import check_env

    from yahtzee_solver.env import ENV_ID, N_REROLL_ACTIONS, YahtzeeEnv

needs_gym = pytest.mark.skipif(gym is None, reason="gymnasium is not installed (pip install 'yahtzee-solver[rl]')")

RULES = ("yahtzee", "yacht")


@pytest.fixture(scope="module")
def envs():
    """One environment per rule set (the value table loads once)."""
    return {name: YahtzeeEnv(name) for name in ("yahtzee", "yacht", "yatzy", "yahtzee-free-joker")}


@needs_gym
@pytest.mark.parametrize("name", ["yahtzee", "yacht", "yatzy", "yahtzee-free-joker"])
def test_check_env(name):
    check_env(YahtzeeEnv(name), skip_render_check=True)


# a text rendering has no frame rate to declare
@needs_gym
@pytest.mark.filterwarnings("ignore:.*No render fps was declared")
def test_check_env_through_make_and_ansi_render():
    env = gym.make(ENV_ID, rules="yacht", render_mode="ansi")
    check_env(env.unwrapped)
    assert env.unwrapped.rules.name == "yacht"
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "rerolls left 2" in text
    assert env.get_wrapper_attr("action_masks")().shape == (env.action_space.n,)


@needs_gym
def test_spaces_and_layout(envs):
    for name, env in envs.items():
        C = get_rules(name).n_categories
        assert env.action_space == gym.spaces.Discrete(N_REROLL_ACTIONS + C)
        assert N_REROLL_ACTIONS == 31
        assert env.box_action(0) == 31 and env.box_action(C - 1) == 30 + C
        # every reroll action rerolls at least one die: a pass is not a move
        for a in range(N_REROLL_ACTIONS):
            assert not all(env.held_positions(a))
            assert env.reroll_action([i for i in range(5) if not env.held_positions(a)[i]]) == a
        assert env.observation_space.shape == (sum(s.stop - s.start for s in env.observation_layout.values()),)


def _check_obs(env, obs, info):
    g = env.game
    lay = env.observation_layout
    assert env.observation_space.contains(obs)
    card = g.card
    assert obs[lay["filled"]].tolist() == [int(v is not None) for v in card.boxes]
    assert obs[lay["points"]].tolist() == [v or 0 for v in card.boxes]
    mask, up, yb = card.key
    assert obs[lay["upper_subtotal"]].tolist() == [up]
    if env.rules.yahtzee_bonus:
        assert obs[lay["yahtzee_bonus_flag"]].tolist() == [yb]
    else:  # no Yahtzee bonus, no flag: yb is always 0
        assert "yahtzee_bonus_flag" not in lay and yb == 0
    if g.is_terminal():
        assert obs[lay["dice"]].tolist() == [0] * 5
        assert not info["action_mask"].any()
        return
    assert obs[lay["dice"]].tolist() == list(g.dice)
    assert obs[lay["counts"]].tolist() == [g.dice.count(f) for f in range(1, 7)]
    assert obs[lay["rerolls_left"]].tolist() == [g.rerolls_left]
    # the mask is the game's own list of legal moves
    legal_boxes = {a.category for a in g.legal_actions() if type(a).__name__ == "Score"}
    want = [g.rerolls_left > 0] * N_REROLL_ACTIONS + [c in legal_boxes for c in range(env.rules.n_categories)]
    assert info["action_mask"].tolist() == want
    assert env.action_masks().tolist() == want


@needs_gym
def test_random_agent_episode(envs):
    for name in ("yahtzee", "yacht", "yatzy", "yahtzee-free-joker"):
        env = envs[name]
        C = env.rules.n_categories
        rng = np.random.default_rng(7)
        for episode in range(5):
            obs, info = env.reset(seed=100 + episode)
            _check_obs(env, obs, info)
            ret, scores, done, before = 0.0, 0, False, 0
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                action = int(rng.choice(legal))
                obs, reward, done, truncated, info = env.step(action)
                assert truncated is False
                _check_obs(env, obs, info)
                # the reward is what the card gained (box, upper bonus, Yahtzee bonus)
                assert reward == env.game.card.total - before
                before = env.game.card.total
                ret += reward
                scores += action >= N_REROLL_ACTIONS
                assert done == (scores == C)
            assert env.game.card.is_full
            assert ret == env.game.card.total == info["total"]


@needs_gym
def test_yahtzee_bonus_and_upper_bonus_are_rewarded(envs):
    """Seeded optimal play until a step pays a Yahtzee bonus and one completes the upper bonus."""
    env = envs["yahtzee"]
    seen_bonus = seen_upper = False
    for episode in range(300):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            action = env.optimal_action()
            obs, reward, done, _, info = env.step(action)
            if action < N_REROLL_ACTIONS:
                assert reward == 0
                continue
            ev = [e for e in env.game.log if e.kind == "score"][-1]
            assert reward == ev.points + ev.yahtzee_bonus + ev.upper_bonus
            seen_bonus |= ev.yahtzee_bonus > 0
            seen_upper |= ev.upper_bonus > 0
        if seen_bonus and seen_upper:
            break
    assert seen_bonus and seen_upper


def _optimal_episode(env, seed):
    obs, info = env.reset(seed=seed)
    ret = 0.0
    done = False
    while not done:
        a = env.optimal_action()
        regret = info["regret"]
        assert regret[a] == 0.0
        legal = info["action_mask"]
        assert (np.isfinite(regret) == legal).all()
        assert (regret[legal] >= 0).all() and np.isposinf(regret[~legal]).all()
        obs, reward, done, _, info = env.step(a)
        ret += reward
    return ret


@needs_gym
def test_optimal_agent_episode(envs):
    for name in RULES:
        env = envs[name]
        ret = _optimal_episode(env, 11)
        assert ret == env.game.card.total


@needs_gym
@pytest.mark.parametrize("name", RULES)
def test_optimal_agent_mean_is_the_table_value(envs, name):
    env = envs[name]
    n = 600
    returns = np.empty(n)
    for i in range(n):
        obs, info = env.reset(seed=10_000 + i)
        ret, done = 0.0, False
        while not done:
            action = env.optimal_action()
            assert info["regret"][action] == 0.0
            obs, reward, done, _, info = env.step(action)
            ret += reward
        returns[i] = ret
    expected = Advisor(name).expected_final()
    half = 2.5758 * returns.std(ddof=1) / math.sqrt(n)  # 99 % two-sided, normal approximation
    assert abs(returns.mean() - expected) < half, (returns.mean(), expected, half)


@needs_gym
def test_regret_matches_the_advisor(envs):
    """Each regret is the advisor's expected final total of the best option minus that of the action.

    A reroll is the advisor's keep of the dice it holds, with the rerolls left;
    a box is the advisor's box option.  Holding all five dice and rolling
    (a pass) is not a move, so the advisor's keep-all row is not compared.
    """
    env = envs["yahtzee"]
    adv = Advisor("yahtzee")
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            g = env.game
            regret = info["regret"]
            boxes = {o.category: o.expected for o in adv.box_options(g.card, g.dice)}
            if g.rerolls_left:
                ranked = adv.keep_options(g.card, g.dice, g.rerolls_left)
                keeps = {o.keep: o.expected for o in ranked}
                best = ranked[0].expected
                for a in range(N_REROLL_ACTIONS):
                    kept = tuple(sorted(d for d, h in zip(g.dice, env.held_positions(a), strict=True) if h))
                    assert regret[a] == pytest.approx(best - keeps[kept], abs=1e-9)
            else:
                best = max(boxes.values())
            for c in range(env.rules.n_categories):
                r = regret[env.box_action(c)]
                assert r == (pytest.approx(best - boxes[c], abs=1e-9) if c in boxes else math.inf)
            assert info["expected_final"] == pytest.approx(best, abs=1e-9)
            obs, _, done, _, info = env.step(env.optimal_action())


@needs_gym
def test_optimal_action_is_the_advisor_choice(envs):
    env = envs["yahtzee"]
    adv = Advisor("yahtzee")
    env.reset(seed=5)
    g = env.game
    for _ in range(3):
        a = env.optimal_action()
        if g.rerolls_left and a < N_REROLL_ACTIONS:
            kept = tuple(sorted(d for d, h in zip(g.dice, env.held_positions(a), strict=True) if h))
            assert kept == adv.keep_options(g.card, g.dice, g.rerolls_left)[0].keep
        else:
            assert a - N_REROLL_ACTIONS == adv.box_options(g.card, g.dice)[0].category
        env.step(a)


@needs_gym
def test_seeded_episodes_are_deterministic():
    a, b = YahtzeeEnv("yahtzee"), YahtzeeEnv("yahtzee")

    def trace(env, seed):
        obs, info = env.reset(seed=seed)
        out = [obs.tolist()]
        rng = np.random.default_rng(0)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            out.append((action, obs.tolist(), reward))
        return out

    assert trace(a, 42) == trace(b, 42) == trace(a, 42)
    assert trace(a, 42) != trace(a, 43)


@needs_gym
def test_illegal_actions_raise(envs):
    env = envs["yahtzee"]
    with pytest.raises(UsageError, match="reset"):
        YahtzeeEnv("yahtzee").step(0)
    obs, info = env.reset(seed=0)
    n = env.action_space.n
    bad_actions = ((-1, "-1"), (n, str(int(n))), (2.5, "2.5"), (True, "True"), ("3", "'3'"), (np.array([1, 2]), ""))
    for bad, shown in bad_actions:
        with pytest.raises(UsageError, match=re.escape(f"invalid action {shown}")):
            env.step(bad)
    env.step(env.box_action(0))
    with pytest.raises(IllegalMoveError, match="ones box is already filled"):
        env.step(env.box_action(0))
    env.step(0)
    env.step(0)
    assert not env.action_masks()[:N_REROLL_ACTIONS].any()
    with pytest.raises(IllegalMoveError, match="locked after the third roll"):
        env.step(5)
    # np.integer actions are accepted (what RL libraries pass)
    env.step(np.int64(env.box_action(1)))
    while env.action_masks().any():
        env.step(int(np.flatnonzero(env.action_masks())[-1]))
    with pytest.raises(IllegalMoveError, match="game is over"):
        env.step(env.box_action(2))
    with pytest.raises(IllegalMoveError, match="game is over"):
        env.optimal_action()


@needs_gym
def test_illegal_joker_box_names_the_rule():
    """Five alike with the Yahtzee box filled: the forced Joker closes boxes, as the game engine says."""
    from yahtzee_solver.state import ScoreCard

    env = YahtzeeEnv("yahtzee")
    env.reset(seed=0)
    g = env.game
    boxes = [None] * env.rules.n_categories
    boxes[env.rules.yahtzee_category] = 0
    g.cards[0] = ScoreCard(env.rules, tuple(boxes))  # a position set up through the engine's state
    g.dice = (3, 3, 3, 3, 3)
    mask = env.action_masks()
    assert mask[env.box_action(2)] and mask.sum() == 1 + N_REROLL_ACTIONS
    with pytest.raises(IllegalMoveError, match="joker: five 3s must go in the threes box"):
        env.step(env.box_action(6))


@needs_gym
def test_no_regret_mode_skips_the_table():
    env = YahtzeeEnv("yahtzee", regret=False)
    obs, info = env.reset(seed=0)
    assert set(info) == {"action_mask", "total"}
    assert env._advisor is None
    env.step(env.box_action(3))
    assert env._advisor is None
    assert 0 <= env.optimal_action() < env.action_space.n  # loads it on demand


@needs_gym
def test_info_and_observation_are_new_objects(envs):
    env = envs["yacht"]
    obs1, info1 = env.reset(seed=0)
    obs2, _, _, _, info2 = env.step(0)
    assert obs1 is not obs2 and not np.shares_memory(obs1, obs2)
    assert not np.shares_memory(info1["regret"], info2["regret"])
    assert not np.shares_memory(info1["action_mask"], info2["action_mask"])


@needs_gym
def test_errors_are_project_errors():
    assert issubclass(IllegalMoveError, YahtzeeError)
    with pytest.raises(YahtzeeError):
        YahtzeeEnv("no-such-rules")
    with pytest.raises(UsageError, match="render mode"):
        YahtzeeEnv("yahtzee", render_mode="human")


@needs_gym
def test_step_is_fast(envs):
    """A step (with regrets) is well under a millisecond once the kernels are loaded."""
    import time

    env = envs["yahtzee"]
    env.reset(seed=0)
    _optimal_episode(env, 0)  # load and compile first
    steps, t0 = 0, time.perf_counter()
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, info = env.step(env.optimal_action())
            steps += 1
    per_step = (time.perf_counter() - t0) / steps
    assert per_step < 1e-3, per_step
