"""The documentation: it builds with warnings as errors, and covers the public API.

The build needs the ``docs`` extra (Sphinx, MyST, the theme); without it the
build tests skip, saying so -- except under CI (``CI`` set), where a missing
extra is a failure, so that the docs build cannot silently drop out of CI.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import yahtzee_solver

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.docs

_NEEDED = ("sphinx", "myst_parser", "furo")


def _require_sphinx():
    missing = [m for m in _NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        reason = f"the docs extra is not installed (missing {', '.join(missing)}): pip install -e '.[docs]'"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    """Build the HTML docs once, as the README says (``-W --keep-going``), into a temp folder."""
    _require_sphinx()
    out = tmp_path_factory.mktemp("html")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html",
         "-d", str(out / ".doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert proc.returncode == 0, f"the docs build failed or warned:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return out


def test_docs_build_with_warnings_as_errors(html):
    for page in ("index", "quickstart", "rules", "library", "cli", "formats", "how-it-works", "changelog",
                 "api/index"):
        assert (html / f"{page}.html").is_file(), page


def test_every_public_name_is_in_the_api_reference(html):
    page = (html / "api" / "index.html").read_text(encoding="utf-8")
    missing = [n for n in yahtzee_solver.__all__ if f'id="yahtzee_solver.{n}"' not in page]
    assert not missing, f"not documented in docs/api/index.rst: {missing}"


def test_layer_pages_are_built_once_the_layers_exist(html):
    layered = importlib.util.find_spec("yahtzee_solver.solver") is not None
    assert (html / "api" / "modules.html").is_file() == layered


def test_the_cli_page_shows_every_command():
    from yahtzee_solver.cli import main

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^```\{cli-help\} ([\w-]+)$", text, re.M))
    assert shown == set(main.list_commands(None))


def test_every_public_attribute_of_advisor_is_documented():
    adv = yahtzee_solver.Advisor("yacht", jit=False)
    public = {n for n in vars(adv) if not n.startswith("_")}
    public |= {n for n, v in inspect.getmembers(type(adv)) if isinstance(v, property) and not n.startswith("_")}
    doc = inspect.getdoc(yahtzee_solver.Advisor)
    section = doc.split("Attributes\n----------\n", 1)[1].split("\n\n", 1)[0] if "Attributes\n---" in doc else ""
    documented = set(re.findall(r"^(\w+) : ", section, re.M))
    assert public <= documented, f"Advisor attributes without a docstring entry: {sorted(public - documented)}"
    library = (DOCS / "library.md").read_text(encoding="utf-8")
    assert all(f"| `{n}` |" in library for n in public), "docs/library.md lists each attribute"
