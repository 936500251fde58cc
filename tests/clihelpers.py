"""Helpers shared by the CLI tests: run a command in-process and check error output."""

from __future__ import annotations

import json

from click.testing import CliRunner

from yahtzee_solver.cli import main


def run(*args: str, **kwargs):
    """Invoke ``yahtzee-solve ARGS`` with CliRunner (kwargs go to ``invoke``, e.g. ``input``)."""
    return CliRunner().invoke(main, list(args), prog_name="yahtzee-solve", **kwargs)


def run_json(*args: str) -> dict:
    """Invoke with ``--json``, require exit 0, return the parsed output."""
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def assert_clean_error(result, code: int, *needles: str, only_line: bool = True) -> None:
    """An ``Error: ...`` line holding every needle, exit ``code``, no traceback.

    With ``only_line`` (the default) the error is the whole output, lowercase,
    raised as a clean ``SystemExit``; commands that print progress first pass
    ``only_line=False``.
    """
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.output
    message = errors[0][len("Error: "):]
    if only_line:
        assert isinstance(result.exception, SystemExit)
        assert result.output.strip().splitlines() == [errors[0]], result.output
        assert message[0] == message[0].lower()
    for needle in needles:
        assert needle in message, (needle, message)
