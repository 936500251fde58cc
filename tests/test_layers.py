"""The package's folders are its layers: imports point down, and there is no import circle.

Every ``import`` and ``from ... import`` in the package is read from the source
(those inside functions too: a lazy import is still an import), resolved to a
module of the package, and checked against the layer of the importing module.
"""

from __future__ import annotations

import ast
import importlib
import warnings
from pathlib import Path

import pytest

import yahtzee_solver

PKG_DIR = Path(yahtzee_solver.__file__).parent
PKG = "yahtzee_solver"

#: The layers, bottom first.  A module may import its own layer and the layers
#: below it; the modules of one layer may import each other (no circle).
LAYERS: list[tuple[str, set[str]]] = [
    ("ground", {"_version", "errors", "dice", "rules", "files", "card_problems"}),
    ("i18n", {"i18n"}),
    ("solver", {"solver"}),
    # the scorecard asks the turn kernel how a roll scores (one definition of the
    # Joker rule), and the engine plays on scorecards: both stand on the solver
    ("card and engine", {"state", "game"}),
    ("strategy", {"strategy"}),
    ("analysis", {"analysis"}),
    ("play", {"play"}),
    ("front ends", {"tui", "web", "env"}),
    ("command line", {"cli", "__main__"}),
    ("facade", {"__init__", "_compat"}),
]


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG_DIR.rglob("*.py") if "__pycache__" not in p.parts}


def _layer(module: str) -> int:
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else "__init__"
    for i, (_, members) in enumerate(LAYERS):
        if first in members:
            return i
    raise AssertionError(f"{module} is in no layer: add it to LAYERS in {__file__}")


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``module`` imports (resolved; a submodule import counts as that module)."""
    is_pkg = path.name == "__init__.py"
    package = module if is_pkg else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from pkg import sub`` imports the submodule; the package only if a
            # name is not a submodule (an attribute of the package itself)
            subs = [f"{mod}.{a.name}" for a in node.names]
            targets = subs if all(s in modules for s in subs) else [mod, *subs]
        for t in targets:
            # the longest prefix that is a module of the package
            parts = t.split(".")
            while parts and ".".join(parts) not in modules:
                parts.pop()
            name = ".".join(parts)
            if name and name != module and name.startswith(PKG):
                out.add(name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, p, modules) for m, p in modules.items()}


def test_every_module_is_in_a_layer():
    for m in _modules():
        _layer(m)


def test_imports_only_point_down():
    up = []
    for m, deps in sorted(_graph().items()):
        for d in sorted(deps):
            if d == PKG and m.split(".")[1:2] != ["_compat"]:
                up.append(f"{m} -> {d} (the facade: import the defining module instead)")
            elif _layer(d) > _layer(m):
                up.append(f"{m} ({LAYERS[_layer(m)][0]}) -> {d} ({LAYERS[_layer(d)][0]})")
    assert not up, "imports that point up:\n" + "\n".join(up)


def test_no_import_circle():
    graph = _graph()
    # Tarjan's strongly connected components; a component of two or more modules is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_checks_can_fail(tmp_path):
    """The graph reader sees a lazy upward import and a circle (a planted pair of modules)."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from .cli import x\n")
    modules = {"yahtzee_solver.state": a, "yahtzee_solver.cli": a}
    assert _imports("yahtzee_solver.state", a, modules) == {"yahtzee_solver.cli"}


def test_at_most_twelve_modules_on_the_ground_floor():
    top = sorted(p.name for p in PKG_DIR.glob("*.py"))
    assert len(top) <= 12, top


@pytest.mark.parametrize("old", sorted(yahtzee_solver._compat.MOVED))
def test_old_module_paths_still_import_with_a_warning(old):
    with pytest.warns(DeprecationWarning, match=rf"yahtzee_solver\.{old} is deprecated"):
        mod = importlib.import_module(f"{PKG}.{old}")
    new = importlib.import_module(f"{PKG}.{yahtzee_solver._compat.MOVED[old][0]}")
    public = [n for n in getattr(new, "__all__", []) if not n.startswith("_")]
    for name in public:
        assert getattr(mod, name) is getattr(new, name)


def test_old_paths_that_gathered_several_modules():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from yahtzee_solver.master import MasterStrategy, play_match, wilson_interval  # noqa: F401
        from yahtzee_solver.players import LEVELS, make_strategy

    assert make_strategy("master").__class__ is MasterStrategy
    assert LEVELS == ("beginner", "normal", "expert")


def test_a_public_name_means_one_thing():
    """Importing the deprecated module ``yahtzee_solver.simulate`` leaves the function in place."""
    import yahtzee_solver as ys

    fn = ys.simulate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module("yahtzee_solver.simulate")
        importlib.import_module("yahtzee_solver.analysis.review")
    from yahtzee_solver import simulate

    assert callable(simulate) and simulate is fn
    assert ys.simulate.__module__ == "yahtzee_solver.analysis.simulate"
