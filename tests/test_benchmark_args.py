"""The benchmark scripts refuse a bad argument in one line (exit 2) before they time anything.

Each call here exits at argument parsing: no child process is started and
nothing is timed, so these tests are quick and leave the machine alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH_THREADS = ROOT / "benchmarks" / "bench_threads.py"


def run_bench(script: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(script), *args], env=env, capture_output=True, text=True,
                          timeout=60, cwd=str(ROOT))


@pytest.mark.parametrize("args, needle", [
    (["--baseline", "nonexistent"], "'nonexistent'"),
    (["--baseline=-x"], "'-x'"),  # not passed to git as an option
    (["--rounds", "0"], "'0'"),
    (["--rounds", "-2"], "'-2'"),
    (["--rounds", "three"], "'three'"),
    (["--busy", "-1"], "'-1'"),
    (["--jobs", "build,bogus"], "'bogus'"),
    (["--jobs", ""], "''"),
    (["--env", "OMP_WAIT_POLICY"], "'OMP_WAIT_POLICY'"),
])
def test_bench_threads_bad_argument_is_one_line(args, needle):
    out = run_bench(BENCH_THREADS, *args)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "error: " in lines[0] and needle in lines[0], out.stderr
    assert out.stdout == ""  # refused before the header: nothing started, nothing timed


@pytest.mark.parametrize("script", ["bench_long_dps.py", "bench_target_dp.py"])
@pytest.mark.parametrize("args, needle", [
    (["--baseline", "nonexistent"], "'nonexistent'"),
    (["--runs", "0"], "'0'"),
])
def test_the_other_baseline_scripts_refuse_a_bad_argument_in_one_line(script, args, needle):
    out = run_bench(ROOT / "benchmarks" / script, *args)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "error: " in lines[0] and needle in lines[0], out.stderr
    assert out.stdout == ""
