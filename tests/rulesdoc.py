"""The tables of ``docs/rules.md``, the project's rules authority, as data for the tests.

A table is read between the markers ``<!-- NAME -->`` and ``<!-- /NAME -->``:
a Markdown table whose first row names the columns.  Cells are stripped of
surrounding backticks.  A missing marker, a ragged row or a value that does not
parse is an error, so an edit that breaks the format fails the tests that
read it instead of skipping them.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from pathlib import Path

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _cell(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "`":
        text = text[1:-1]
    return text


@cache
def table(name: str) -> tuple[dict[str, str], ...]:
    """The rows of the marked table ``name``, each a dict by column heading."""
    text = RULES_DOC.read_text(encoding="utf-8")
    m = re.search(rf"^<!-- {re.escape(name)} -->\n(.*?)^<!-- /{re.escape(name)} -->$", text, re.M | re.S)
    if m is None:
        raise ValueError(f"{RULES_DOC.name}: no table marked {name!r}")
    lines = [ln.strip() for ln in m.group(1).strip().splitlines()]
    if len(lines) < 3 or not all(ln.startswith("|") and ln.endswith("|") for ln in lines):
        raise ValueError(f"{RULES_DOC.name}: the table {name!r} is not a Markdown table")
    head = [_cell(c) for c in lines[0][1:-1].split("|")]
    if not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[1]):
        raise ValueError(f"{RULES_DOC.name}: the table {name!r} has no separator row")
    rows = []
    for ln in lines[2:]:
        cells = [_cell(c) for c in ln[1:-1].split("|")]
        if len(cells) != len(head):
            raise ValueError(f"{RULES_DOC.name}: a row of {name!r} has {len(cells)} cells, want {len(head)}: {ln}")
        rows.append(dict(zip(head, cells)))
    return tuple(rows)


def reference_values() -> dict[str, float]:
    """Optimal expected final score from the empty card by rule-set name (points, 7 decimals)."""
    return {r["rule set"]: float(r["optimal expected final score"]) for r in table("reference-values")}


def hand_value(key: str) -> Fraction:
    """An exact small value of the ``hand-values`` table (``70/3``)."""
    for r in table("hand-values"):
        if r["id"] == key:
            return Fraction(r["value"])
    raise KeyError(f"{RULES_DOC.name}: no hand value {key!r}")


def published_distribution(rules: str) -> dict[str, float]:
    """Published mean, standard deviation and median of the final score under optimal play."""
    for r in table("published-distribution"):
        if r["rule set"] == rules:
            return {"mean": float(r["mean"]), "sd": float(r["standard deviation"]), "median": float(r["median"])}
    raise KeyError(f"{RULES_DOC.name}: no published distribution for {rules!r}")


def box_names() -> dict[str, tuple[str, ...]]:
    """The aliases of each box, by the box's display name (``"Full House": ("fh", "full-house")``)."""
    return {r["box"]: tuple(a.strip().strip("`") for a in r["also typed as"].split(",")) for r in table("box-names")}
