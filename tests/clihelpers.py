"""Helpers shared by the CLI tests: run a command in-process and check error output."""

from __future__ import annotations

import io
import json
import os
from contextlib import contextmanager

from click.testing import CliRunner

from yahtzee_solver.cli import main


def run(*args: str, **kwargs):
    """Invoke ``yahtzee-solve ARGS`` with CliRunner (kwargs go to ``invoke``, e.g. ``input``)."""
    return CliRunner().invoke(main, list(args), prog_name="yahtzee-solve", **kwargs)


class CtrlC(io.BytesIO):
    """Input for ``invoke``: ``text`` typed, then Ctrl-C at the next prompt (its read raises KeyboardInterrupt)."""

    def __init__(self, text: str) -> None:
        super().__init__(text.encode())

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        if not data and size != 0:
            raise KeyboardInterrupt
        return data

    read1 = read


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


def assert_click_usage_error(result, *needles: str, command: str | None = None) -> None:
    """An error click itself reports (bad option value, unknown option or command, missing
    argument): exit 2, ONE line ``Error: <lowercase message> (see 'yahtzee-solve CMD -h')``
    naming the bad value, no usage block, no traceback.

    ``command`` is the sub-command whose help the line points to (``""`` for the group);
    ``None`` accepts any.
    """
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    message = lines[0][len("Error: "):]
    assert message[0] == message[0].lower() and "Usage:" not in result.output
    if command is not None:
        path = f"yahtzee-solve {command}".rstrip()
        assert message.endswith(f" (see '{path} -h')"), message
    for needle in needles:
        assert needle in message, (needle, message)


def run_process(*args: str, **kwargs):
    """Run ``python -m yahtzee_solver ARGS`` in a real process (real stdout/stderr file descriptors).

    ``kwargs`` go to :func:`subprocess.run` (default: capture both streams as text, 120 s timeout).
    """
    import subprocess
    import sys

    kwargs.setdefault("timeout", 120)
    if "stdout" not in kwargs:
        kwargs["stdout"] = subprocess.PIPE
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("text", True)
    return subprocess.run([sys.executable, "-m", "yahtzee_solver", *args], **kwargs)


@contextmanager
def fifo(path):
    """Make a fifo at ``path`` that never blocks a reader for long.

    A helper process waits to write to it and then closes it, so code that
    wrongly opens the fifo for reading gets end-of-file instead of hanging the
    test run forever (the test then fails on the output, as it should).  A
    process, not a thread: h5py holds the GIL while it opens a file.
    """
    import subprocess
    import sys

    os.mkfifo(path)
    writer = subprocess.Popen([sys.executable, "-c", "import sys; open(sys.argv[1], 'wb').close()", str(path)])
    try:
        yield path
    finally:
        if writer.poll() is None:
            writer.kill()
        writer.wait()


@contextmanager
def hold_lock(path):
    """Another process holding the game lock at ``path`` (:class:`~yahtzee_solver.play.lock.GameLock`) for the
    ``with`` block; yields its :class:`subprocess.Popen` (``.pid`` is the holder's pid)."""
    import subprocess
    import sys

    code = ("import sys; from yahtzee_solver.play.lock import GameLock; held = GameLock(sys.argv[1]).acquire(); "
            "print('held', flush=True); sys.stdin.read()")
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        if holder.poll() is None:
            holder.stdin.close()
            holder.wait(timeout=30)


def lock_is_free(path) -> bool:
    """Whether the game lock at ``path`` can be taken now (it is released and taken back at once)."""
    from yahtzee_solver.play.lock import GameLock, GameRunningError

    try:
        GameLock(path).acquire().release()
    except GameRunningError:
        return False
    return True
