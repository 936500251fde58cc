"""Packaging: every Python package is installed, the sdist carries its own tests, no build warnings.

A full install of the sdist and a run of its test suite takes minutes (the
table builds) and is done by hand before a release (README, Development).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "yahtzee_solver").rglob("__init__.py")}
    assert found <= listed, f"not installed: {sorted(found - listed)}"


# -- the source distribution -------------------------------------------------------------------
#: Files the sdist must carry for its own test suite to collect and run.
SDIST_MUST_HOLD = (
    "tests/conftest.py",
    "tests/clihelpers.py",
    "tests/webhelpers.py",
    "LICENSE",
    "CHANGELOG.md",
    "MANIFEST.in",
    "tests/rulesdoc.py",
    "tests/test_docs.py",
    "docs/rules.md",
    "docs/conf.py",
    "docs/api/index.rst",
    "docs/api/modules.rst",
    "data/yahtzee.h5",
)


@pytest.fixture(scope="module")
def built_dists(tmp_path_factory):
    """``python -m build`` (sdist, then the wheel from the sdist) into a temp folder, without isolation.

    Without isolation the build uses this environment's setuptools and needs no network;
    ``build`` and a recent setuptools come with the ``test`` extra.
    """
    pytest.importorskip("build", reason="the 'build' package is not installed (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    # warnings shown; bytecode allowed, as in a user's build (else setuptools says it skips it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONWARNINGS"] = "default"
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        # run outside the checkout: its build/ folder (setuptools' output) would shadow the 'build' package
        capture_output=True, text=True, env=env, timeout=300, cwd=str(out),
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, proc.stdout + proc.stderr


def test_sdist_holds_what_its_tests_need(built_dists, tmp_path):
    out, _ = built_dists
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (top,) = tmp_path.iterdir()
    names = {p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()}
    missing = [n for n in SDIST_MUST_HOLD if n not in names]
    assert not missing, f"the sdist leaves out {missing}"
    # every file of tests/ that git would ship is there (helpers included), and no build output
    here = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("*.py")}
    assert here <= names, sorted(here - names)
    assert not any(n.startswith("docs/_build/") or "__pycache__" in n for n in names)


def test_build_prints_no_setuptools_warning(built_dists):
    _, log = built_dists
    bad = [ln for ln in log.splitlines() if re.search(r"warning", ln, re.IGNORECASE)]
    assert not bad, "\n".join(bad)


def test_wheel_carries_the_license_and_the_tables(built_dists):
    out, _ = built_dists
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "yahtzee_solver/data/yahtzee.h5" in names
    assert "License-Expression: MIT" in meta
    assert not any(n.startswith("tests/") for n in names)  # tests ship in the sdist only


def test_classifiers_are_known_trove_classifiers():
    trove = pytest.importorskip("trove_classifiers", reason="trove-classifiers is not installed (test extra)")
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["classifiers"]
    unknown = [c for c in listed if c not in trove.classifiers]
    assert listed and not unknown, unknown
    assert not any(c.startswith("License ::") for c in listed)  # the license is the SPDX expression


def test_license_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT" and text.startswith("MIT License")
    assert "yahtzee_solver developers" in text
