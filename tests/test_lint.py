"""Static checks: the package's types (``py.typed`` promises them) and the linter.

Each check runs when its tool is installed (the ``lint`` extra) and is skipped,
with the reason, when it is not.  The rules are the project's own, in
pyproject.toml (``[tool.mypy]``, ``[tool.ruff]``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import yahtzee_solver

ROOT = Path(__file__).resolve().parents[1]

#: The least share of the public API whose types pyright can name (``--verifytypes``).
MIN_TYPED_SHARE = 0.95


def _needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[lint]')")


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=env)


def test_lazy_names_are_exported_once():
    # the lazy names are listed in __all__ by name, so type checkers see them exported
    names = yahtzee_solver.__all__
    assert set(yahtzee_solver._LAZY) <= set(names)
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)


def test_mypy_strict_passes():
    _needs("mypy")
    r = _run("mypy", "--strict", "yahtzee_solver")
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_ruff_passes():
    _needs("ruff")
    r = _run("ruff", "check", ".")
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_public_api_is_typed():
    _needs("pyright")
    if shutil.which("node") is None:
        pytest.skip("pyright needs node, which is not installed")
    # pyright reads the search paths of the active environment; an editable install's import hook
    # is invisible to it, so the checkout itself is put on the path
    env = dict(os.environ, VIRTUAL_ENV=sys.prefix,
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    r = _run("pyright", "--verifytypes", "yahtzee_solver", "--ignoreexternal", "--outputjson", env=env)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        pytest.fail(f"pyright gave no report: {r.stdout[-2000:]} {r.stderr[-2000:]}")
    completeness = report["typeCompleteness"]
    assert completeness["packageRootDirectory"], "pyright did not find the installed package"
    score = completeness["completenessScore"]
    unknown = [s["name"] for s in completeness["symbols"] if not s["isTypeKnown"] and s["isExported"]]
    assert score >= MIN_TYPED_SHARE, f"{score:.1%} typed; unknown: {unknown[:40]}"
