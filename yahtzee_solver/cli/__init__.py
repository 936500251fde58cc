"""The ``yahtzee-solve`` command line: a click group whose commands load lazily.

Each command lives in its own module (``query``, ``tables``, ``play``,
``records``, ``simulate``) and is imported only when it runs, so a cold
``yahtzee-solve hint`` does not pay for numba or the game.

Library errors are mapped here, once: :class:`~yahtzee_solver.errors.UsageError`
becomes a click usage error (exit 2), any other
:class:`~yahtzee_solver.errors.YahtzeeError` a one-line ``Error: ...`` (exit 1).
"""

from __future__ import annotations

import importlib

import click

from .. import __version__
from ..errors import UsageError, YahtzeeError

# command name -> "module:attribute" (relative to this package)
COMMANDS: dict[str, str] = {
    "hint": "query:hint",
    "keep": "query:keep",
    "fill": "query:fill",
    "value": "query:value",
    "build": "tables:build",
    "info": "tables:info",
    "play": "play:play",
    "records": "records:records",
    "simulate": "simulate:simulate",
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is used."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as e:
            raise click.UsageError(str(e)) from None
        except YahtzeeError as e:
            raise click.ClickException(str(e)) from None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="yahtzee-solve")
def main():
    """Optimal Yahtzee and Yacht: which dice to keep, where to score, and a game to play.

    \b
    Quick start:
      yahtzee-solve hint 22555 --rolls-left 2 --card sixes=18,fours=12
      yahtzee-solve play --vs expert
    """


__all__ = ["main", "COMMANDS"]
