"""Every Python package of the source tree is installed by ``pip install .``."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "yahtzee_solver").rglob("__init__.py")}
    assert found <= listed, f"not installed: {sorted(found - listed)}"
