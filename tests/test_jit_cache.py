"""The numba cache shipped in the wheel (``jit.build_cache``, ``setup.py``): valid, checked, and never wrong.

A wheel compiles the listed kernel signatures into ``_jitcache`` beside the
kernel sources; an installed package loads them without compiling.  These
tests build such a cache for one small kernel in a copy of the package, then
run fresh processes against it: it loads (no compile, nothing written to
numba's own cache) though the install changed the files' times; it is
ignored (numba compiles) when the source differs or a file is damaged; the
answers are the interpreted kernel's in every case.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yahtzee_solver.solver import jit

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "yahtzee_solver"

# Fresh process: score some rolls on some cards with the compiled box_scoring, report
# the interpreted answers too and the dispatcher's cache hits and misses.
PROBE = r"""
import json
from yahtzee_solver import ScoreCard, get_rules
from yahtzee_solver.solver import jit
k = jit.compiled()
rules = get_rules("yahtzee")
cards = [ScoreCard.empty(rules),
         ScoreCard.from_mapping({"sixes": 18, "fours": 12, "chance": 22, "yahtzee": 50}, rules),
         ScoreCard.from_mapping({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "yahtzee": 50}, rules)]
dice = ["11111", "12345", "22555", "66666", "13466", "55555"]
out = {"compiled": [], "interpreted": []}
for c in cards:
    for d in dice:
        out["compiled"].append(list(map(repr, ScoreCard(rules, c.boxes, c.yahtzee_bonus).scoring(d, kernels=k))))
        out["interpreted"].append(list(map(repr, c.scoring(d, kernels=jit.interpreted()))))
st = k.box_scoring.stats
out["hits"] = sum(st.cache_hits.values())
out["misses"] = sum(st.cache_misses.values())
print(json.dumps(out))
"""


def _signature_line(kernel: str) -> str:
    return next(s for s in jit.listed_signatures(text=True) if s.split(" ", 2)[:2] == ["kernels", kernel])


def _env(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(root)
    env["NUMBA_CACHE_DIR"] = str(root.parent / "own-cache")  # numba's own cache, empty at start
    return env


def _own_cache_files(root: Path) -> list[Path]:
    d = root.parent / "own-cache"
    return [p for p in d.rglob("*") if p.suffix in (".nbi", ".nbc")] if d.is_dir() else []


def _copy_package(dest: Path) -> Path:
    """A copy of the package's source under ``dest/pkg`` (no bytecode, no cache); returns ``dest/pkg``."""
    root = dest / "pkg"
    shutil.copytree(PKG, root / PKG.name, ignore=shutil.ignore_patterns("__pycache__", jit.CACHE_FOLDER, "data"))
    return root


def _probe(root: Path) -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE], env=_env(root), capture_output=True, text=True, cwd=root,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    out["stderr"] = r.stderr
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A package copy with a shipped cache holding the listed signatures of box_scoring and box_values."""
    base = tmp_path_factory.mktemp("shipped")
    root = _copy_package(base)
    sigs = base / "sigs.txt"
    sigs.write_text(_signature_line("box_scoring") + "\n" + _signature_line("box_values") + "\n")
    module = jit.__name__
    r = subprocess.run([sys.executable, "-m", module, "--build-cache", "--signatures", str(sigs)],
                       env=_env(root), capture_output=True, text=True, cwd=root, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "compiling the solver's kernels for this machine (once)" in r.stderr
    assert "2/2" in r.stderr
    folder = Path(root, *module.split(".")[:-1], jit.CACHE_FOLDER)
    assert sorted(p.suffix for p in folder.iterdir()).count(".nbi") >= 1
    assert not _own_cache_files(root), "building the shipped cache must not write numba's own cache"
    return root


def _kernels_file(root: Path) -> Path:
    return Path(root, *jit._kernels.__name__.split(".")).with_suffix(".py")


def _copy_built(built: Path, dest: Path) -> Path:
    root = dest / "pkg"
    shutil.copytree(built, root)
    return root


def test_source_stamp_follows_content_not_file_times(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("x = 1\n")
    before = jit.source_stamp.__wrapped__((str(a),))
    os.utime(a, (1, 1))  # an install sets new times: the stamp stays
    assert jit.source_stamp.__wrapped__((str(a),)) == before
    a.write_text("x = 2\n")  # same size, other content: a new stamp
    assert jit.source_stamp.__wrapped__((str(a),)) != before


def test_shipped_cache_loads_without_compiling(built, tmp_path):
    root = _copy_built(built, tmp_path)
    for p in root.rglob("*.py"):  # the install's own file times (pip keeps none)
        os.utime(p, (2_000_000_000, 2_000_000_000))
    out = _probe(root)
    assert out["hits"] >= 1 and out["misses"] == 0, out
    assert not _own_cache_files(root), "nothing compiled, so nothing saved to numba's own cache"
    assert out["compiled"] == out["interpreted"]
    assert "compiling" not in out["stderr"]


def test_shipped_cache_of_other_source_is_ignored(built, tmp_path):
    root = _copy_built(built, tmp_path)
    k = _kernels_file(root)
    k.write_text(k.read_text() + "\n# a changed kernel source\n")
    out = _probe(root)
    assert out["hits"] == 0 and out["misses"] >= 1, out  # compiled, as numba does without a cache
    assert out["compiled"] == out["interpreted"]
    # ... and with it, announced on one line, every signature the wheel meant to ship (once per machine)
    lines = [ln for ln in out["stderr"].splitlines() if "compiling the solver's kernels for this machine" in ln]
    assert len(lines) == 1 and "2 kernel signatures" in lines[0], out["stderr"]
    names = {p.name.split("-")[0] for p in _own_cache_files(root) if p.suffix == ".nbi"}
    assert {"kernels.box_scoring", "kernels.box_values"} <= names, names
    again = _probe(root)  # the next process loads numba's own cache: no compile, no announcement
    assert again["hits"] >= 1 and again["misses"] == 0, again
    assert "compiling" not in again["stderr"]
    assert again["compiled"] == out["compiled"]


UNLISTED = r"""
import numpy as np
from yahtzee_solver import get_rules
from yahtzee_solver.solver import jit
k = jit.compiled()
rules = get_rules("yahtzee")
a, C = rules.arrays(), rules.n_categories
legal = np.empty(C, np.int64)  # int64 where the listed signature has int8: a signature the wheel lacks
k.box_scoring(0, 0, 0, 5, a["score"], a["joker"], a["params"], np.empty(C, np.int64), legal, np.empty(C, np.int64))
print(sum(k.box_scoring.stats.cache_misses.values()))
"""


def test_unlisted_signature_compiles_quietly_when_the_shipped_cache_fits(built, tmp_path):
    root = _copy_built(built, tmp_path)
    r = subprocess.run([sys.executable, "-c", UNLISTED], env=_env(root), capture_output=True, text=True, cwd=root,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "1"  # compiled as numba does ...
    assert "compiling the solver's kernels" not in r.stderr  # ... without recompiling the whole list
    names = {p.name.split("-")[0] for p in _own_cache_files(root) if p.suffix == ".nbi"}
    assert "kernels.box_scoring" in names and "kernels.box_values" not in names, names  # no fill of the list


def test_damaged_shipped_cache_falls_back_to_compiling(built, tmp_path):
    root = _copy_built(built, tmp_path)
    folder = _kernels_file(root).with_name(jit.CACHE_FOLDER)
    for p in folder.glob("*.nbc"):
        p.write_bytes(b"not machine code")
    out = _probe(root)
    assert out["hits"] == 0 and out["misses"] >= 1, out
    assert out["compiled"] == out["interpreted"]


def test_listed_signatures_read_back_exactly():
    sigs = jit.listed_signatures()
    assert sigs, "jit_signatures.txt lists no signature"
    for (module, kernel, types), line in zip(sigs, jit.listed_signatures(text=True)):
        assert line == f"{module} {kernel} {jit.signature_text(types)}"
    from numba.core import types as nt

    assert jit.signature_text((nt.int64, nt.IntegerLiteral(0))) is None  # only a kernel calling another makes these


def test_every_signature_the_commands_call_is_listed(tmp_path):
    """``scripts/jit_signatures.py --check``: the workloads call no signature the wheel would not ship."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "YAHTZEE_SOLVER_HOME": str(tmp_path / "yahtzee")}  # whatever the workloads save stays in the test's folder
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "jit_signatures.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]


@pytest.mark.slow
def test_wheel_carries_the_compiled_kernels(tmp_path):
    """``pip wheel .`` (what ``pip install .`` builds) holds the compiled list and its cache indexes.

    With a one-signature list (``YAHTZEE_SOLVER_SIGNATURES``), so that the
    build takes seconds; the full list is what ``bench_first_use.py`` installs.
    """
    import zipfile

    sigs = tmp_path / "sigs.txt"
    line = _signature_line("box_scoring")
    sigs.write_text(line + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["YAHTZEE_SOLVER_SIGNATURES"] = str(sigs)
    out = tmp_path / "wheel"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
                       env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    (wheel,) = out.glob("yahtzee_solver-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        folder = "/".join([*jit.__name__.split(".")[:-1], jit.CACHE_FOLDER])
        shipped = {n.rsplit("/", 1)[1] for n in names if n.startswith(folder + "/")}
        listed = z.read(f"{folder}/signatures.txt").decode()
    assert [ln for ln in listed.splitlines() if not ln.startswith("#")] == [line]
    assert any(n.startswith("kernels.box_scoring-") and n.endswith(".nbi") for n in shipped), shipped
    assert not any(n.endswith((".nbi", ".nbc")) and f"/{jit.CACHE_FOLDER}/" not in n for n in names)
