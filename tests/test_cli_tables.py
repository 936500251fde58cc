"""The table commands (build, info) through click's CliRunner.

One real build of the smallest rule set (yacht, a few seconds with the JIT)
is shared by the module; failure paths replace the DP with the shipped table
so they run instantly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import h5py
import numpy as np
import pytest

from clihelpers import run, run_json
from clihelpers import fifo as make_fifo
from clihelpers import assert_clean_error as _assert_clean_error
import yahtzee_solver.solver.build as build_module
import yahtzee_solver.solver.table as table_module
from yahtzee_solver._version import __version__
from yahtzee_solver import Advisor
from yahtzee_solver.solver.build import BuildResult
from yahtzee_solver.rules import RULESETS, get_rules
from yahtzee_solver.solver.table import checksum, default_table_path, load_table


def assert_clean_error(result, code: int, *needles: str) -> None:
    _assert_clean_error(result, code, *needles, only_line=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A yacht table freshly built by ``yahtzee-solve build`` into an empty folder."""
    folder = tmp_path_factory.mktemp("built")
    out = folder / "yacht.h5"
    result = run("build", "--rules", "yacht", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.fixture
def instant_build(monkeypatch):
    """Replace the DP by the shipped table (for failure paths that must not wait for a build)."""
    calls = []

    def fake(rules, **kwargs):
        calls.append(rules)
        t = load_table(rules)
        return BuildResult(get_rules(rules), np.array(t.values), 0.0, 0.0, int(t.meta["n_states"]))

    monkeypatch.setattr(build_module, "build_values", fake)
    return calls


# -- build ----------------------------------------------------------------------------


def test_build_writes_a_valid_table(built):
    out, output = built
    assert sorted(p.name for p in out.parent.iterdir()) == ["yacht.h5"]  # no temp file left
    table = load_table("yacht", out)  # validates format, rules, shape, checksum
    shipped = load_table("yacht")
    np.testing.assert_allclose(table.values, shipped.values, rtol=0, atol=1e-9, equal_nan=True)
    assert f"wrote {out}" in output
    assert f"{table.empty_value:.10f}" in output
    assert f"{table.meta['n_states']:,} states" in output
    assert "no published optimal value to compare for yacht" in output
    assert "docs/rules.md reference" not in output


def test_info_and_value_on_built_table(built):
    out, _ = built
    table = load_table("yacht", out)
    data = run_json("info", "--rules", "yacht", "--table", str(out))
    assert data["checksum_ok"] is True
    assert data["checksum"] == checksum(table.values)
    assert data["path"] == str(out.resolve())
    assert data["size_bytes"] == out.stat().st_size
    assert data["rules"] == "yacht" and data["empty_value"] == table.empty_value
    assert data["n_states"] == int(table.meta["n_states"])
    assert data["reference_value"] is None and data["reference_match"] is None
    assert run_json("info", "--table", str(out)) == data  # the rule set is read from the file
    text = run("info", "--rules", "yacht", "--table", str(out))
    assert text.exit_code == 0 and "verified" in text.output
    assert "no published optimal value to compare for yacht" in text.output
    value = run_json("value", "--rules", "yacht", "--table", str(out))
    assert value["expected_final"] == table.empty_value
    hint = run_json("hint", "22555", "--rules", "yacht", "--table", str(out))
    assert hint["options"] == [o.to_dict() for o in Advisor("yacht", table, jit=False).keep_options(None, "22555")]


def test_build_shows_progress_bar_on_request(tmp_path, instant_build, monkeypatch):
    seen = {}

    def fake(rules, progress=False, **kwargs):
        seen["progress"] = progress
        t = load_table(rules)
        return BuildResult(get_rules(rules), np.array(t.values), 0.0, 0.0, int(t.meta["n_states"]))

    monkeypatch.setattr(build_module, "build_values", fake)
    assert run("build", "--rules", "yacht", "--out", str(tmp_path / "a.h5")).exit_code == 0
    assert seen["progress"] is True
    assert run("build", "--rules", "yacht", "--out", str(tmp_path / "b.h5"), "--no-progress").exit_code == 0
    assert seen["progress"] is False


def test_build_default_out_is_shipped_path(tmp_path, instant_build, monkeypatch):
    target = tmp_path / "data" / "yacht.h5"
    monkeypatch.setattr("yahtzee_solver.cli.tables.default_table_path", lambda rules: target)
    result = run("build", "--rules", "yacht", "--no-progress")
    assert result.exit_code == 0, result.output
    assert instant_build == [get_rules("yacht")]
    assert load_table("yacht", target).empty_value == load_table("yacht").empty_value


def test_build_into_unwritable_default_fails_fast(tmp_path, instant_build, monkeypatch):
    blocker = tmp_path / "site-packages"
    blocker.write_text("a file where the folder should be")
    target = blocker / "yahtzee_solver" / "data" / "yacht.h5"
    monkeypatch.setattr("yahtzee_solver.cli.tables.default_table_path", lambda rules: target)
    result = run("build", "--rules", "yacht")
    assert_clean_error(result, 1, "cannot write table", str(target), "--out")
    assert instant_build == []  # failed before the DP
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site-packages"]


def test_build_into_unwritable_out(tmp_path, instant_build):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = blocker / "yacht.h5"
    assert_clean_error(run("build", "--rules", "yacht", "--out", str(out)), 1, "cannot write table", str(out))
    assert instant_build == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_build_out_refuses_a_missing_folder_as_plot_does(tmp_path, instant_build):
    """One rule for the files a command writes: the folder must exist, a missing one is never created."""
    assert "the folder must exist" in " ".join(run("build", "-h").output.split())
    out = tmp_path / "a" / "b" / "yacht.h5"
    result = run("build", "--rules", "yacht", "--out", str(out), "--no-progress")
    assert_clean_error(result, 2, "cannot write table", f"folder {str(out.parent)!r} does not exist")
    plot = run("target-curve", "--rules", "yacht", "--max", "10", "--plot", str(tmp_path / "a" / "b" / "c.png"))
    assert plot.exit_code == result.exit_code == 2, plot.output  # the same rule, the same exit code
    assert instant_build == [] and not (tmp_path / "a").exists()
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert run("build", "--rules", "yacht", "--out", str(out), "--no-progress").exit_code == 0
    assert load_table("yacht", out).empty_value == load_table("yacht").empty_value


@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker"])
def test_build_names_the_source_of_the_reference_value(tmp_path, instant_build, rules):
    rs = get_rules(rules)
    result = run("build", "--rules", rules, "--out", str(tmp_path / "t.h5"), "--no-progress")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("empty-card value"))
    assert f"matches the optimal value {rs.reference_value} (" in line  # the docs/rules.md golden
    assert "docs/rules.md" in line and "docs/rules.md reference" not in line
    assert ("Verhoeff 1999" in line) == (rules == "yahtzee-free-joker")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_build_refuses_a_fifo_or_a_device_before_the_work_as_a_usage_error(tmp_path, instant_build):
    """``--out`` naming a fifo or a device exited 1 where a folder exits 2: now a usage error too, one line."""
    with make_fifo(tmp_path / "yacht.h5") as fifo:
        result = run("build", "--rules", "yacht", "--out", str(fifo), "--no-progress")
    _assert_clean_error(result, 2, "cannot write table", repr(str(fifo)), "not a regular file")
    assert instant_build == []  # refused before the DP
    assert [p.name for p in tmp_path.iterdir()] == ["yacht.h5"] and fifo.is_fifo()
    if os.path.exists("/dev/null"):
        _assert_clean_error(run("build", "--rules", "yacht", "--out", "/dev/null", "--no-progress"), 2,
                            "'/dev/null'", "not a regular file")
        assert instant_build == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_build_surfaces_save_table_refusal_as_one_line(tmp_path, instant_build, monkeypatch):
    """A target that turns into a fifo while the DP runs: save_table's own refusal, one line, exit 1."""
    monkeypatch.setattr("yahtzee_solver.cli.tables.check_writable", lambda path, **kwargs: None)
    with make_fifo(tmp_path / "yacht.h5") as fifo:
        result = run("build", "--rules", "yacht", "--out", str(fifo), "--no-progress")
    _assert_clean_error(result, 1, str(fifo), "not a regular file")
    assert instant_build == [get_rules("yacht")]
    assert [p.name for p in tmp_path.iterdir()] == ["yacht.h5"] and fifo.is_fifo()


def test_build_out_is_a_folder(tmp_path, instant_build):
    result = run("build", "--rules", "yacht", "--out", str(tmp_path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert str(tmp_path) in result.output
    assert instant_build == [] and list(tmp_path.iterdir()) == []


def test_build_unknown_rules(instant_build):
    result = run("build", "--rules", "poker")
    assert result.exit_code == 2 and "'poker'" in result.output
    assert instant_build == []


def test_ctrl_c_in_the_build_is_one_line_exit_130_and_writes_nothing(tmp_path, monkeypatch):
    """As the other long commands: no click 'Aborted!', one stderr line, nothing on stdout, no file."""
    def interrupted(rules, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "build_values", interrupted)
    result = run("build", "--rules", "yacht", "--out", str(tmp_path / "yacht.h5"))
    assert result.exit_code == 130, result.output
    assert result.stdout == "" and result.stderr == "Interrupted: the yacht build stopped; nothing written.\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("existing", [False, True], ids=["new", "replaced"])
def test_ctrl_c_held_back_until_the_table_is_written_says_it_was_written(tmp_path, instant_build, monkeypatch,
                                                                         existing):
    """save_table holds Ctrl-C back while it writes and renames, then delivers it: the table is then whole at
    --out, and the line says so (it said "nothing written"), after "wrote PATH"; exit 130 still."""
    out = tmp_path / "yacht.h5"
    if existing:
        shutil.copyfile(default_table_path("yacht"), out)
    real = table_module._write_atomic

    def write_then_ctrl_c(*args):
        real(*args)
        raise KeyboardInterrupt  # as the deferred SIGINT is delivered once the block is done

    monkeypatch.setattr(table_module, "_write_atomic", write_then_ctrl_c)
    result = run("build", "--rules", "yacht", "--out", str(out), "--no-progress")
    assert result.exit_code == 130, result.output
    assert result.stdout == f"wrote {out}\n"
    assert result.stderr == "Interrupted: the yacht build stopped after its table was written whole.\n"
    assert load_table("yacht", out).empty_value == load_table("yacht").empty_value
    assert [p.name for p in tmp_path.iterdir()] == ["yacht.h5"]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError])
def test_failed_overwrite_keeps_old_table_and_leaves_no_temp_file(tmp_path, instant_build, monkeypatch, failure):
    out = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), out)
    before = out.read_bytes()

    saw_temp_file = []

    def boom(values):  # called by save_table while the temp file is being written
        saw_temp_file.append(any(p.name.endswith(".tmp") for p in tmp_path.iterdir()))
        raise failure("disk full")

    load_table("yacht").values  # noqa: B018 -- the fake build's load is done (and cached) before checksum breaks
    monkeypatch.setattr(table_module, "checksum", boom)
    result = run("build", "--rules", "yacht", "--out", str(out), "--no-progress")
    assert saw_temp_file == [True]
    if failure is OSError:
        assert_clean_error(result, 1, "cannot write table", str(out))
    else:
        assert result.exit_code == 130 and "Aborted" not in result.output  # 128 + SIGINT
        assert result.stdout == "" and result.stderr == "Interrupted: the yacht build stopped; nothing written.\n"
    assert [p.name for p in tmp_path.iterdir()] == ["yacht.h5"]
    assert out.read_bytes() == before


# -- info --------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_info_on_shipped_tables(rules):
    rs = get_rules(rules)
    path = default_table_path(rs)
    if not path.exists():
        pytest.skip(f"no shipped table for {rules}")
    table = load_table(rs)
    data = run_json("info", "--rules", rules)
    assert data["checksum_ok"] is True
    assert data["format_version"] == table_module.FORMAT_VERSION
    assert data["package_version"] == table.meta["package_version"]
    assert data["empty_value"] == table.empty_value
    assert data["shape"] == list(table.values.shape)
    assert data["n_states"] == table.meta["n_states"] and data["n_states_ok"] is True
    text = run("info", "--rules", rules).output
    if rs.reference_value is not None:  # docs/rules.md goldens
        assert data["reference_value"] == rs.reference_value
        assert data["reference_match"] is True
        assert "docs/rules.md" in data["reference_source"]
        assert table.empty_value == pytest.approx(rs.reference_value, abs=5e-8)
        assert f"matches the optimal value {rs.reference_value} ({data['reference_source']}; difference" in text
    else:
        assert data["reference_source"] is None
    for needle in (str(path), f"version {table_module.FORMAT_VERSION}", rs.title, f"{table.empty_value:.10f}", "verified"):
        assert needle in text
    assert run_json("info", "--table", str(path)) == data  # the rule set is read from the file


def test_info_reports_checksum_mismatch(tmp_path):
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        f["values"][5, 0, 0] += 0.5
    result = run("info", "--rules", "yacht", "--table", str(p))
    assert "MISMATCH" in result.output
    assert_clean_error(result, 1, "checksum", str(p))
    data = json.loads(run("info", "--rules", "yacht", "--table", str(p), "--json").output.split("\nError:")[0])
    assert data["checksum_ok"] is False


@pytest.mark.parametrize("stored, shown", [("\x1b]0;pwn\x07\n2", "'\\x1b]0;pwn\\x07\\n2'"),
                                           ("9" * 100_000, "'" + "9" * 35 + "...'")])
def test_info_shows_the_tables_package_version_escaped_and_short(tmp_path, stored, shown):
    """The file's own text: a terminal escape went out as it was (it set the window title), a newline split the
    row, and 100,000 characters were printed whole."""
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        f.attrs["package_version"] = stored
    result = run("info", "--rules", "yacht", "--table", str(p))
    assert result.exit_code == 0, result.output
    row = [line for line in result.output.splitlines() if line.startswith("built by")]
    assert row == [f"built by    yahtzee_solver {shown} (running {__version__})"], result.output
    assert "\x1b" not in result.output and len(result.output) < 2000


@pytest.mark.parametrize("stamped", [False, True], ids=["stale-checksum", "checksum-of-the-nans"])
def test_info_on_a_table_of_nans_is_one_line(tmp_path, stamped):
    """Values all NaN: info ends in a one-line error (exit 1), not a traceback ("state (0, 0, 0) cannot occur").

    With the old checksum the file fails it (as hint on the same file says); with a checksum
    stamped over the NaNs, the error says the table holds no value for the empty card."""
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        v = np.full(f["values"].shape, np.nan)
        f["values"][...] = v
        if stamped:  # every checksum the file stores, as a build would write them
            f.attrs["checksum"] = checksum(v)
            f["chunk_sha256"][...] = table_module.chunk_digests(v)
    needle = "no value for the empty card" if stamped else "fails its checksum"
    for args in ((), ("--json",)):
        result = run("info", "--rules", "yacht", "--table", str(p), *args)
        assert_clean_error(result, 1, str(p), needle, "yahtzee-solve build --rules yacht")
    if not stamped:
        assert_clean_error(run("hint", "11111", "--rules", "yacht", "--table", str(p)), 1, "fails its checksum")


def test_info_reference_mismatch_is_flagged(tmp_path):
    # a yahtzee table whose values are off: consistent checksum, wrong empty-card value
    p = tmp_path / "yahtzee.h5"
    shutil.copyfile(default_table_path("yahtzee"), p)
    with h5py.File(p, "r+") as f:
        v = f["values"][...]
        v[0, 0, 0] += 1e-3
        f["values"][...] = v
        f.attrs["checksum"] = checksum(v)
        f["chunk_sha256"][...] = table_module.chunk_digests(v)
    data = run_json("info", "--table", str(p))
    assert data["checksum_ok"] is True and data["reference_match"] is False
    assert "DIFFERS" in run("info", "--table", str(p)).output


@pytest.mark.parametrize(
    "make, needles",
    [
        (lambda p: None, ["not found", "yahtzee-solve build --rules yacht"]),
        (lambda p: p.write_text("not hdf5"), ["cannot read value table"]),
        (lambda p: p.write_bytes(default_table_path("yacht").read_bytes()[:100_000]), ["cannot read value table"]),
        (lambda p: h5py.File(p, "w").close(), ["not a yahtzee_solver value table"]),
        (lambda p: shutil.copyfile(default_table_path("yahtzee"), p), ["'yahtzee'", "'yacht'"]),
        (lambda p: _edited_copy(p, lambda f: f.attrs.__setitem__("format", np.array([1, 2]))),
         ["not a yahtzee_solver value table", "attribute 'format' is an array"]),
        (lambda p: _edited_copy(p, lambda f: f.attrs.__setitem__("checksum", np.array([1, 2]))),
         ["attribute 'checksum' is an array", "rebuild it with"]),
        (lambda p: _edited_copy(p, lambda f: f.attrs.__setitem__("n_states", np.array([1, 2]))),
         ["attribute 'n_states' is an array", "rebuild it with"]),
        (lambda p: _edited_copy(p, _short_digests), ["/chunk_sha256 has shape (63, 32)", "rebuild it with"]),
    ],
    ids=["missing", "not-hdf5", "truncated", "foreign-hdf5", "other-rules", "format-array", "checksum-array",
         "n-states-array", "short-digests"],
)
def test_info_bad_tables(tmp_path, make, needles):
    """One line, exit 1, naming the file: an attribute of the wrong kind was numpy's ValueError or TypeError
    (a traceback), a ``/chunk_sha256`` of another shape was ignored ("verified", exit 0)."""
    p = tmp_path / "t.h5"
    make(p)
    before = sorted(tmp_path.iterdir())
    for args in ((), ("--json",)):
        assert_clean_error(run("info", "--rules", "yacht", "--table", str(p), *args), 1, str(p), *needles)
    assert sorted(tmp_path.iterdir()) == before


def _edited_copy(p: Path, edit) -> None:
    """A copy of the shipped yacht table at ``p``, then ``edit(h5py file)``."""
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        edit(f)


def _short_digests(f) -> None:
    d = f["chunk_sha256"][...]
    del f["chunk_sha256"]
    f.create_dataset("chunk_sha256", data=d[:-1])


@pytest.mark.parametrize("stored", [12, None], ids=["other-count", "missing"])
def test_info_checks_the_stored_count_of_states_against_the_values(tmp_path, stored):
    """``info`` showed the stored ``n_states`` as it was (12 reachable states, exit 0); now it counts the
    values' reachable (not NaN) entries, says MISMATCH, and ends in a one-line error naming the file (exit 1)."""
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    reachable = int(np.count_nonzero(~np.isnan(load_table("yacht", p).values)))
    assert run_json("info", "--table", str(p))["n_states_ok"] is True
    with h5py.File(p, "r+") as f:
        if stored is None:
            del f.attrs["n_states"]
        else:
            f.attrs["n_states"] = stored
    result = run("info", "--table", str(p))
    assert_clean_error(result, 1, repr(str(p)), f"its values hold {reachable:,}", "rebuild it with")
    assert "MISMATCH" in result.output and "verified" in result.output  # the checksums still hold
    assert (f"{stored:,}" if stored is not None else "does not say") in _error_line(result)
    out = run("info", "--table", str(p), "--json")
    data = json.loads(out.output.split("\nError:")[0])
    assert out.exit_code == 1 and data["n_states"] == stored and data["n_states_ok"] is False
    assert data["checksum_ok"] is True


def _suggested_build(message: str) -> list[str]:
    """The ``yahtzee-solve build ...`` command an error line suggests, as arguments (NAME as yacht)."""
    m = re.search(r"yahtzee-solve (build --rules \S+ --out \S+(?: --force)?)", message)
    assert m, message
    return [w if w != "NAME" else "yacht" for w in m.group(1).split()]


@pytest.mark.parametrize("name, make, replaced", [
    ("notes.txt", lambda p: p.write_text("my notes\n"), False),
    ("t.h5", lambda p: p.write_text("not hdf5"), False),
    ("t.h5", lambda p: h5py.File(p, "w").create_dataset("values", data=np.zeros(3)), False),
    ("t.h5", lambda p: p.write_bytes(default_table_path("yacht").read_bytes()[:100_000]), True),
    ("none.h5", lambda p: None, True),
], ids=["text-file", "text-file-named-h5", "foreign-hdf5", "truncated-table", "missing"])
@pytest.mark.parametrize("rules", [["--rules", "yacht"], []], ids=["rules", "no-rules"])
def test_the_build_an_unreadable_table_suggests_is_one_build_accepts(tmp_path, monkeypatch, instant_build, name, make,
                                                                      replaced, rules):
    """A file that is not a table (text, another program's HDF5) is never offered to ``build --out``,
    which would refuse it (or overwrite another program's data); a damaged table or a missing one is."""
    monkeypatch.chdir(tmp_path)  # the path as typed, short: a long one is cut from the one-line error
    p = Path(name)
    make(p)
    before = p.read_bytes() if p.exists() else None
    result = run("info", *rules, "--table", str(p))
    assert result.exit_code == 1, result.output
    command = _suggested_build(result.output)
    target = command[command.index("--out") + 1]
    assert (target == str(p)) == replaced, result.output
    assert ("--force" in command) == (name == "t.h5" and replaced), result.output  # an unreadable file: --force
    built = run(*command, "--no-progress")
    assert built.exit_code == 0, (result.output, built.output)
    if replaced:
        assert load_table("yacht", p).meta["rules"] == "yacht"
    else:
        assert p.read_bytes() == before  # the user's file is left as it was
        assert load_table("yacht", target).meta["rules"] == "yacht"


def test_info_reads_the_rules_from_the_file_and_still_validates(tmp_path):
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    data = run_json("info", "--table", str(p))
    assert data["rules"] == "yacht" and data["checksum_ok"] is True
    with h5py.File(p, "r+") as f:  # a yacht table whose stored definition was tampered with
        f.attrs["rules_json"] = f.attrs["rules_json"].replace('"upper_bonus": 35', '"upper_bonus": 36')
    assert_clean_error(run("info", "--table", str(p)), 1, str(p), "different definition")
    with h5py.File(p, "r+") as f:
        f.attrs["rules"] = "poker"
    assert_clean_error(run("info", "--table", str(p)), 1, str(p), "'poker'", "unknown")


def test_info_bad_tables_without_rules(tmp_path):
    p = tmp_path / "t.h5"
    p.write_text("not hdf5")
    assert_clean_error(run("info", "--table", str(p)), 1, str(p), "cannot read value table")
    assert_clean_error(run("info", "--table", str(tmp_path / "none.h5")), 1, "not found")
    if hasattr(os, "mkfifo"):
        with make_fifo(tmp_path / "fifo.h5") as fifo:
            result = run("info", "--table", str(fifo))
        assert_clean_error(result, 1, str(fifo), "not a regular file")


@pytest.mark.parametrize("command", [["info"], ["hint", "12345"]])
def test_a_table_that_is_a_folder_or_a_device_is_a_file_problem(tmp_path, command):
    """Exit 1 as for every file problem (README), naming the path, whatever command reads the table."""
    folder = tmp_path / "adir"
    folder.mkdir()
    assert_clean_error(run(*command, "--table", str(folder)), 1, f"value table {str(folder)!r} is a folder")
    if os.path.exists("/dev/zero"):
        assert_clean_error(run(*command, "--table", "/dev/zero"), 1, "value table '/dev/zero'", "not a regular file")


@pytest.mark.parametrize("out", ["", " ", "   "])
def test_build_refuses_an_empty_or_blank_out_naming_it(out, tmp_path, monkeypatch):
    """``build --out ''`` was taken for the current folder ("it is a folder", exit 1), and ``--out ' '`` wrote a
    table into a file named by a blank: both are a usage error naming the value, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    res = run("build", "--rules", "yacht", "--out", out)
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    said = "is empty" if not out else f"is {len(out)} blank"  # the error line folds runs of blanks
    assert len(line.splitlines()) == 1 and said in line and "--out" in line, line
    assert list(tmp_path.iterdir()) == []


def test_the_rebuild_command_for_a_missing_table_quotes_its_path(tmp_path, monkeypatch):
    """The command a missing ``--table`` suggests can be pasted: a path with blanks is quoted (it ended in an
    unquoted blank for ``--table ' '``)."""
    import shlex

    monkeypatch.chdir(tmp_path)
    for name in (" ", "my table.h5"):
        res = run("hint", "22555", "--table", name)
        assert res.exit_code == 1, res.output
        suggested = res.output.strip().split("rebuild it with: ", 1)[1]
        assert shlex.split(suggested)[-2:] == ["--out", name], res.output


# -- the rebuild command an error suggests: whole, quoted, plain for the shipped table -------------------
def _error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.output
    return lines[0][len("Error: "):]


def _truncated_copy(path: Path, rules: str = "yacht") -> None:
    path.write_bytes(default_table_path(rules).read_bytes()[:100_000])


@pytest.mark.parametrize("damage", ["truncated", "chunk"])
def test_the_rebuild_command_of_a_long_path_is_never_cut(tmp_path, damage):
    """At a long path (a venv's) the one-line error (at most MAX_ERROR characters of its own words) was cut inside
    the command it suggests; now the quoted reason (h5py's words) gives way and the command can be pasted."""
    import shlex

    from yahtzee_solver.cli import MAX_ERROR, MIN_REASON

    folder = tmp_path / ("v" * 60) / "lib" / "python3.11" / "site-packages" / ("d" * 60)
    folder.mkdir(parents=True)
    p = folder / "p.h5"
    if damage == "truncated":
        _truncated_copy(p)
    else:
        shutil.copyfile(default_table_path("yacht"), p)
        with h5py.File(p, "r+") as f:
            f["chunk_sha256"][0, 0] ^= 1
    assert len(str(p)) * 2 > MAX_ERROR  # named twice: the line cannot keep within the limit
    result = run("value", "--rules", "yacht", "--table", str(p))
    message = _error_line(result)
    assert result.exit_code == 1, result.output
    assert shlex.split(message.split("rebuild it with: ", 1)[1]) == [
        "yahtzee-solve", "build", "--rules", "yacht", "--out", str(p)] + (["--force"] if damage == "truncated" else [])
    assert message.startswith(("cannot read value table " if damage == "truncated" else "value table ")
                              + repr(str(p)))  # the file named whole too
    if damage == "truncated":  # the reason, shortened, still starts as h5py said it
        reason = message.split(repr(str(p)) + " (", 1)[1].split("); rebuild it with", 1)[0]
        assert reason.endswith("...") and MIN_REASON - 1 <= len(reason) <= MIN_REASON  # (a blank at the cut dropped)
    else:
        assert "fails its checksum (corrupt chunk 0); rebuild it with" in message


def test_a_long_reason_alone_is_cut_and_the_command_kept():
    from yahtzee_solver.cli import MAX_ERROR, _fit

    remedy = "rebuild it with: yahtzee-solve build --rules yacht --out t.h5"
    reason = "h5py says " + "x" * 500
    line = _fit(f"cannot read value table 't.h5' ({reason}); {remedy}", remedy, reason)
    assert len(line) == MAX_ERROR and line.endswith(f"x...); {remedy}")
    # without a remedy, or a remedy no path can be, the usual cut
    assert _fit("y" * 1000) == "y" * (MAX_ERROR - 3) + "..."
    huge = "rebuild it with: yahtzee-solve build --rules yacht --out " + "z" * 100_000
    assert len(_fit(f"value table 'z' not found; {huge}", huge)) == MAX_ERROR


def test_the_shipped_table_is_rebuilt_by_the_plain_command(tmp_path, monkeypatch):
    """For the package's own table the error suggests ``build --rules NAME`` (it writes the shipped table, as the
    README says), not ``--out <the site-packages path>``; and that command rebuilds it."""
    shipped = tmp_path / "site-packages" / "yahtzee_solver" / "data" / "yacht.h5"
    shipped.parent.mkdir(parents=True)
    source = load_table("yacht")  # the fake build's values: the real shipped table's, read before the patch
    monkeypatch.setattr(table_module, "default_table_path", lambda rules: shipped)
    monkeypatch.setattr("yahtzee_solver.cli.tables.default_table_path", lambda rules: shipped)
    monkeypatch.setattr(build_module, "build_values", lambda rules, **kw: BuildResult(
        get_rules(rules), np.array(source.values), 0.0, 0.0, int(source.meta["n_states"])))
    _truncated_copy(shipped)
    for args in (("value", "--rules", "yacht"), ("info", "--rules", "yacht"),
                 ("value", "--rules", "yacht", "--table", str(shipped))):
        result = run(*args)
        assert result.exit_code == 1, result.output
        assert _error_line(result).endswith("; rebuild it with: yahtzee-solve build --rules yacht"), result.output
    command = _error_line(result).split("rebuild it with: yahtzee-solve ", 1)[1].split()
    assert run(*command, "--no-progress").exit_code == 0
    assert run("value", "--rules", "yacht").exit_code == 0
    # another file of the same name elsewhere still gets --out (and --force: nothing says whose it is)
    other = tmp_path / "yacht.h5"
    _truncated_copy(other)
    assert _error_line(run("value", "--rules", "yacht", "--table", str(other))).endswith(f"--out {other} --force")


# -- info runs the loaders' checks ------------------------------------------------------------------
def test_info_refuses_a_table_whose_chunk_digests_are_damaged_as_the_queries_do(tmp_path):
    """A damaged ``/chunk_sha256`` row: ``value`` refused the file ("corrupt chunk 0"), ``info`` said "verified",
    exit 0.  Now info says MISMATCH and ends in the loaders' own error line, with their exit code."""
    p = tmp_path / "yacht.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        f["chunk_sha256"][0, 0] ^= 1
    refused = run("value", "--table", str(p))
    assert refused.exit_code == 1 and "corrupt chunk 0" in refused.output, refused.output
    result = run("info", "--table", str(p))
    assert result.exit_code == refused.exit_code, result.output
    assert "verified" not in result.output and "MISMATCH" in result.output
    assert _error_line(result) == _error_line(refused)
    out = run("info", "--table", str(p), "--json")
    assert out.exit_code == 1 and json.loads(out.output.split("\nError:")[0])["checksum_ok"] is False
    with pytest.raises(table_module.TableError, match="corrupt chunk 0"):
        load_table("yacht", p, verify=False).verify()
    load_table("yacht", default_table_path("yacht")).verify()  # a sound table passes


@pytest.mark.parametrize("nans", [False, True], ids=["checksum", "no-empty-value"])
def test_info_quotes_the_path_of_the_rebuild_command(tmp_path, monkeypatch, nans):
    """info's own rebuild hint ended in the bare path ("--out my table.h5"): now quoted, as every loader's."""
    import shlex

    monkeypatch.chdir(tmp_path)
    p = Path("my table.h5")
    shutil.copyfile(default_table_path("yacht"), p)
    with h5py.File(p, "r+") as f:
        v = f["values"][...]
        if nans:  # every checksum consistent: the file holds no value for the empty card
            v[...] = np.nan
            f["values"][...] = v
            f.attrs["checksum"] = checksum(v)
            f["chunk_sha256"][...] = table_module.chunk_digests(v)
        else:
            f["values"][5, 0, 0] += 0.5
    result = run("info", "--table", str(p))
    assert result.exit_code == 1, result.output
    message = _error_line(result)
    assert ("no value for the empty card" if nans else "fails its checksum") in message
    assert shlex.split(message.split("rebuild it with: ", 1)[1])[-2:] == ["--out", str(p)]


# -- build --out: what it may replace, decided before the work ---------------------------------------
def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_build_refuses_to_replace_a_table_of_another_rule_set_without_force(tmp_path, instant_build):
    """``build --rules yacht --out good.h5`` silently replaced a valid yahtzee table: now a usage error before
    the work (nothing written); --force replaces it, atomically as ever."""
    good = tmp_path / "good.h5"
    shutil.copyfile(default_table_path("yahtzee"), good)
    before = _files(tmp_path)
    result = run("build", "--rules", "yacht", "--out", str(good), "--no-progress")
    assert_clean_error(result, 2, repr(str(good)), "'yahtzee'", "'yacht'", "--force")
    assert instant_build == [] and _files(tmp_path) == before  # refused before the DP, nothing written
    result = run("build", "--rules", "yacht", "--out", str(good), "--force", "--no-progress")
    assert result.exit_code == 0, result.output
    assert load_table("yacht", good).meta["rules"] == "yacht" and [p.name for p in tmp_path.iterdir()] == ["good.h5"]
    # a table of the same rule set, or a damaged one, is replaced without --force (as the rebuild hints say)
    assert run("build", "--rules", "yacht", "--out", str(good), "--no-progress").exit_code == 0
    with h5py.File(good, "r+") as f:
        f["values"][5, 0, 0] += 0.5
    assert run("build", "--rules", "yacht", "--out", str(good), "--no-progress").exit_code == 0
    assert load_table("yacht", good).meta["rules"] == "yacht"
    # a truncated one cannot be told from another program's HDF5 file: only with --force (its hint says so)
    _truncated_copy(good)
    assert run("build", "--rules", "yacht", "--out", str(good), "--no-progress").exit_code == 2
    assert run("build", "--rules", "yacht", "--out", str(good), "--force", "--no-progress").exit_code == 0
    assert load_table("yacht", good).meta["rules"] == "yacht"


@pytest.mark.parametrize("make, needle", [
    (lambda p: p.write_text("my notes\n"), "not an HDF5 value table"),
    (lambda p: h5py.File(p, "w").create_dataset("values", data=np.zeros(3)), "not a yahtzee_solver value table"),
    (lambda p: _edited_copy(p, lambda f: f.attrs.__setitem__("format", np.array([1, 2]))),
     "not a yahtzee_solver value table"),  # numpy's ValueError, a traceback
], ids=["text-file", "foreign-hdf5", "format-array"])
@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
def test_build_refuses_a_file_that_is_not_a_table_before_the_work(tmp_path, instant_build, make, needle, force):
    """It was refused only after the whole build had run (exit 1); now at once, exit 2, nothing written,
    --force or not (it is no table to replace)."""
    p = tmp_path / "t.h5"
    make(p)
    before = _files(tmp_path)
    result = run("build", "--rules", "yacht", "--out", str(p), *force, "--no-progress")
    assert_clean_error(result, 2, repr(str(p)), needle)
    assert instant_build == [] and _files(tmp_path) == before


def test_save_table_keeps_the_same_rule(tmp_path):
    """The library's writer refuses what build refuses (a file that changed while the DP ran)."""
    other = tmp_path / "other.h5"
    shutil.copyfile(default_table_path("yahtzee"), other)
    yacht = load_table("yacht")
    with pytest.raises(table_module.TableError, match="holds the value table of rules 'yahtzee'"):
        table_module.save_table(table_module.ValueTable(yacht.rules, np.array(yacht.values)), other)
    assert load_table("yahtzee", other).meta["rules"] == "yahtzee"
    table_module.save_table(table_module.ValueTable(yacht.rules, np.array(yacht.values)), other, force=True)
    assert load_table("yacht", other).meta["rules"] == "yacht"


def test_build_help_documents_force():
    text = " ".join(run("build", "--help").output.split())
    assert "--force" in text and "another rule set" in text


def _truncated_foreign(p: Path) -> None:
    with h5py.File(p, "w") as f:
        f.create_dataset("measurements", data=np.arange(50_000.0), chunks=True, compression="gzip")
    p.write_bytes(p.read_bytes()[:4000])


@pytest.mark.parametrize("make", [_truncated_copy, _truncated_foreign], ids=["truncated-table", "truncated-foreign"])
def test_build_replaces_an_hdf5_file_that_cannot_be_read_only_with_force(tmp_path, instant_build, make):
    """``build --out`` silently replaced a truncated HDF5 file, which nothing says is a table (another program's
    data, perhaps): now a usage error before the work naming the file and --force; --force replaces it."""
    p = tmp_path / "data.h5"
    make(p)
    before = _files(tmp_path)
    result = run("build", "--rules", "yacht", "--out", str(p), "--no-progress")
    assert_clean_error(result, 2, repr(str(p)), "cannot be read", "--force")
    assert instant_build == [] and _files(tmp_path) == before
    result = run("build", "--rules", "yacht", "--out", str(p), "--force", "--no-progress")
    assert result.exit_code == 0, result.output
    assert load_table("yacht", p).meta["rules"] == "yacht" and [q.name for q in tmp_path.iterdir()] == ["data.h5"]
