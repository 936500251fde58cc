"""The layered DP: published optimal values, shipped tables = fresh build, reachable states."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from yahtzee_solver.solver.build import reachable_upper, state_arrays, upper_classes
from yahtzee_solver.rules import get_rules
from yahtzee_solver.solver.table import default_table_path, load_table

from rulesdoc import reference_values

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")

#: docs/rules.md, "Reference values": optimal expected final score from the empty card.
PUBLISHED = reference_values()


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_empty_card_value_matches_the_rules_doc(name, built):
    result = built(name)
    assert result.empty_value == pytest.approx(PUBLISHED[name], abs=1e-6)
    assert result.values[0, 0, 0] == result.empty_value
    assert result.rules.reference_value == PUBLISHED[name]


def test_the_joker_conventions_give_different_tables(built):
    a, b = built("yahtzee").values, built("yahtzee-free-joker").values
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert not np.array_equal(a, b, equal_nan=True)
    assert b[0, 0, 0] > a[0, 0, 0]  # the free Joker gives the player more choice


@pytest.mark.parametrize("name", RULE_NAMES)
def test_shipped_table_equals_a_fresh_build(name, built):
    shipped = load_table(name)
    assert shipped.path == default_table_path(name)
    fresh = built(name)
    assert shipped.values.shape == fresh.values.shape
    assert np.array_equal(np.isnan(shipped.values), np.isnan(fresh.values))
    assert np.array_equal(shipped.values, fresh.values, equal_nan=True)  # bit for bit, no tolerance
    assert shipped.meta["n_states"] == fresh.n_states
    assert shipped.meta["empty_value"] == fresh.empty_value


def _brute_reachable(mask6: int) -> set[int]:
    boxes = [i for i in range(6) if (mask6 >> i) & 1]
    return {min(63, sum((i + 1) * n for i, n in zip(boxes, ns))) for ns in itertools.product(range(6), repeat=len(boxes))}


def test_reachable_upper_subtotals():
    reach = reachable_upper(get_rules("yahtzee"))
    assert reach.shape == (64, 64) and reach.dtype == bool
    for m in range(64):
        assert set(np.flatnonzero(reach[m])) == _brute_reachable(m), m
    # examples: Sixes alone can make 0, 6, ..., 30; nothing makes 1 without Ones
    assert set(np.flatnonzero(reach[0b100000])) == {0, 6, 12, 18, 24, 30}
    assert not reach[0b111110, 1]


@pytest.mark.parametrize("name", RULE_NAMES)
def test_nan_exactly_at_unreachable_states(name, built):
    rules = get_rules(name)
    result = built(name)
    V = result.values
    C = rules.n_categories
    assert V.shape == (1 << C, 64, rules.n_flags) and V.dtype == np.float64
    reach = np.array([sorted(_brute_reachable(m)) for m in range(64)], dtype=object)
    expected = np.zeros(V.shape, dtype=bool)
    for mask in range(1 << C):
        ups = reach[mask & 63]
        expected[mask, ups, 0] = True
        if rules.n_flags == 2 and (mask >> rules.yahtzee_category) & 1:  # the flag needs a filled Yahtzee box
            expected[mask, ups, 1] = True
    assert np.array_equal(~np.isnan(V), expected)
    assert result.n_states == int(expected.sum())
    assert np.all(V[rules.full_mask][expected[rules.full_mask]] == 0.0)


@pytest.mark.parametrize("name", RULE_NAMES)
def test_value_invariants(name, built):
    """Values are >= 0; a higher upper subtotal and the Yahtzee-bonus flag never hurt; filling costs."""
    V = built(name).values
    rules = get_rules(name)
    ok = ~np.isnan(V)
    assert np.all(V[ok] >= 0)
    # monotone in the upper subtotal below 63; at 63 the bonus is already scored,
    # so the future is worth at least the others minus the bonus points collected
    checked = 0
    for mask in range(0, 1 << rules.n_categories, 37):
        for y in range(rules.n_flags):
            row = V[mask, :63, y]
            row = row[~np.isnan(row)]
            assert np.all(np.diff(row) >= -1e-9), (mask, y)
            if row.size and not np.isnan(V[mask, 63, y]):
                assert row[-1] <= V[mask, 63, y] + rules.upper_bonus + 1e-9, (mask, y)
                checked += 1
    assert checked > 10
    if rules.n_flags == 2:
        both = ok[:, :, 0] & ok[:, :, 1]
        assert np.all(V[:, :, 1][both] >= V[:, :, 0][both] - 1e-9)
        assert np.any(V[:, :, 1][both] > V[:, :, 0][both] + 1)
    # filling any box in the first turn leaves less to come than the empty card
    for c in range(rules.n_categories):
        v_next = V[1 << c, :, 0]
        assert np.nanmax(v_next) < V[0, 0, 0]


@pytest.mark.parametrize("name", RULE_NAMES)
def test_state_arrays_list_each_layer(name, built):
    rules = get_rules(name)
    V = built(name).values
    reachable = np.argwhere(~np.isnan(V))
    popcount = np.array([bin(m).count("1") for m in range(1 << rules.n_categories)])
    gray_rank = {g ^ (g >> 1): g for g in range(1 << rules.n_categories)}
    for p in (0, 1, rules.n_categories - 2, rules.n_categories):
        masks, ups, ybs = state_arrays(rules, p)
        assert masks.dtype == ups.dtype == ybs.dtype == np.int64
        assert all(bin(int(m)).count("1") == p for m in masks)
        keys = list(zip(masks.tolist(), ups.tolist(), ybs.tolist()))
        # the masks in the order of their rank in the reflected Gray code, then subtotal, then flag
        assert keys == sorted(keys, key=lambda k: (gray_rank[k[0]], k[1], k[2])) and len(set(keys)) == len(keys)
        layer = {tuple(k) for k in reachable[popcount[reachable[:, 0]] == p].tolist()}
        assert set(keys) == layer
        if p == rules.n_categories - 2:  # the interpreted kernel lists the same states
            for a, b in zip(state_arrays(rules, p, jit_compile=False), (masks, ups, ybs)):
                np.testing.assert_array_equal(a, b)
    assert state_arrays(rules, 0)[0].tolist() == [0]


def test_build_result_fields(built):
    r = built("yacht")
    assert r.rules.name == "yacht"
    assert r.seconds > 0 and r.compile_seconds >= 0
    assert r.empty_value == r.values[0, 0, 0] > 0


def test_every_kernel_of_the_build_loads_before_its_timed_part(monkeypatch):
    """``BuildResult.seconds`` leaves out compiling: each kernel the layers call runs first on an
    empty layer, with the layers' argument types, before the clock starts."""
    import time

    from yahtzee_solver.solver import build, jit

    clock = time.perf_counter
    readings: list[float] = []  # the build's own clock readings: the second starts the timed part

    def reading() -> float:
        readings.append(clock())
        return readings[-1]

    k = jit.compiled()
    names = ("solve_states", "layer_states", "copy_class_values")
    real = {name: getattr(k, name) for name in names}
    calls: list[tuple[str, int, float]] = []
    for name in names:
        def spy(*a, name=name):
            calls.append((name, len(a[0]), clock()))
            return real[name](*a)

        monkeypatch.setattr(k, name, spy)
    monkeypatch.setattr(build.time, "perf_counter", reading)
    build.build_values("yacht")
    monkeypatch.undo()
    t1 = readings[1]
    for name in names:
        mine = [(n, t) for who, n, t in calls if who == name]
        assert mine[0][0] == 0 and mine[0][1] < t1, name  # first on no states, before the clock
        assert len(mine) > 1 and all(n > 0 and t > t1 for n, t in mine[1:]), name
    for name in ("layer_states", "copy_class_values"):  # the empty call had the layers' types
        assert len(real[name].signatures) == 1, real[name].signatures


def test_two_pairs_of_one_face_would_fail_the_yatzy_reference(built):
    """docs/rules.md: a solver whose Two Pairs accepted four alike (one face twice) publishes 248.63.

    Build Yatzy with exactly that bug (Two Pairs scores 4 x face for four or five alike) and check
    that the reference test above would catch it, while the real rule set passes.
    """
    import dataclasses

    from yahtzee_solver.solver.build import build_values
    from yahtzee_solver.dice import KEEP_COUNTS, ROLL_OFFSET

    yatzy = get_rules("yatzy")
    tp = yatzy.category_index("two-pairs")
    score = yatzy.arrays()["score"].copy()
    counts = KEEP_COUNTS[ROLL_OFFSET:]
    four = counts.max(axis=1) >= 4
    score[four, tp] = 4 * (counts[four].argmax(axis=1) + 1)
    assert score[four, tp].min() == 4 and (score[:, tp] != yatzy.arrays()["score"][:, tp]).sum() == 36
    buggy = dataclasses.replace(yatzy, name="yatzy-two-pairs-bug")
    buggy.__dict__["_kernel_arrays"] = {**yatzy.arrays(), "score": score}  # the cached kernel inputs
    wrong = build_values(buggy).empty_value
    assert wrong == pytest.approx(248.63, abs=0.02)  # the published figure of the buggy solver
    assert wrong != pytest.approx(PUBLISHED["yatzy"], abs=1e-6)
    assert built("yatzy").empty_value == pytest.approx(PUBLISHED["yatzy"], abs=1e-6)


def _brute_classes(rules) -> np.ndarray:
    """upper_classes by its definition: the signature of every sum the open upper boxes can add."""
    T = rules.upper_threshold
    reach = reachable_upper(rules)
    out = np.full((64, T + 1), -1, dtype=np.int64)
    for m in range(64):
        open_boxes = [i for i in range(6) if not (m >> i) & 1]
        sums = {min(T, sum((i + 1) * n for i, n in zip(open_boxes, ns)))
                for ns in itertools.product(range(6), repeat=len(open_boxes))}
        first: dict[tuple[bool, ...], int] = {}
        for u in np.flatnonzero(reach[m]):
            sig = tuple(min(T, int(u) + s) >= T for s in sorted(sums))
            out[m, u] = first.setdefault(sig, int(u))
    return out


@pytest.mark.parametrize("threshold", [63, 0, 1, 30, 105])
def test_upper_classes_match_their_definition(threshold):
    import dataclasses

    rules = dataclasses.replace(get_rules("yahtzee"), name=f"yahtzee-threshold-{threshold}", upper_threshold=threshold)
    np.testing.assert_array_equal(upper_classes(rules), _brute_classes(rules))


def test_ctrl_c_closes_the_progress_bar(monkeypatch):
    """KeyboardInterrupt in a layer: the bar is closed before it reaches the caller (not left to be
    redrawn after the caller's message)."""
    from tqdm import tqdm

    from yahtzee_solver.solver import build, jit

    k = jit.compiled()
    real = k.solve_states
    layers = []

    def interrupted(masks, *args):  # the warm-up call on no states passes; the first layer is stopped
        if len(masks):
            layers.append(len(masks))
            raise KeyboardInterrupt
        return real(masks, *args)

    monkeypatch.setattr(k, "solve_states", interrupted)
    before = set(tqdm._instances)
    with pytest.raises(KeyboardInterrupt) as info:  # info keeps the frame, and so an unclosed bar, alive
        build.build_values("yacht", progress=True)
    assert layers and info.traceback and set(tqdm._instances) == before
