"""The value-table commands: ``build`` (run the DP, write the HDF5 file) and ``info``.

``build`` uses the numba-compiled kernels and a tqdm progress bar (on stderr);
it checks that the output folder is writable *before* the minutes of work, and
the file is written atomically by :func:`yahtzee_solver.solver.table.save_table`
(temp file in the same folder, then rename), so an interrupted or failed build
leaves the previous table and no temp file behind.

``info`` reads a table's metadata and re-verifies its SHA-256 checksums (the loaders' checks,
:meth:`~yahtzee_solver.solver.table.ValueTable.verify`); without
``--rules`` it takes the rule set stored in the ``--table`` file.

Both compare the optimal expected score of the empty card with the value
docs/rules.md quotes for the rule set (see :data:`REFERENCE_SOURCES`).
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import numpy as np

from ..errors import TableError, UsageError
from ..files import file_kind
from ..solver.table import FORMAT_VERSION, default_table_path, load_table, rebuild_hint
from .options import DEFAULT_RULES, echo_json, json_option, rules_option, table_option, table_rules_option

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["build", "info", "REFERENCE_TOLERANCE", "REFERENCE_SOURCES"]

#: docs/rules.md quotes the reference values to 7 decimals.
REFERENCE_TOLERANCE = 5e-8

#: Where each rule set's reference value (``RuleSet.reference_value``) comes from, as docs/rules.md states it.
REFERENCE_SOURCES = {
    "yahtzee": "two independent computations agree, docs/rules.md",
    "yahtzee-free-joker": "Verhoeff 1999 published 254.5896, docs/rules.md",
    "yahtzee-no-joker": "yatzy-solver american+no-joker, docs/rules.md",
    "yahtzee-no-bonus": "Glenn 2006 published 245.87, docs/rules.md",
    "yatzy": "yatzy-solver yatzy-scandinavian, docs/rules.md",
}


def check_writable(path: Path, *, hint: str = "", make_folders: bool = True) -> None:
    """Fail early, without writing anything, if ``path`` cannot be written.

    Creates and removes a probe file when the folder exists; otherwise checks
    that the nearest existing ancestor is a writable folder (``make_folders``:
    the missing ones will be created) or refuses the missing folder.

    Raises
    ------
    TableError
        If ``path`` is a folder or another non-regular file (a fifo, a device),
        or its folder cannot hold a new file.
    UsageError
        Without ``make_folders`` (a path the user named), if it is a fifo, a
        device or a socket, or its folder does not exist.
    """
    def fail(reason: str) -> TableError:
        return TableError(f"cannot write table to {str(path)!r}: {reason}{hint}")

    if path.is_dir():
        raise fail("it is a folder")
    if file_kind(path) == "special":
        if not make_folders:  # named on the command line: a usage error, as a folder is (click's, exit 2)
            raise UsageError(f"cannot write table to {str(path)!r}: it is not a regular file (a fifo, a device "
                             f"or a socket): give the path of a file{hint}")
        raise fail("it exists and is not a regular file")
    folder = path.parent
    if folder.is_dir():
        try:
            fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise fail(e.strerror or str(e)) from None
        return
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise fail(f"{str(ancestor)!r} is not a folder")
    if not make_folders:  # the folder named on the command line: a usage error, as --plot's (exit 2)
        raise UsageError(f"cannot write table to {str(path)!r}: folder {str(folder)!r} does not exist "
                         f"(it is not created: make it first){hint}")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise fail(f"folder {str(ancestor)!r} is not writable")


def _file_identity(path: Path) -> tuple[int, int, int] | None:
    """``(device, inode, mtime_ns)`` of the file at ``path``, ``None`` if there is none: an atomic
    write (a new file renamed over the path) changes it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns


def compare_reference(rules: RuleSet, empty_value: float) -> tuple[float | None, bool | None]:
    """The reference value of ``rules`` (quoted in docs/rules.md) and whether ``empty_value`` matches it.

    Returns
    -------
    reference : float or None
        Optimal expected final score from the empty card (points) as docs/rules.md
        quotes it (source: :data:`REFERENCE_SOURCES`), ``None`` if there is none.
    matches : bool or None
        ``abs(empty_value - reference) <= REFERENCE_TOLERANCE``; ``None`` without a reference.
    """
    ref = rules.reference_value
    if ref is None:
        return None, None
    return ref, abs(empty_value - ref) <= REFERENCE_TOLERANCE


def _reference_text(rules: RuleSet, ref: float | None, ok: bool | None, empty_value: float) -> str:
    if ref is None:
        return f"no published optimal value to compare for {rules.name}"
    verdict = "matches" if ok else "DIFFERS from"
    source = REFERENCE_SOURCES.get(rules.name, "docs/rules.md")
    return f"{verdict} the optimal value {ref} ({source}; difference {empty_value - ref:+.1e})"


def _out_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an empty or all-blank ``--out`` (a usage error naming it): the writer would take ``''``
    for the current folder, and a file named by blanks is surely not the one meant."""
    if value is not None and not value.strip():
        what = "is empty" if not value else f"is {len(value)} blank{'s' if len(value) > 1 else ''} and no name"
        raise click.BadParameter(f"{value!r} {what}: give the path of the table file to write (or leave --out out "
                                 "for the shipped table)", ctx, param)
    return value


@click.command()
@rules_option
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default=None,
    callback=_out_path,
    help=(
        "File to write; the folder must exist, as for --plot (default: the table "
        "shipped with the package for --rules)."
    ),
)
@click.option("--force", is_flag=True, default=False,
              help=("Replace the table of another rule set, or an HDF5 file that cannot be read, at --out "
                    "(refused without it)."))
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show a progress bar on stderr.")
def build(rules: RuleSet, out: str | None, force: bool, progress: bool) -> None:
    """Solve every turn-start state of a rule set and write its value table (HDF5).

    Uses the numba-compiled kernels on every core: a few seconds, plus the
    time to compile the kernels on first use.  An existing file is replaced
    only once the new one is completely written, and only if it is a table
    of the same rule set or a damaged one; a table of another rule set, or an
    HDF5 file that cannot be read at all (truncated: it cannot be told from
    another program's), needs --force.  An --out that is not a table (a text
    file, another program's HDF5 file) or not a regular file (a folder, a
    fifo, a device) is refused before the work (exit 2), and nothing is
    written.  Ctrl-C stops the build and writes nothing (exit status 130).

    \b
    Example:
      yahtzee-solve build --rules yacht --out yacht.h5
    """
    from ..solver.build import build_values
    from ..solver.table import ValueTable, replace_refusal, save_table

    rs = rules
    path = Path(out) if out is not None else default_table_path(rs)
    hint = "" if out is not None else "; pass --out PATH to write the table elsewhere"
    check_writable(path, hint=hint, make_folders=out is None)  # a folder the user names is never created
    refused = replace_refusal(path, rs.name, force=force)  # before the work: what the write would refuse
    if refused is not None:
        raise UsageError(f"{refused}{hint}")
    from .target_query import INTERRUPTED, stop_interrupted

    try:  # Ctrl-C: the bar is closed by build_values
        result = build_values(rs, progress=progress)
    except KeyboardInterrupt:
        stop_interrupted(f"the {rs.name} build")
        raise
    before = _file_identity(path)
    try:
        save_table(ValueTable(rs, result.values), path, n_states=result.n_states, force=force)
    except TableError as e:
        raise TableError(f"{e}{hint}") from None
    except KeyboardInterrupt:
        # save_table holds Ctrl-C back while it writes and renames, then delivers it: the table may
        # be complete at ``path`` (a new file there) or not written at all (its temp file removed)
        after = _file_identity(path)
        if after is None or after == before:
            stop_interrupted(f"the {rs.name} build")
        click.echo(f"wrote {path}")
        click.echo(f"Interrupted: the {rs.name} build stopped after its table was written whole.", err=True)
        click.get_current_context().exit(INTERRUPTED)
    ref, ok = compare_reference(rs, result.empty_value)
    click.echo(f"wrote {path}")
    click.echo(
        f"{rs.name}: {result.n_states:,} states in {result.seconds:.1f} s "
        f"(+{result.compile_seconds:.1f} s loading or compiling the kernels)"
    )
    click.echo(
        f"empty-card value {result.empty_value:.10f}, "
        f"{_reference_text(rs, ref, ok, result.empty_value)}"
    )


@click.command()
@table_rules_option
@table_option
@json_option
def info(rules: RuleSet | None, table_path: str | None, as_json: bool) -> None:
    """Metadata of a value table, with a full checksum verification.

    Shows the file, format version, rule set, the package version that built
    it, the optimal expected score of the empty card against the published
    optimal value (where docs/rules.md quotes one) and the number of states.  Exits
    1, as the queries refuse the file, if a SHA-256 checksum it stores (the whole
    table's, or a chunk's) does not match the values; exits 1 too if the number
    of reachable states it stores is not the number its values hold.

    \b
    Examples:
      yahtzee-solve info --rules yacht
      yahtzee-solve info --table yacht.h5
    """
    # the file opened once: its rule set (unless --rules names one, then checked) and its values
    table = load_table(rules if rules is not None or table_path is not None else DEFAULT_RULES, table_path,
                       verify=False)  # structure checked; checksums below
    rs = table.rules
    assert table.path is not None  # loaded from a file
    meta = {k: v for k, v in table.meta.items() if not k.startswith("_")}
    stored = str(meta.get("checksum", ""))
    failed: TableError | None = None
    try:  # every checksum the file stores, as the loaders check them (the whole table's and each chunk's)
        table.verify()
    except TableError as e:
        failed = e
    ok_sum = failed is None
    empty = float(table.values[0, 0, 0])
    if not math.isfinite(empty):  # nothing to show: say why the file is unusable, on one line
        if failed is not None:
            raise failed
        hint = rebuild_hint(rs.name, table.path)
        raise TableError(f"value table {str(table.path)!r} holds no value for the empty card ({empty}); {hint}",
                         remedy=hint)
    ref, ok_ref = compare_reference(rs, empty)
    reachable = int(np.count_nonzero(~np.isnan(table.values)))  # what the build counts and stores
    n_states = meta.get("n_states")  # an integer (the loader checks its kind), or missing
    ok_states = n_states == reachable
    size = table.path.stat().st_size
    from .._version import __version__

    data: dict[str, Any] = {
        "path": str(table.path.resolve()),
        "size_bytes": size,
        "format_version": int(meta.get("format_version", FORMAT_VERSION)),
        "rules": rs.name,
        "rules_title": rs.title,
        "package_version": str(meta.get("package_version", "")),
        "running_version": __version__,
        "empty_value": empty,
        "reference_value": ref,
        "reference_match": ok_ref,
        "reference_source": REFERENCE_SOURCES.get(rs.name) if ref is not None else None,
        "n_states": n_states,
        "n_states_ok": ok_states,
        "shape": list(table.values.shape),
        "checksum": stored,
        "checksum_ok": ok_sum,
    }
    if as_json:
        echo_json(data)
    else:
        rows = [
            ("file", f"{data['path']} ({size / 2**20:.1f} MiB, {size:,} bytes)"),
            ("format", f"{meta.get('format', '?')}, version {data['format_version']}"),
            ("rules", f"{rs.name}: {rs.title}"),
            ("built by", f"yahtzee_solver {_shown_version(data['package_version'])} (running {__version__})"),
            ("empty card", f"{empty:.10f}, {_reference_text(rs, ref, ok_ref, empty)}"),
            ("states", f"{_states_text(n_states, reachable)}, array {' x '.join(map(str, data['shape']))} float64"),
            ("checksum", f"{stored} {'verified' if ok_sum else 'MISMATCH'}"),
        ]
        w = max(len(k) for k, _ in rows)
        for k, v in rows:
            click.echo(f"{k.ljust(w)}  {v}")
    if failed is not None:  # the loaders' own error (and exit code)
        raise failed
    if not ok_states:
        hint = rebuild_hint(rs.name, table.path)
        said = ("does not say how many states it holds" if n_states is None
                else f"says it holds {n_states:,} reachable states")
        raise TableError(f"value table {str(table.path)!r} {said}, its values hold {reachable:,}; {hint}",
                         remedy=hint)


def _shown_version(text: str) -> str:
    """A table's ``package_version`` as ``info`` prints it: as stored when it is a short printable word,
    else quoted with its control characters escaped and cut to 40 characters (the file's own text: a
    terminal escape in it must not reach the terminal, nor a newline split the row)."""
    if len(text) <= 40 and text.isprintable() and " " not in text:
        return text
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:36] + "...'"


def _states_text(n_states: int | None, reachable: int) -> str:
    """The ``states`` row of ``info``: the count the file stores, and the one its values hold where they differ."""
    if n_states == reachable:
        return f"{reachable:,} reachable"
    said = "not stored" if n_states is None else f"{n_states:,} reachable by the file's count"
    return f"{said}, MISMATCH: its values hold {reachable:,}"
