"""Query objects shared between threads give the answers of one thread (issue 16.2).

The compiled kernels release the GIL, so two threads run a shared object's
queries at the same time.  Each test asks one object a few thousand random
questions serially (the baseline), then the same questions from
:data:`N_THREADS` threads at once, and wants every answer equal, bit for bit.
The last tests force numba's ``workqueue`` threading layer (the one numba
falls back to without OpenMP or TBB, which aborts the process when two
threads enter parallel code at once) in a subprocess.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from yahtzee_solver import Advisor, ScoreCard, parse_card
from yahtzee_solver.strategy.batch import ArrayAdvisor
from yahtzee_solver.dice import roll_index
from yahtzee_solver.strategy.master import MasterStrategy
from yahtzee_solver.strategy.players import BeginnerStrategy, ExpertStrategy, NormalStrategy
from yahtzee_solver.strategy.policy import ExpectedValueSource, Policy, TurnOnlySource
from yahtzee_solver.rules import get_rules
from yahtzee_solver.strategy.target import TargetAdvisor

N_THREADS = 8


def random_positions(name: str, n: int, seed: int, max_open: int | None = None):
    """``n`` positions ``(card, dice, rolls_left)`` met in seeded random games, dice unsorted.

    With ``max_open``, only positions whose card has at most that many open boxes.
    """
    rules = get_rules(name)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        card = ScoreCard.empty(rules)
        for _ in range(rules.n_categories):
            dice = tuple(int(d) for d in rng.integers(1, 7, 5))
            rl = int(rng.integers(0, 3))
            if max_open is None or len(card.open_categories) <= max_open:
                out.append((card, dice, rl))
            points, legal, bonus = card.box_points(sorted(dice))
            boxes = [c for c, ok in enumerate(legal) if ok]
            c = max(boxes, key=lambda b: points[b]) if rng.random() < 0.5 else int(rng.choice(boxes))
            card = card.with_box(c, points[c], bonus)
    return out[:n]


def in_threads(fn, items, n_threads: int = N_THREADS) -> list:
    """``[fn(x) for x in items]``, the items dealt round-robin to ``n_threads`` threads started together."""
    out: list = [None] * len(items)
    errors: list = []
    start = threading.Barrier(n_threads)

    def work(t):
        try:
            start.wait()
            for i in range(t, len(items), n_threads):
                out[i] = fn(items[i])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch often: the interpreted kernels hold the GIL but yield it mid-query
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    if errors:
        raise errors[0]
    return out


def assert_same_as_serial(fn, items, n_threads: int = N_THREADS) -> None:
    """Every answer of ``fn`` from ``n_threads`` threads equals its serial answer (same object, same order)."""
    serial = [fn(x) for x in items]
    threaded = in_threads(fn, items, n_threads)
    wrong = [i for i, (a, b) in enumerate(zip(serial, threaded)) if a != b]
    if wrong:
        i = wrong[0]
        x = items[i]
        if isinstance(x, tuple) and x and isinstance(x[0], ScoreCard):  # a position: the card by its state
            x = (tuple(x[0].key), x[0].total, *x[1:])
        raise AssertionError(f"{len(wrong)} of {len(items)} answers differ under {n_threads} threads; first: "
                             f"{x!r}: {str(threaded[i])[:300]} != {str(serial[i])[:300]}")


def _options(opts) -> list:
    return [o.to_dict() for o in opts]


@pytest.fixture(scope="module")
def positions():
    return random_positions("yahtzee", 3000, seed=16)


@pytest.fixture(scope="module")
def table():
    from yahtzee_solver.solver.table import load_table

    return load_table("yahtzee")


def test_advisor_hint(positions, table):
    adv = Advisor("yahtzee", table)
    assert_same_as_serial(lambda p: _options(adv.hint(*p)), positions)


def test_advisor_keep_values_are_per_thread(positions, table):
    """``keep_values`` hands back an array reused by the next call -- of the same thread only."""
    adv = Advisor("yahtzee", table)
    items = [p for p in positions if p[2]]
    assert_same_as_serial(lambda p: adv.keep_values(p[0].key, p[2]).tolist(), items)


def _fresh_opened_table(tmp_path):
    """The shipped table opened from a copy: read on demand, shared with no other test (no cache hit)."""
    import shutil

    from yahtzee_solver.solver.table import default_table_path, open_table

    path = tmp_path / "yahtzee.h5"
    shutil.copyfile(default_table_path(get_rules("yahtzee")), path)
    t = open_table("yahtzee", path)
    assert not t.is_loaded
    return t


def test_opened_table_read_whole_while_a_query_waits_gives_the_whole_table(tmp_path):
    """A query reading rows on demand that waited for the lock while another thread read the
    table whole gets the whole table, not the rows read so far."""
    t = _fresh_opened_table(tmp_path)
    got: list = []
    with t._lock:  # another thread reading the table whole holds the lock ...
        q = threading.Thread(target=lambda: got.append(t.values_for(0)))
        q.start()
        q.join(0.2)  # ... while the query waits for it
        assert t._reader is not None
        t._values = t._reader.read_all()
    q.join()
    assert got[0] is t.values


def test_advisor_on_an_opened_table_read_whole_meanwhile_keeps_every_value(table, tmp_path):
    """An Advisor on an opened table whose rows came back just before another thread read the
    table whole keeps the whole table, not those rows (the others would stay 0 for good)."""
    t = _fresh_opened_table(tmp_path)
    adv = Advisor("yahtzee", t)
    rows_for = adv.source.values_for

    def then_read_whole(mask):
        V = rows_for(mask)  # the rows of this turn only ...
        t.values  # noqa: B018 - ... then another thread reads the table whole
        return V

    adv.source.values_for = then_read_whole  # type: ignore[method-assign]
    whole = Advisor("yahtzee", table)
    first = parse_card("yahtzee=50")
    assert _options(adv.keep_options(first, "11111", 1)) == _options(whole.keep_options(first, "11111", 1))
    later = parse_card("ones=3,twos=6,threes=9")
    assert _options(adv.keep_options(later, "13356", 2)) == _options(whole.keep_options(later, "13356", 2))
    assert adv.expected_final(later) == whole.expected_final(later)


def test_advisor_interpreted(table):
    """The interpreted kernels switch threads too (every few milliseconds)."""
    adv = Advisor("yahtzee", table, jit=False)
    items = random_positions("yahtzee", 80, seed=17)
    assert_same_as_serial(lambda p: _options(adv.hint(*p)), items, 4)


def test_array_advisor_ranked(positions, table):
    arr = ArrayAdvisor("yahtzee", table)

    def ask(p):
        codes, values = arr.ranked(*p[0].key, p[1], p[2])
        return codes.tolist(), values.tolist()

    assert_same_as_serial(ask, positions)


def test_array_advisor_option_values(positions, table, monkeypatch):
    """Batches from several threads at once, each spread over numba's threads (a parallel kernel)."""
    from yahtzee_solver.strategy import batch

    monkeypatch.setattr(batch, "_PARALLEL_MIN_SECONDS", 0.0)  # every batch parallel
    arr = ArrayAdvisor("yahtzee", table)
    keys = [p[0].key for p in positions]
    cols = (np.array([k.mask for k in keys]), np.array([k.up for k in keys]), np.array([k.yb for k in keys]),
            np.array([p[1] for p in positions]), np.array([p[2] for p in positions]))
    chunks = [slice(i, i + 150) for i in range(0, len(positions), 150)]

    def ask(s):
        res = arr.option_values(*(c[s] for c in cols))
        return [np.nan_to_num(a, nan=-1.0).tolist() for a in res]

    assert_same_as_serial(ask, chunks * 2)


@pytest.mark.parametrize("which", ["expected", "turn-only"])
def test_policy_and_its_sources(which, positions, table):
    rules = get_rules("yahtzee")
    src = ExpectedValueSource(rules, table) if which == "expected" else TurnOnlySource(rules)
    policy = Policy(src)

    def ask(p):
        card, dice, rl = p
        r = roll_index(sorted(dice))
        if rl:
            codes, values = policy.keep_ranking(card.key, card.total, r, rl)
            raw = src.keep_values(card.key, card.total, rl).tolist()
        else:
            codes, values = policy.box_ranking(card.key, card.total, r)
            raw = np.nan_to_num(src.box_values(card.key, card.total, r), nan=-1.0).tolist()
        return codes.tolist(), values.tolist(), raw

    assert_same_as_serial(ask, positions)


@pytest.mark.parametrize("level", ["expert", "normal", "beginner"])
def test_cpu_strategies(level, positions, table):
    if level == "expert":
        cpu = ExpertStrategy("yahtzee", table)
    elif level == "normal":
        cpu = NormalStrategy("yahtzee")
    else:  # no blunders: its choices are then a function of the position
        cpu = BeginnerStrategy("yahtzee", rng=np.random.default_rng(0), blunder=0.0)

    def ask(p):
        card, dice, rl = p
        return cpu.choose_keep(card, dice, rl) if rl else cpu.choose_box(card, dice)

    assert_same_as_serial(ask, positions)


def test_expert_keep_values(positions, table):
    cpu = ExpertStrategy("yahtzee", table)
    assert_same_as_serial(lambda p: cpu.keep_values(p[0].key)[:2].tolist(), positions[:1000])


def _few_cards_positions(n_cards: int, per_card: int, seed: int, max_open: int):
    """``per_card`` random dice and rolls left on each of ``n_cards`` cards with at most ``max_open`` open boxes."""
    rng = np.random.default_rng(seed)
    cards = [p[0] for p in random_positions("yahtzee", n_cards, seed, max_open=max_open)]
    out = [(card, tuple(int(d) for d in rng.integers(1, 7, 5)), int(rng.integers(0, 3)))
           for card in cards for _ in range(per_card)]
    return [out[i] for i in rng.permutation(len(out))]  # the cards interleaved


def test_target_advisor(table):
    """A few cards with few open boxes: a thread whose card the kept DP does not cover solves again."""
    adv = TargetAdvisor("yahtzee", 200, table)
    items = _few_cards_positions(5, 80, seed=18, max_open=3)

    def ask(p):
        card, dice, rl = p
        return _options(adv.hint(card, dice, rl)), adv.probability(card)

    assert_same_as_serial(ask, items)


def test_master_strategy(table):
    """Master against one observed opponent: its win DP (at most 3 open boxes) and opponent model, and its
    expert (more open boxes), shared by the threads."""
    items = _few_cards_positions(3, 300, seed=19, max_open=3) + [
        p for p in random_positions("yahtzee", 1200, seed=21) if len(p[0].open_categories) > 3]
    opponent = random_positions("yahtzee", 1, seed=20, max_open=4)[0][0]
    master = MasterStrategy("yahtzee", table, max_open=3)
    master.observe(opponent, "expert")

    def ask(p):
        card, dice, rl = p
        move = master.choose_keep(card, dice, rl) if rl else master.choose_box(card, dice)
        return move, master.win_probability(card)

    assert_same_as_serial(ask, items)


def test_win_hints(table):
    """The win chances of the hints (web and terminal): two games, so the threads swap the kept DP."""
    from yahtzee_solver.game import HUMAN, Roll, cpu_actions, new_game
    from yahtzee_solver.strategy.levels import make_strategy
    from yahtzee_solver.strategy.win_chances import WinHints

    expert = make_strategy("expert", "yahtzee", table=table)
    states = []
    for seed in (4, 5):
        st = new_game("yahtzee", opponent="expert", seed=seed)
        while not (st.current == HUMAN and st.rolls_used == 0 and len(st.cards[HUMAN].open_categories) == 2):
            for action in cpu_actions(st, expert):
                st.apply_action(action)
        for _ in range(3):
            st.apply_action(Roll())
            states.append(st.clone())
    hints, adv = WinHints(), Advisor("yahtzee", table)
    assert_same_as_serial(lambda st: hints(st, adv), states * 10, 4)


def test_asyncio_to_thread(positions, table):
    """The idiom of an async web handler: ``await asyncio.to_thread(adv.hint, ...)``, many at once."""
    adv = Advisor("yahtzee", table)
    items = positions[:1200]
    serial = [_options(adv.hint(*p)) for p in items]

    async def main():
        return await asyncio.gather(*(asyncio.to_thread(adv.hint, *p) for p in items))

    threaded = [_options(o) for o in asyncio.run(main())]
    assert sum(a != b for a, b in zip(serial, threaded)) == 0


# -- the workqueue threading layer -----------------------------------------------------------

_PARALLEL_FROM_THREADS = textwrap.dedent("""
    import sys, threading
    import numpy as np
    import numba
    from yahtzee_solver import batch, parse_card
    from yahtzee_solver.strategy.batch import ArrayAdvisor
    from yahtzee_solver.solver.build import state_arrays
    from yahtzee_solver.strategy.distribution import score_distribution
    from yahtzee_solver.solver.jit import compiled
    from yahtzee_solver.strategy.objectives import TargetSource
    from yahtzee_solver.analysis.simulate import simulate

    batch._PARALLEL_MIN_SECONDS = 0.0
    arr = ArrayAdvisor("yahtzee")
    rules = arr.rules
    rng = np.random.default_rng(5)
    m = rng.integers(0, rules.full_mask, 300)
    m = m[~np.isnan(arr.source.values[m, 0, 0])]
    z = np.zeros(m.size, np.int64)
    dice = rng.integers(1, 7, (m.size, 5))
    rl = np.full(m.size, 2)
    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30")
    a = rules.arrays()
    sm, su, sy = state_arrays(rules, rules.n_categories - 2)

    def states():  # kernels.solve_states, the build's parallel kernel, on a few states
        W = arr.source.values.copy()
        compiled().solve_states(sm, su, sy, W, a["score"], a["joker"], a["params"])
        return W[sm, su, sy].tolist()

    jobs = {
        "batch_turn": lambda: np.nan_to_num(arr.option_values(m, z, z, dice, rl).keep_values, nan=-1.0).tolist(),
        "play_games": lambda: (lambda r: (r.mean, r.sd, r.min, r.max))(simulate("expert", 200, seed=3)),
        "dist": lambda: score_distribution(card, rules).pmf.tolist(),
        "solve_layer": lambda: TargetSource(rules, 230).probability(card),
        "solve_states": states,
    }
    want = {name: job() for name, job in jobs.items()}
    layer = numba.threading_layer()
    bad = []

    def work(t):
        for _ in range(3):
            for name in list(jobs)[t % len(jobs):] + list(jobs)[:t % len(jobs)]:
                if jobs[name]() != want[name]:
                    bad.append(name)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    print(layer, "wrong:", sorted(set(bad)))
    sys.exit(1 if bad else 0)
""")


def _run_parallel_from_threads(layer: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("NUMBA_THREADING_LAYER", None)
    if layer is not None:
        env["NUMBA_THREADING_LAYER"] = layer
    return subprocess.run([sys.executable, "-c", _PARALLEL_FROM_THREADS], env=env, capture_output=True,
                          text=True, timeout=600)


def test_parallel_kernels_from_threads_under_workqueue():
    """numba's workqueue layer aborts when two threads launch parallel code at once: the kernels take turns."""
    proc = _run_parallel_from_threads("workqueue")
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-2000:]}"
    assert proc.stdout.split() == ["workqueue", "wrong:", "[]"]


def test_parallel_kernels_from_threads_under_the_default_layer():
    proc = _run_parallel_from_threads(None)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-2000:]}"
    assert proc.stdout.split()[1:] == ["wrong:", "[]"]


# -- a parallel job on a busy machine: the threads with a core free --------------------------------

def _busy(monkeypatch, tmp_path, running: int, cores: int = 2) -> None:
    """Pretend ``running`` threads are ready to run now (the caller included) on ``cores`` cores."""
    from yahtzee_solver.solver import jit

    stat = tmp_path / "stat"
    stat.write_text(f"cpu  1 2 3 4\nprocs_running {running}\nprocs_blocked 0\n")
    monkeypatch.setattr(jit, "_PROC_STAT", str(stat))
    tasks = tmp_path / "task"  # this process: the caller running, a worker asleep
    for tid, state in (("100", "R"), ("101", "S")):
        (tasks / tid).mkdir(parents=True, exist_ok=True)
        (tasks / tid / "stat").write_text(f"{tid} (python3 (x)) {state} 1 2 3\n")
    monkeypatch.setattr(jit, "_PROC_TASKS", str(tasks))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)


@pytest.mark.parametrize("running,cores,wanted,want", [
    (1, 2, 2, 2),  # only the caller: both cores are free
    (2, 2, 2, 1),  # one other process runs: one core is taken
    (5, 2, 2, 1),  # never fewer than one
    (2, 8, 8, 7),
    (1, 8, 4, 4),  # never more than wanted
])
def test_threads_free_leaves_the_cores_other_work_runs_on(monkeypatch, tmp_path, running, cores, wanted, want):
    from yahtzee_solver.solver import jit

    _busy(monkeypatch, tmp_path, running, cores)
    assert jit.others_running() == running - 1
    assert jit.threads_free(wanted) == want


def test_this_processs_own_running_threads_are_not_other_work(monkeypatch, tmp_path):
    # a numba worker still on its way to sleep after a parallel region is this process's, not
    # another's: with 3 ready to run, 2 of them ours, one core is taken by other work
    from yahtzee_solver.solver import jit

    _busy(monkeypatch, tmp_path, 3, 4)
    (tmp_path / "task" / "101" / "stat").write_text("101 (numba worker) R 1 2 3\n")
    assert jit.others_running() == 1
    assert jit.threads_free(4) == 3


def test_one_thread_wanted_needs_no_look_at_the_machine(monkeypatch):
    # a small layer asks for one thread: the answer is 1 without reading /proc (50-400 us a look)
    from yahtzee_solver.solver import jit

    def no_look():
        raise AssertionError("looked at the machine for one thread")

    monkeypatch.setattr(jit, "others_running", no_look)
    assert jit.threads_free(1) == 1
    with jit.threads_for(True, 1) as n:
        assert n == 1


def test_others_running_is_zero_without_proc_stat(monkeypatch, tmp_path):
    from yahtzee_solver.solver import jit

    monkeypatch.setattr(jit, "_PROC_STAT", str(tmp_path / "missing"))
    assert jit.others_running() == 0
    (tmp_path / "odd").write_text("procs_running many\n")
    monkeypatch.setattr(jit, "_PROC_STAT", str(tmp_path / "odd"))
    assert jit.others_running() == 0


def test_a_parallel_job_on_a_busy_machine_runs_on_one_thread_and_gives_the_same_results(monkeypatch, tmp_path):
    # the build's layers, the distribution's layers and the simulation's games run on the threads
    # with a core free at their start: with another process running on a 2-core machine, numba
    # runs them on one thread (and restores its count after), and the results are the same bits
    import numba

    from yahtzee_solver.analysis.simulate import simulate
    from yahtzee_solver.solver import jit
    from yahtzee_solver.solver.build import build_values
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy.distribution import score_distribution

    kernels = jit.compiled()
    if numba.get_num_threads() < 2:
        pytest.skip("needs numba with two threads")
    card = parse_card("ones=3,twos=6,yahtzee=50")  # 10 open boxes: layers of 1024 states and more

    def run():
        return (score_distribution(card).pmf.tobytes(), simulate("expert", 3000, "yahtzee", seed=5).scores.tobytes(),
                build_values("yacht").values.tobytes())

    want = run()  # whatever the machine runs now
    used: list[tuple[str, int, int]] = []
    for name in ("dist_outcomes", "play_games", "solve_states"):
        real = getattr(kernels, name)

        def spy(*a, real=real, name=name):
            if len(a[0]):  # not the build's load of its kernel on no states
                used.append((name, len(a[0]), numba.get_num_threads()))
            return real(*a)

        monkeypatch.setattr(kernels, name, spy)
    before = numba.get_num_threads()
    _busy(monkeypatch, tmp_path, running=1, cores=2)  # a quiet machine: every thread for big pieces
    assert run() == want
    assert {n for name, _, n in used if name == "play_games"} == {2} and ("dist_outcomes", 2) in {
        (name, n) for name, _, n in used}
    # the build's layers of more than one chunk of tiles on both threads, a layer of one chunk on one
    chunk = kernels.BUILD_TILE * kernels.BUILD_CHUNK
    assert {n for name, k, n in used if name == "solve_states" and k > chunk} == {2}
    assert {n for name, k, n in used if name == "solve_states" and k <= chunk} == {1}
    used.clear()
    _busy(monkeypatch, tmp_path, running=2, cores=2)  # another process runs on one of the two cores
    assert run() == want
    assert {name for name, _, _ in used} == {"dist_outcomes", "play_games", "solve_states"}
    assert {n for _, _, n in used} == {1}
    assert numba.get_num_threads() == before


def test_idle_openmp_threads_spin_briefly_then_sleep_unless_the_environment_chose(monkeypatch):
    from yahtzee_solver.solver import jit

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.delenv("GOMP_SPINCOUNT", raising=False)
    jit._passive_wait()
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    assert os.environ["GOMP_SPINCOUNT"] == str(jit.SPIN_COUNT)
    # a choice of either is the user's: nothing is added to it
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    monkeypatch.delenv("GOMP_SPINCOUNT")
    jit._passive_wait()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE" and "GOMP_SPINCOUNT" not in os.environ
    monkeypatch.delenv("OMP_WAIT_POLICY")
    monkeypatch.setenv("GOMP_SPINCOUNT", "0")
    jit._passive_wait()
    assert "OMP_WAIT_POLICY" not in os.environ and os.environ["GOMP_SPINCOUNT"] == "0"


@pytest.mark.parametrize("env,needle", [
    ({"NUMBA_NUM_THREADS": "0"}, "NUMBA_NUM_THREADS='0'"),
    ({"NUMBA_NUM_THREADS": "two"}, "NUMBA_NUM_THREADS='two'"),
    ({"NUMBA_NUM_THREADS": " "}, "NUMBA_NUM_THREADS=' '"),
    ({"NUMBA_THREADING_LAYER": "no-such-layer"}, "NUMBA_THREADING_LAYER"),
    ({"NUMBA_THREADING_LAYER_PRIORITY": "bogus"}, "NUMBA_THREADING_LAYER_PRIORITY='bogus'"),
    ({"NUMBA_THREADING_LAYER_PRIORITY": ""}, "NUMBA_THREADING_LAYER_PRIORITY=''"),
    ({"NUMBA_THREADING_LAYER_PRIORITY": "tbb tbb omp"}, "NUMBA_THREADING_LAYER_PRIORITY='tbb tbb omp'"),
])
def test_a_numba_setting_it_cannot_start_is_a_one_line_usage_error(env, needle):
    # numba's own refusal is a traceback (or a warning with one); a parallel job names the setting
    code = ("from yahtzee_solver.analysis.simulate import simulate\n"
            "from yahtzee_solver.errors import UsageError\n"
            "try:\n    simulate('expert', 10, 'yahtzee', seed=1)\n"
            "except UsageError as e:\n    print('usage:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("usage: ") and needle in out.stdout and out.stdout.count("\n") == 1, out.stdout
    assert "Traceback" not in out.stderr, out.stderr[-2000:]


def test_a_threading_layer_order_numba_takes_is_left_to_it():
    # a permutation of the three layers is numba's to use; the job runs as without the setting
    code = ("from yahtzee_solver.analysis.simulate import simulate\n"
            "print(simulate('expert', 10, 'yahtzee', seed=1).scores.tolist())\n")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
            for env in ({**os.environ, "NUMBA_THREADING_LAYER_PRIORITY": "workqueue  omp tbb"}, os.environ)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    assert runs[0].stdout == runs[1].stdout


def _tbb_loads() -> bool:
    try:
        import numba.np.ufunc.tbbpool  # noqa: F401  (needs the TBB library)
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("layer, needles, not_needles", [
    ("bogus", ["NUMBA_THREADING_LAYER='bogus'", "default, safe, threadsafe, forksafe, tbb, omp", "workqueue"],
     ["tbb)", "install"]),
    ("", ["NUMBA_THREADING_LAYER=''"], ["install"]),
    pytest.param("tbb", ["NUMBA_THREADING_LAYER='tbb'", "pip install tbb"], [],
                 marks=pytest.mark.skipif(_tbb_loads(), reason="TBB is installed here")),
    pytest.param("SAFE", ["NUMBA_THREADING_LAYER='SAFE'", "pip install tbb"], [],
                 marks=pytest.mark.skipif(_tbb_loads(), reason="TBB is installed here")),
])
def test_a_threading_layer_numba_cannot_load_is_refused_by_every_command_that_loads_numba(layer, needles,
                                                                                         not_needles):
    """A match loads the compiled kernels but may call no parallel one: the layer is checked when numba is
    imported, as the thread count is, not at the first parallel launch; tbb is suggested only for a layer
    that needs it."""
    env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
    out = subprocess.run([sys.executable, "-m", "yahtzee_solver", "match", "normal", "expert", "--games", "2",
                          "--seed", "1", "--no-progress"], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    assert out.stdout == "" and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    for needle in needles:
        assert needle in out.stderr, (needle, out.stderr)
    for needle in not_needles:
        assert needle not in out.stderr, (needle, out.stderr)


def test_a_cold_hint_ignores_the_threading_layer_as_it_never_loads_numba():
    # the interpreted kernels run no thread of numba's: the setting is not theirs to refuse
    env = {**os.environ, "NUMBA_THREADING_LAYER": "bogus"}
    code = ("import sys\nfrom yahtzee_solver.cli import main\n"
            "try:\n    main(['hint', '22555', '--json'], standalone_mode=False)\n"
            "finally:\n    print('numba' in sys.modules, file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr.strip() == "False", out.stderr[-2000:]
