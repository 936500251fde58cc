"""Shared fixtures for the solver-core tests.

* :func:`built` -- one fresh DP build per rule set per test session (a build takes
  a few seconds plus numba compilation), so every test that needs exact values
  uses numbers computed in this run, never numbers typed into the tests.
* :func:`ref` -- an independent, deliberately plain implementation of the
  scoring and Joker rules written from ``docs/rules.md`` (it does not call
  :mod:`yahtzee_solver.rules` or :func:`yahtzee_solver.solver.kernels.box_points`), used
  as the oracle by the scoring, scorecard, advisor and brute-force tests.
* :func:`own_data_folder` (every test) -- the data folder (records, saved
  game, ledger, history, lock) is a temporary one, and so is the platform
  default a test falls back to; a test that writes into that default fails.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from yahtzee_solver.solver.build import build_values
from yahtzee_solver.files import HOME_ENV, data_dir
from yahtzee_solver.solver.table import ValueTable

#: The data folder this run would use without the fixture below (the user's own records live there).
REAL_DATA_FOLDER = data_dir().resolve()


# -- the data folder ----------------------------------------------------------
@pytest.fixture(autouse=True)
def own_data_folder(tmp_path_factory, monkeypatch):
    """Point ``$YAHTZEE_SOLVER_HOME`` at a fresh temporary folder for the test, and the platform default
    (``$XDG_CONFIG_HOME``, which a test that unsets the variable falls back to) at another one; after
    the test, nothing may have been written in that default.  Tests that need their own folder set
    ``$YAHTZEE_SOLVER_HOME`` again (``monkeypatch.setenv``), which wins.

    Yields the test's data folder (not created).
    """
    base = tmp_path_factory.mktemp("data-folder")
    monkeypatch.setenv(HOME_ENV, str(base / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    default = base / "config" / "yahtzee-solver"
    yield base / "home"
    written = sorted(p.name for p in default.iterdir()) if default.exists() else []
    assert not written, f"the test wrote {written} into the default data folder, not its own"

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht")
#: Every rule set of docs/rules.md (the three above, the two Yahtzee variants without Joker, Yatzy).
ALL_RULE_NAMES = RULE_NAMES + ("yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")


# -- the quick subset ----------------------------------------------------------
#: Fixtures that make a test slow: a fresh DP build of a rule set (seconds each, plus numba's compilation).
_SLOW_FIXTURES = {"built", "fresh_table"}

#: Other tests of several seconds each (``--durations``: exact DPs against brute force, long
#: simulations, real subprocesses and servers), as ``file::function`` (every parametrization).
_SLOW_TESTS = {
    "test_batch.py::test_ranked_equals_the_advisor",
    "test_batch.py::test_ranked_is_the_policy_in_every_argument_form",
    "test_cli_dist.py::test_every_probability_in_the_text_has_one_format",
    "test_cli_play.py::test_full_game_against_each_level",
    "test_cli_serve.py::test_a_real_server_serves_and_stops_cleanly",
    "test_curve_data.py::test_shipped_yahtzee_curve_is_the_dp",
    "test_distribution.py::test_free_joker_empty_card_matches_verhoeff",
    "test_distribution.py::test_empty_card_distribution_fits_simulate",
    "test_distribution.py::test_exact_distribution_fits_seeded_play",
    "test_kernels.py::test_turn_kernel_on_reference_values_keep_by_keep",
    "test_objectives.py::test_keep_and_box_values_match_brute_force",
    "test_objectives.py::test_target_matches_brute_force",
    "test_objectives.py::test_win_matches_brute_force",
    "test_objectives.py::test_compiled_equals_interpreted",
    "test_objectives.py::test_tile_size_does_not_change_a_value",
    "test_review.py::test_mean_score_is_the_table_value_minus_the_mean_loss_for_the_normal_level",
    "test_simulate.py::test_sigint_to_a_running_simulation_keeps_the_games_done",
    "test_simulate.py::test_expert_mean_agrees_with_the_table",
    "test_simulate.py::test_levels_are_ordered_by_clear_margins",
    "test_simulate.py::test_simulate_is_deterministic_for_a_seed",
    "test_web_api.py::test_hint_shows_the_terminals_chances_of_winning",
}


def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` every test that builds tables (:func:`built`), drives the browser or is listed in
    :data:`_SLOW_TESTS`, so that ``-m "not slow"`` is the quick edit-test loop; the whole suite runs
    them all.  A listed test that its file no longer has is an error (the list would silently rot)."""
    modules = {}
    for item in items:
        file = item.path.name
        name = f"{file}::{getattr(item, 'originalname', item.name)}"
        if getattr(item, "module", None) is not None:
            modules[file] = item.module
        if (name in _SLOW_TESTS or _SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
                or item.get_closest_marker("browser")):
            item.add_marker(pytest.mark.slow)
    stale = sorted(n for n in _SLOW_TESTS
                   if n.split("::")[0] in modules and not hasattr(modules[n.split("::")[0]], n.split("::")[1]))
    if stale:
        raise pytest.UsageError(f"conftest._SLOW_TESTS names tests that do not exist: {', '.join(stale)}")


# -- fresh builds ------------------------------------------------------------
@pytest.fixture(scope="session")
def built():
    """``built(name)`` -> :class:`BuildResult` of a build done in this session (cached, read-only)."""
    cache = {}

    def get(name: str):
        if name not in cache:
            result = build_values(name)
            result.values.setflags(write=False)
            cache[name] = result
        return cache[name]

    return get


@pytest.fixture(scope="session")
def fresh_table(built):
    """``fresh_table(name)`` -> in-memory :class:`ValueTable` from the session build."""
    cache = {}

    def get(name: str) -> ValueTable:
        if name not in cache:
            r = built(name)
            cache[name] = ValueTable(r.rules, r.values)
        return cache[name]

    return get


# -- independent rules reference (docs/rules.md) ----------------------------------
#: Box names in docs/rules.md order; box i is bit i of the filled mask.
REF_NAMES = {
    "yahtzee": (
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
        "Three of a Kind", "Four of a Kind", "Full House", "Small Straight",
        "Large Straight", "Yahtzee", "Chance",
    ),
    "yacht": (
        "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes",
        "Choice", "Four Dice", "Full House", "Small Straight", "Large Straight", "Yacht",
    ),
    "yatzy": (
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
        "One Pair", "Two Pairs", "Three of a Kind", "Four of a Kind", "Small Straight",
        "Large Straight", "Full House", "Chance", "Yatzy",
    ),
}
for _game in ("yahtzee-free-joker", "yahtzee-no-joker", "yahtzee-no-bonus"):
    REF_NAMES[_game] = REF_NAMES["yahtzee"]

_FACE_OF = {"Ones": 1, "Aces": 1, "Twos": 2, "Threes": 3, "Fours": 4, "Fives": 5, "Sixes": 6}
#: docs/rules.md: a Joker scores Full House 25, Small Straight 30, Large Straight 40.
_JOKER_FIXED = {"Full House": 25, "Small Straight": 30, "Large Straight": 40}
YAHTZEE_BOX = 11  # Yahtzee (and Yacht) is box 11 in both tables of docs/rules.md
UPPER_THRESHOLD, UPPER_BONUS, YAHTZEE_BONUS = 63, 35, 100


def ref_yahtzee_box(game: str) -> int:
    """The five-alike box of ``game`` (Yatzy: box 14, the last; otherwise 11)."""
    return 14 if game == "yatzy" else YAHTZEE_BOX


def ref_upper_bonus(game: str) -> int:
    """docs/rules.md: +50 in Yatzy, +35 otherwise."""
    return 50 if game == "yatzy" else UPPER_BONUS


def ref_has_yahtzee_bonus(game: str) -> bool:
    """docs/rules.md: the +100 Yahtzee bonus exists in yahtzee, yahtzee-free-joker and yahtzee-no-joker."""
    return game in ("yahtzee", "yahtzee-free-joker", "yahtzee-no-joker")


def _yatzy_score(name: str, dice) -> int:
    counts = Counter(dice)
    faces = set(dice)
    if name == "One Pair":
        pairs = [f for f in faces if counts[f] >= 2]
        return 2 * max(pairs) if pairs else 0
    if name == "Two Pairs":  # two different faces; four alike is not two pairs
        pairs = sorted(f for f in faces if counts[f] >= 2)
        return 2 * (pairs[-1] + pairs[-2]) if len(pairs) >= 2 else 0
    if name == "Three of a Kind":
        return next((3 * f for f in faces if counts[f] >= 3), 0)
    if name == "Four of a Kind":
        return next((4 * f for f in faces if counts[f] >= 4), 0)
    if name == "Small Straight":
        return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if name == "Large Straight":
        return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if name == "Full House":
        return sum(dice) if sorted(counts.values()) == [2, 3] else 0
    if name == "Yatzy":
        return 50 if len(faces) == 1 else 0
    raise AssertionError(name)


def ref_score(game: str, box: int, dice) -> int:
    """Ordinary points of five ``dice`` in box ``box`` of ``game`` (no Joker, no bonus)."""
    name = REF_NAMES[game][box]
    dice = sorted(dice)
    assert len(dice) == 5 and all(1 <= d <= 6 for d in dice)
    counts = Counter(dice)
    most = max(counts.values())
    total = sum(dice)
    faces = set(dice)
    yacht = game == "yacht"
    if name in _FACE_OF:
        return _FACE_OF[name] * counts[_FACE_OF[name]]
    if name in ("Chance", "Choice"):
        return total
    if game == "yatzy":
        return _yatzy_score(name, dice)
    if name == "Three of a Kind":
        return total if most >= 3 else 0
    if name in ("Four of a Kind", "Four Dice"):
        return total if most >= 4 else 0
    if name == "Full House":
        is_fh = sorted(counts.values()) == [2, 3]
        return (total if yacht else 25) if is_fh else 0
    if name == "Small Straight":
        hit = any(set(range(a, a + 4)) <= faces for a in (1, 2, 3))
        return (15 if yacht else 30) if hit else 0
    if name == "Large Straight":
        hit = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
        return (30 if yacht else 40) if hit else 0
    if name in ("Yahtzee", "Yacht"):
        return 50 if len(faces) == 1 else 0
    raise AssertionError(name)


def ref_moves(game: str, open_boxes, yahtzee_box, dice) -> dict[int, tuple[int, int]]:
    """Every box where five final ``dice`` may be scored, per docs/rules.md.

    Parameters
    ----------
    game : str
        Rule-set name.
    open_boxes : iterable of int
        The open boxes.
    yahtzee_box : None, 0 or 50
        What the Yahtzee box holds (``None`` = open).
    dice : sequence of int

    Returns
    -------
    dict
        ``{box: (points written in the box, Yahtzee bonus earned)}`` for the legal boxes.
    """
    open_boxes = set(open_boxes)
    assert (yahtzee_box is None) == (ref_yahtzee_box(game) in open_boxes)
    five_alike = len(set(dice)) == 1
    if game in ("yacht", "yatzy", "yahtzee-no-bonus") or not five_alike or yahtzee_box is None:
        return {c: (ref_score(game, c, dice), 0) for c in open_boxes}
    face = dice[0]
    own = face - 1  # the upper box of that face
    bonus = YAHTZEE_BONUS if yahtzee_box == 50 else 0
    if game == "yahtzee-no-joker":  # any open box, by its own pattern, plus the bonus
        return {c: (ref_score(game, c, dice), bonus) for c in open_boxes}
    names = REF_NAMES[game]
    if game == "yahtzee":  # forced Joker
        if own in open_boxes:
            return {own: (5 * face, bonus)}
        lower = [c for c in open_boxes if c >= 6]
        if lower:
            return {c: (_JOKER_FIXED.get(names[c], ref_score(game, c, dice)), bonus) for c in lower}
        return {c: (0, bonus) for c in open_boxes}
    assert game == "yahtzee-free-joker"
    out = {}
    for c in open_boxes:
        pts = ref_score(game, c, dice)
        if own not in open_boxes and names[c] in _JOKER_FIXED:
            pts = _JOKER_FIXED[names[c]]
        out[c] = (pts, bonus)
    return out


@pytest.fixture(scope="session")
def ref():
    """The independent rules reference: ``ref.score``, ``ref.moves``, ``ref.names`` and constants."""
    return SimpleNamespace(
        score=ref_score,
        moves=ref_moves,
        names=REF_NAMES,
        yahtzee_box=YAHTZEE_BOX,
        threshold=UPPER_THRESHOLD,
        upper_bonus=UPPER_BONUS,
        yahtzee_bonus=YAHTZEE_BONUS,
        rule_names=RULE_NAMES,
        all_rule_names=ALL_RULE_NAMES,
        ybox=ref_yahtzee_box,
        ubonus=ref_upper_bonus,
        has_ybonus=ref_has_yahtzee_bonus,
    )


# -- Joker cases (docs/rules.md), checked through ScoreCard.box_points and Advisor.box_options --
_LOWER_DONE = "3k=20,4k=0,fh=25,ss=30,ls=0,chance=22"
_ALL_13_ON_55555 = {
    "ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 25, "sixes": 0,
    "3k": 25, "4k": 25, "fh": 0, "ss": 0, "ls": 0, "yahtzee": 50, "chance": 25,
}
_JOKER_LOWER = {"3k": 25, "4k": 25, "fh": 25, "ss": 30, "ls": 40, "chance": 25}
_NO_JOKER_55555 = {k: v for k, v in _ALL_13_ON_55555.items() if k != "yahtzee"}
_UPPER_ZERO_BUT_FIVES = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0}

#: (id, rules, card, dice, {box: points} of exactly the legal boxes, Yahtzee bonus earned, is a Joker)
JOKER_CASES = [
    # forced Joker (official rules)
    ("forced-own-upper-open", "yahtzee", "yahtzee=50", "55555", {"fives": 25}, 100, True),
    ("forced-own-upper-open-box-0", "yahtzee", "yahtzee=0", "55555", {"fives": 25}, 0, True),
    ("forced-lower-open", "yahtzee", "yahtzee=50,fives=15", "55555", _JOKER_LOWER, 100, True),
    ("forced-lower-open-box-0", "yahtzee", "yahtzee=0,fives=15", "55555", _JOKER_LOWER, 0, True),
    ("forced-some-lower-open", "yahtzee", "yahtzee=50,fives=25,fh=25,chance=20", "55555",
     {"3k": 25, "4k": 25, "ss": 30, "ls": 40}, 100, True),
    ("forced-lower-full", "yahtzee", f"yahtzee=50,fives=15,{_LOWER_DONE}", "55555", _UPPER_ZERO_BUT_FIVES, 100, True),
    ("forced-lower-full-box-0", "yahtzee", f"yahtzee=0,fives=15,ones=3,twos=6,threes=9,{_LOWER_DONE}", "55555",
     {"fours": 0, "sixes": 0}, 0, True),
    ("forced-yahtzee-open", "yahtzee", None, "55555", _ALL_13_ON_55555, 0, False),
    ("forced-not-five-alike", "yahtzee", "yahtzee=50", "22555",
     {"ones": 0, "twos": 4, "threes": 0, "fours": 0, "fives": 15, "sixes": 0,
      "3k": 19, "4k": 0, "fh": 25, "ss": 0, "ls": 0, "chance": 19}, 0, False),
    # free Joker (Verhoeff): any open box; FH/SS/LS fixed only once the own upper box is filled
    ("free-own-upper-open", "yahtzee-free-joker", "yahtzee=50", "55555",
     {k: v for k, v in _ALL_13_ON_55555.items() if k != "yahtzee"}, 100, True),
    ("free-own-upper-filled", "yahtzee-free-joker", "yahtzee=50,fives=15", "55555",
     {**_UPPER_ZERO_BUT_FIVES, **_JOKER_LOWER}, 100, True),
    ("free-own-upper-filled-box-0", "yahtzee-free-joker", "yahtzee=0,fives=15", "55555",
     {**_UPPER_ZERO_BUT_FIVES, **_JOKER_LOWER}, 0, True),
    ("free-lower-full", "yahtzee-free-joker", f"yahtzee=50,fives=15,{_LOWER_DONE}", "55555",
     _UPPER_ZERO_BUT_FIVES, 100, True),
    ("free-yahtzee-open", "yahtzee-free-joker", None, "55555", _ALL_13_ON_55555, 0, False),
    # Yacht: no Joker, no bonus; five alike is Four Dice but not Full House
    ("yacht-box-filled", "yacht", "yacht=50", "55555",
     {"aces": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 25, "sixes": 0,
      "choice": 25, "four-dice": 25, "fh": 0, "ss": 0, "ls": 0}, 0, False),
    ("yacht-box-open", "yacht", "fives=25", "55555",
     {"aces": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0,
      "choice": 25, "four-dice": 25, "fh": 0, "ss": 0, "ls": 0, "yacht": 50}, 0, False),
    # Yahtzee without Joker: any open box by its own pattern (FH/SS/LS 0), +100 while the box holds 50
    ("no-joker-box-50", "yahtzee-no-joker", "yahtzee=50", "55555", _NO_JOKER_55555, 100, False),
    ("no-joker-own-upper-filled", "yahtzee-no-joker", "yahtzee=50,fives=15", "55555",
     {k: v for k, v in _NO_JOKER_55555.items() if k != "fives"}, 100, False),
    ("no-joker-box-0", "yahtzee-no-joker", "yahtzee=0", "55555", _NO_JOKER_55555, 0, False),
    ("no-joker-box-open", "yahtzee-no-joker", None, "55555", _ALL_13_ON_55555, 0, False),
    # Yahtzee without bonus: the same boxes, never a bonus
    ("no-bonus-box-50", "yahtzee-no-bonus", "yahtzee=50", "55555", _NO_JOKER_55555, 0, False),
    # Yatzy: five alike is One Pair, Three and Four of a Kind (the matching dice), not Two Pairs or Full House
    ("yatzy-box-filled", "yatzy", "yatzy=50", "55555",
     {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 25, "sixes": 0, "one-pair": 10,
      "two-pairs": 0, "three-of-a-kind": 15, "four-of-a-kind": 20, "ss": 0, "ls": 0, "fh": 0,
      "chance": 25}, 0, False),
    ("yatzy-box-open", "yatzy", None, "66666",
     {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0, "sixes": 30, "one-pair": 12,
      "two-pairs": 0, "three-of-a-kind": 18, "four-of-a-kind": 24, "ss": 0, "ls": 0, "fh": 0,
      "chance": 30, "yatzy": 50}, 0, False),
]


@pytest.fixture(params=JOKER_CASES, ids=[c[0] for c in JOKER_CASES])
def joker_case(request):
    """One Joker situation: ``SimpleNamespace(rules, card, dice, legal, bonus, joker)``."""
    _, rules, card, dice, legal, bonus, joker = request.param
    return SimpleNamespace(rules=rules, card=card, dice=dice, legal=legal, bonus=bonus, joker=joker)
