"""Shared helpers of the benchmark scripts: header, timing, reproducible positions.

Not a test module: the scripts in this folder print figures, the command line
that produced them and ratios against a baseline measured in the same run.
Timings depend on the machine and on whatever else runs on it; the header
prints the load average so a busy machine shows.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from yahtzee_solver.rules import RuleSet, get_rules
from yahtzee_solver.state import ScoreCard, StateKey

__all__ = [
    "Position",
    "header",
    "positions",
    "median",
    "time_call_ns",
    "run_child",
    "child_package",
    "ROOT",
    "run_timed",
    "ratio",
    "PHASES",
    "ArgumentParser",
    "count",
    "git_revision",
    "env_setting",
]

#: The checkout these scripts belong to: a child process imports the package from here unless its
#: ``env`` gives another ``PYTHONPATH`` (:func:`run_child`).
ROOT = Path(__file__).resolve().parent.parent

#: Game phases by turn number (0-based): early, middle, late (Yatzy's turns 13 and 14 are late too).
PHASES = {"early": range(0, 4), "middle": range(4, 9), "late": range(9, 15)}


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose refusal of an argument is one line, ``PROG: error: MESSAGE`` (exit 2), no usage block.

    The scripts check every argument while parsing, so a bad one stops them before they start or time
    anything.
    """

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} -h)\n")


def count(least: int):
    """An argparse ``type``: a whole number of at least ``least``, refused with the value as typed."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = None
        if n is None or n < least:
            raise argparse.ArgumentTypeError(f"{text!r}: want a whole number of at least {least}")
        return n

    parse.__name__ = f"count (at least {least})"
    return parse


def git_revision(rev: str) -> str:
    """An argparse ``type``: ``rev`` as typed, if it names a commit of this checkout's repository.

    Checked with ``git rev-parse --verify`` only (nothing is extracted here), so a misspelt
    ``--baseline`` stops the script before any child process runs.
    """
    if not rev or rev.startswith("-"):
        raise argparse.ArgumentTypeError(f"{rev!r}: want a git revision (a commit, branch or tag)")
    try:
        out = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=ROOT,
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise argparse.ArgumentTypeError(f"{rev!r}: git cannot be run here to look it up ({e})") from None
    if out.returncode != 0:
        raise argparse.ArgumentTypeError(f"{rev!r} is not a commit of the git repository at {ROOT}")
    return rev


def env_setting(text: str) -> tuple[str, str]:
    """An argparse ``type``: ``KEY=VALUE`` as ``(KEY, VALUE)``; the key must not be empty."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: want KEY=VALUE")
    return key, value


def header(title: str) -> None:
    """Print the title, the exact command line, and the machine state."""
    numba_threads = os.environ.get("NUMBA_NUM_THREADS", "default")
    print(f"# {title}")
    print(f"# command: {shlex.join([sys.executable, *sys.argv])}")
    print(
        f"# host: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, "
        f"NUMBA_NUM_THREADS={numba_threads}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"# date: {time.strftime('%Y-%m-%d %H:%M:%S')}")


def median(xs) -> float:
    """Median of a non-empty sequence."""
    return float(statistics.median(xs))


def time_call_ns(fn, repeat: int) -> list[int]:
    """Wall time of ``repeat`` calls of ``fn()`` (nanoseconds each)."""
    out = []
    clock = time.perf_counter_ns
    for _ in range(repeat):
        t = clock()
        fn()
        out.append(clock() - t)
    return out


def ratio(ours: float, peer: float) -> str:
    """``ours/peer`` formatted, or ``n/a``."""
    if not peer or peer != peer or ours != ours:
        return "n/a"
    return f"{ours / peer:.2f}"


def run_child(code: str, *args: str, env: dict | None = None) -> tuple[dict, float, float]:
    """Run ``code`` in a fresh interpreter; parse its last stdout line as ``key=value`` pairs.

    The child runs in the temporary folder with :data:`ROOT` first on ``PYTHONPATH``, so it
    imports this checkout's package; an ``env`` with its own ``PYTHONPATH`` (a baseline's
    extracted tree) imports that one instead (:func:`child_package` tells which).

    Returns
    -------
    fields : dict of str to float or str
        What the child printed last (``key=value`` separated by spaces).
    wall : float
        Wall seconds of the whole child process (start-up included).
    max_rss_mib : float
        Peak resident memory of the child (MiB; ``getrusage(RUSAGE_CHILDREN)``
        is a maximum over all children waited for, so each call measures in a
        grandchild of its own to keep the figures separate).

    Raises
    ------
    RuntimeError
        If the child fails.
    """
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "w = time.perf_counter() - t\n"
        "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "sys.stderr.write(p.stderr)\n"
        "print(p.stdout, end='')\n"
        "print(f'__wall={w!r} __maxrss_kib={r.ru_maxrss} __rc={p.returncode}')\n"
    )
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(
        x for x in (str(ROOT), os.environ.get("PYTHONPATH", "")) if x)
    if env:
        full_env.update(env)
    # in a neutral folder: ``python -c`` puts the working folder first on ``sys.path``, which run
    # from a checkout's root would import that checkout whatever ``PYTHONPATH`` says
    proc = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=tempfile.gettempdir(),
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode or not lines:
        raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    meta = _fields(lines[-1])
    if meta.get("__rc") != 0:
        raise RuntimeError(f"child failed ({meta.get('__rc')}): {proc.stderr.strip()[-2000:]}")
    fields = _fields(lines[-2]) if len(lines) >= 2 else {}
    return fields, float(meta["__wall"]), float(meta["__maxrss_kib"]) / 1024.0


def child_package(env: dict | None = None) -> Path:
    """The folder of the ``yahtzee_solver`` package a :func:`run_child` child with ``env`` imports.

    The scripts that compare two codes print it for each side, and check it, so that a baseline
    never silently runs the working tree.
    """
    fields, _, _ = run_child("import yahtzee_solver as y, pathlib\n"
                             "print('where=' + str(pathlib.Path(y.__file__).resolve().parent))", env=env)
    return Path(str(fields["where"]))


def run_timed(cmd: list[str], env: dict | None = None) -> tuple[float, float, int]:
    """Run ``cmd`` (output discarded): its wall seconds, CPU seconds (user + system) and exit code.

    The CPU time of a single-threaded start-up moves less than its wall time
    when other jobs share the cores, so the cold-start scripts print both.
    """
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, p.returncode


def time_processes(cmds: dict[str, list[str]], floor: str, runs: int, env: dict | None = None,
                   width: int = 40) -> dict[str, list[float]]:
    """Run every command of ``cmds`` once to warm the caches, then ``runs`` rounds alternating them.

    Prints one row per command: median and minimum wall, the ratio of the median
    to the ``floor`` command's, and the median CPU seconds with their ratio.

    Returns
    -------
    dict
        The wall seconds of every run, by command name.
    """
    walls: dict = {k: [] for k in cmds}
    cpus: dict = {k: [] for k in cmds}
    for name, cmd in cmds.items():  # warm the OS file cache and numba's cache once
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            print(f"  !! {name} failed: {p.stderr.strip()[-500:]}")
    for _ in range(runs):
        for name, cmd in cmds.items():
            wall, cpu, _ = run_timed(cmd, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base, cbase = median(walls[floor]), median(cpus[floor])
    for name, ws in walls.items():
        print(f"  {name:<{width}} median {median(ws):6.3f} s   min {min(ws):6.3f} s   "
              f"x floor {ratio(median(ws), base)}   "
              f"cpu {median(cpus[name]):6.3f} s x floor {ratio(median(cpus[name]), cbase)}")
    return walls


def _fields(line: str) -> dict:
    out: dict = {}
    for item in line.split():
        key, sep, value = item.partition("=")
        if not sep:
            continue
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = value
    return out


@dataclass(frozen=True)
class Position:
    """A decision point met in a game: a card, the dice showing, rerolls left.

    Attributes
    ----------
    card : ScoreCard
        The scorecard before this turn's score.
    dice : tuple of int
        The five faces showing, sorted.
    rolls_left : int
        2 after the first roll, 1 after the second, 0 after the third.
    turn : int
        0-based turn number (= boxes filled).
    """

    card: ScoreCard
    dice: tuple
    rolls_left: int
    turn: int

    @property
    def key(self) -> StateKey:
        return self.card.key

    @property
    def phase(self) -> str:
        for name, turns in PHASES.items():
            if self.turn in turns:
                return name
        raise AssertionError(self.turn)


def _random_keep(rng: np.random.Generator, card: ScoreCard, dice: tuple) -> tuple:
    """A plausible but not optimal keep: the most common face (of an open upper box
    when there is one, so upper bonuses get made), or random dice."""
    u = rng.random()
    if u < 0.25:
        return tuple(d for d in dice if rng.random() < 0.5)
    counts = np.bincount(dice, minlength=7)
    faces = [f for f in range(1, 7) if counts[f]]
    if u < 0.75:
        open_faces = [f for f in faces if card.boxes[f - 1] is None]
        faces = open_faces or faces
    face = max(faces, key=lambda f: (counts[f], f))
    return tuple(d for d in dice if d == face)


def _random_box(rng: np.random.Generator, card: ScoreCard, dice: tuple) -> tuple[int, int, int]:
    """A random legal box: uniformly, the most points now, or an upper box with 3+ dice of its face."""
    points, legal, bonus = card.box_points(dice)
    boxes = [c for c, ok in enumerate(legal) if ok]
    u = rng.random()
    good_upper = [c for c in boxes if c < 6 and points[c] >= 3 * (c + 1)]
    if u < 0.6 and good_upper:
        c = good_upper[0]
    elif u < 0.8:
        c = max(boxes, key=lambda b: (points[b], -b))
    else:
        c = int(rng.choice(boxes))
    return c, points[c], bonus


def play_random_game(rng: np.random.Generator, rules: RuleSet) -> list[Position]:
    """Every decision point of one game played by a seeded random, partly greedy player."""
    card = ScoreCard.empty(rules)
    out = []
    for t in range(rules.n_categories):
        dice = tuple(sorted(int(d) for d in rng.integers(1, 7, 5)))
        for rl in (2, 1):
            out.append(Position(card, dice, rl, t))
            keep = _random_keep(rng, card, dice)
            dice = tuple(sorted(keep + tuple(int(d) for d in rng.integers(1, 7, 5 - len(keep)))))
        out.append(Position(card, dice, 0, t))
        c, pts, bonus = _random_box(rng, card, dice)
        card = card.with_box(c, pts, bonus)
    return out


def positions(n: int = 1000, seed: int = 2026, rules: str | RuleSet = "yahtzee") -> list[Position]:
    """``n`` positions met in random games, spread evenly over rerolls left x game phase.

    The games are played by a seeded random, partly greedy player (so cards
    with a Yahtzee, a made upper bonus, Jokers and zeros all occur); then the same
    number of positions is drawn for each of the 9 cells (rerolls left 2/1/0 x
    early/middle/late game), the first ``n % 9`` cells taking one more.

    Returns
    -------
    list of Position
        Ordered by cell, reproducible from ``seed``.
    """
    rules = get_rules(rules)
    rng = np.random.default_rng(seed)
    cells: dict[tuple[int, str], list[Position]] = {(rl, ph): [] for rl in (2, 1, 0) for ph in PHASES}
    per = -(-n // len(cells))
    while min(len(v) for v in cells.values()) < 4 * per:
        for p in play_random_game(rng, rules):
            cells[(p.rolls_left, p.phase)].append(p)
    out: list[Position] = []
    for i, pool in enumerate(cells.values()):
        want = n // len(cells) + (1 if i < n % len(cells) else 0)
        pick = rng.choice(len(pool), size=want, replace=False)
        out.extend(pool[j] for j in sorted(pick))
    return out


def rss_mib() -> float:
    """Peak resident memory of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
