"""The ``yahtzee-solve`` command line: a click group whose commands load lazily.

Each command lives in its own module (``query``, ``tables``, ``play``,
``records``, ``simulate``, ``serve``) and is imported only when it runs, so a cold
``yahtzee-solve hint`` does not pay for numba or the game.

Errors are turned into exit codes here, once, and every failure is a single
``Error: ...`` line on stderr, never a traceback:

- :class:`~yahtzee_solver.errors.UsageError`, and click's own usage errors (bad
  option value, unknown option or command, missing argument): exit 2,
  ``Error: <message>``; click's errors add ``(see 'yahtzee-solve CMD -h')``.
- any other :class:`~yahtzee_solver.errors.YahtzeeError` (a missing or corrupt
  value table, ...): exit 1, ``Error: <message>``.
- output that cannot be written (full disk, ...): exit 1,
  ``Error: cannot write output: <reason>``.
- output pipe closed by its reader (``| head``): exit 1 and nothing printed,
  the Python convention for EPIPE.
- out of memory: exit 1, ``Error: out of memory: ...``.
- Ctrl-C: exit 130 (128 + SIGINT, the shell convention), ``Aborted!``;
  end of input at a question: exit 1, ``Aborted!``.

``--help`` and ``--version`` exit 0; a command's own ``ctx.exit(code)`` keeps its code.
"""

from __future__ import annotations

import errno
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from .._version import __version__
from ..errors import CardRulesError, UsageError, YahtzeeError

# command name -> "module:attribute" (relative to this package)
COMMANDS: dict[str, str] = {
    "hint": "query:hint",
    "keep": "query:keep",
    "fill": "query:fill",
    "value": "query:value",
    "build": "tables:build",
    "info": "tables:info",
    "play": "play:play",
    "coach": "coach:coach",
    "records": "records:records",
    "simulate": "simulate:simulate",
    "dist": "dist:dist",
    "review": "review:review",
    "serve": "serve:serve",
    "target-curve": "target_curve:target_curve_command",
    "match": "match:match",
    "win": "win:win",
    "train": "train:train",
}

# click >= 8.2 raises this (a UsageError whose message is the whole help) for a bare group
_NoArgsIsHelpError = getattr(click.exceptions, "NoArgsIsHelpError", ())


def _sentence(message: str) -> str:
    """A click message in the project's style: one line, lowercase start, no final period."""
    text = " ".join(message.split())
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text[:-1] if text.endswith(".") else text


def _usage_line(e: click.UsageError) -> str:
    """``<message> (see 'yahtzee-solve CMD -h')`` for click's usage errors; library ones as they are."""
    message = _sentence(e.format_message())
    ctx = e.ctx
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        flag = min(ctx.help_option_names, key=len)
        message += f" (see '{ctx.command_path} {flag}')"
    return message


#: Longest error line printed; a pasted 100 kB value is cut, not echoed back.
MAX_ERROR = 300

#: Longest suggested command (an error's ``remedy``), and longest other words of its message, kept whole past
#: :data:`MAX_ERROR`: they name a path of up to PATH_MAX (4096 bytes) characters.  Longer ones name no file the
#: system could open: such a message is cut as any.
MAX_REMEDY = 4096 + 200

#: What a long message with a remedy keeps at least of its quoted reason.
MIN_REASON = 60


def _fit(message: str, remedy: str | None = None, reason: str | None = None, limit: int = MAX_ERROR) -> str:
    """``message`` cut to ``limit`` characters, never inside its ``remedy`` (the command it suggests).

    A message of a :class:`~yahtzee_solver.errors.YahtzeeError` with a
    ``remedy`` (its last part: ``rebuild it with: yahtzee-solve build ...``)
    keeps it whole, so the command can be pasted, and the words that say what
    is wrong (the file's path among them); what gives way is the quoted
    ``reason`` (h5py's message, say), down to :data:`MIN_REASON` characters.
    The line may then run past ``limit`` by what the paths need.
    """
    if len(message) <= limit:
        return message
    at = message.rfind(remedy) if remedy and len(remedy) <= MAX_REMEDY else -1
    if at < 0:
        return message[: limit - 3] + "..."
    head, tail = message[:at], message[at:]  # the tail: the remedy, and what follows it ("(see ... -h)")
    i = head.rfind(reason) if reason else -1
    if reason and i >= 0 and len(reason) > MIN_REASON:
        keep = max(len(reason) - (len(message) - limit) - 3, MIN_REASON - 3)
        head = head[:i] + reason[:keep].rstrip() + "..." + head[i + len(reason):]
    if len(head) > MAX_REMEDY:  # not words about a file: the usual cut
        return message[: limit - 3] + "..."
    return head + tail


def _echo_error(message: str, error: YahtzeeError | None = None) -> None:
    """``Error: message`` on stderr, cut to :data:`MAX_ERROR` characters (dropped if stderr cannot be written);
    the command a library ``error`` suggests (its ``remedy``) is kept whole (:func:`_fit`)."""
    if error is not None:
        message = _fit(message, error.remedy, error.reason)
    else:
        message = _fit(message)
    try:
        click.echo(f"Error: {message}", err=True)
    except (OSError, ValueError):
        pass


def _discard_unwritable_output() -> None:
    """Point stdout/stderr at the null device if they can no longer be flushed.

    Python flushes the standard streams at exit; without this, output still
    buffered for a full disk or a closed pipe would print an "Exception ignored"
    traceback and change the exit code to 120.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
            continue
        except (OSError, ValueError):
            pass
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass  # not a file descriptor (e.g. click's CliRunner): nothing flushes it at exit


class _Refused(click.UsageError):
    """A library :class:`~yahtzee_solver.errors.UsageError` as click's (exit 2), kept for its remedy."""

    def __init__(self, message: str, error: YahtzeeError) -> None:
        super().__init__(message)
        self.error = error


class _Failed(click.ClickException):
    """Any other :class:`~yahtzee_solver.errors.YahtzeeError` as click's (exit 1), kept for its remedy."""

    def __init__(self, error: YahtzeeError) -> None:
        super().__init__(str(error))
        self.error = error


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is used,
    and reports every failure as one line (see the module docstring)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CardRulesError as e:
            raise _Refused(f"{e} (pass --rules {e.card_rules})", e) from None
        except UsageError as e:
            raise _Refused(str(e), e) from None
        except YahtzeeError as e:
            raise _Failed(e) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        """Run the command line and exit with its code (see the module docstring).

        With ``standalone_mode=False`` this is click's own ``main``: exceptions
        propagate to the caller.
        """
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        sys.exit(self._run(args, prog_name, complete_var, extra))

    def _run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
             extra: dict[str, Any]) -> int:
        """Run click without its standalone error handling; return the exit code."""
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            # Output still buffered must fail here, inside the handlers, not at exit.
            sys.stdout.flush()
        except _NoArgsIsHelpError as e:  # bare ``yahtzee-solve``: the help, as click prints it
            e.show()
            code: int = e.exit_code
            return code
        except click.UsageError as e:
            _echo_error(_usage_line(e), e.error if isinstance(e, _Refused) else None)
            return e.exit_code
        except click.ClickException as e:
            _echo_error(_sentence(e.format_message()), e.error if isinstance(e, _Failed) else None)
            return e.exit_code
        except (click.Abort, KeyboardInterrupt, EOFError) as e:
            _discard_unwritable_output()
            try:
                click.echo("Aborted!", err=True)
            except (OSError, ValueError):
                pass
            # click turns Ctrl-C into Abort, raised from the KeyboardInterrupt
            return 130 if isinstance(e, KeyboardInterrupt) or isinstance(e.__cause__, KeyboardInterrupt) else 1
        except OSError as e:
            _discard_unwritable_output()
            if e.errno != errno.EPIPE:  # a closed pipe ends the output quietly, as ``head`` wants
                reason = e.strerror or str(e) or type(e).__name__
                where = f"cannot access {os.fsdecode(e.filename)!r}" if e.filename else "cannot write output"
                _echo_error(f"{where}: {reason}")
            return 1
        except MemoryError:
            _echo_error("out of memory: ask for less (fewer games, a smaller rule set) or free some memory")
            return 1
        # ``ctx.exit(code)``, ``--help`` and ``--version`` come back as an int code
        return rv if type(rv) is int else 0


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="yahtzee-solve")
def main() -> None:
    """Optimal Yahtzee and Yacht: which dice to keep, where to score, and a game to play.

    \b
    Quick start:
      yahtzee-solve hint 22555 --rolls-left 2 --card sixes=18,fours=12
      yahtzee-solve play --vs expert
      yahtzee-solve serve                  (in the browser; needs the [web] extra)
    """


def run(prog_name: str | None = None) -> NoReturn:
    """The ``yahtzee-solve`` console command: :data:`main` as a process of its own.

    Runs the command line as ``main()`` does (same output, same exit codes), then
    ends the process with that code at once, skipping the interpreter's
    teardown: unloading numpy and h5py costs a finished command about 20 ms
    (the import floor pays it too), and numba with its LLVM about 90 ms more
    after a compiled ``dist`` or ``--target`` query.  Nothing is lost: every
    file a command writes is written atomically and closed before it returns,
    the project registers no exit handlers, and the standard streams are
    flushed here first (if that fails, the process ends the usual way, as
    ``main()`` would).  A program that embeds the command line calls
    :data:`main` instead (``CliRunner`` does).
    """
    code = main._run(None, prog_name, None, {})
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


__all__ = ["main", "run", "COMMANDS"]
