"""Old module paths, kept for one release, and the guard on public names.

Version 0.2.0 moved the flat modules into layer folders (``solver/``,
``strategy/``, ``analysis/``, ``play/``, ``i18n/``).  The paths the README of
0.1 documented (``yahtzee_solver.advisor``, ``yahtzee_solver.table``,
``yahtzee_solver.master``, ...) still import, with a :class:`DeprecationWarning`
naming the new path; they will be removed in 0.3.0.  An old path is a stand-in
module that reads every attribute from the new module(s), so
``from yahtzee_solver.table import load_table`` keeps working, but assigning to
the stand-in (``monkeypatch``) does not reach the real module.

This module imports nothing of the package at import time: it sits above
every layer, beside the package's ``__init__``.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

__all__ = ["MOVED", "protect_public_names"]

#: Old module (relative to the package) -> the new module(s) that hold its names,
#: searched in order.
MOVED: dict[str, tuple[str, ...]] = {
    "kernels": ("solver.kernels",),
    "utility_kernels": ("solver.utility_kernels",),
    "jit": ("solver.jit",),
    "build": ("solver.build",),
    "table": ("solver.table",),
    "i18n_text": ("i18n.text",),
    "policy": ("strategy.policy",),
    "advisor": ("strategy.advisor",),
    "batch": ("strategy.batch",),
    "players": ("strategy.players", "strategy.levels"),
    "distribution": ("strategy.distribution",),
    "objectives": ("strategy.objectives",),
    "target": ("strategy.target",),
    "master": ("strategy.master", "analysis.match", "strategy.levels"),
    "win_chances": ("strategy.win_chances",),
    "simulate": ("analysis.simulate",),
    "review": ("analysis.review",),
    "curve_data": ("analysis.curve_data",),
    "session": ("play.session",),
    "savegame": ("play.savegame",),
    "ledger": ("play.ledger",),
    "records": ("play.records",),
    "history": ("play.history",),
    "lock": ("play.lock",),
}

_PACKAGE = __name__.rpartition(".")[0]


class _MovedModule(types.ModuleType):
    """Stand-in for an old module path: every attribute comes from the new modules."""

    _targets: tuple[str, ...]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        for target in self._targets:
            module = importlib.import_module(target)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {self.__name__!r} (moved to {self._targets[0]!r}) has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        names: set[str] = set()
        for target in self._targets:
            names.update(dir(importlib.import_module(target)))
        return sorted(names)


def _caller_stacklevel() -> int:
    """The stack level of the first frame outside the import machinery and this module."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_code.co_filename == __file__):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


class _Loader:
    # the loader protocol by its two methods (importlib.abc costs a cold start ~7 ms of imports)
    def __init__(self, targets: tuple[str, ...]):
        self.targets = targets

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _MovedModule(spec.name)
        module._targets = self.targets
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        new = self.targets[0]
        importlib.import_module(new)
        warnings.warn(f"{module.__name__} is deprecated and will be removed in 0.3.0: import from {new}",
                      DeprecationWarning, stacklevel=_caller_stacklevel())


class _Finder:
    # a meta path finder is any object with find_spec
    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != _PACKAGE or name not in MOVED:
            return None
        targets = tuple(f"{_PACKAGE}.{t}" for t in MOVED[name])
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", _Loader(targets)))


def protect_public_names(package: str, public: Sequence[str]) -> None:
    """Keep a submodule import from replacing a public name of ``package``.

    The import system binds every imported submodule as an attribute of its
    package; for the deprecated path ``yahtzee_solver.simulate`` that would
    turn the public function ``yahtzee_solver.simulate`` into a module.  The
    package's module class is swapped for one that refuses that one binding.
    """
    module = sys.modules[package]
    names = frozenset(public)

    class _Package(types.ModuleType):
        def __setattr__(self, name: str, value: Any) -> None:
            if name in names and isinstance(value, types.ModuleType):
                return
            super().__setattr__(name, value)

    module.__class__ = _Package


if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.append(_Finder())
