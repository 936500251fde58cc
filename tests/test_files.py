"""Safe file access (yahtzee_solver.files): the regular-file check, atomic writes, bounded reads, set-aside."""

from __future__ import annotations

import os
import sys

import pytest

from yahtzee_solver.errors import DataFileError
from yahtzee_solver.files import (
    HOME_ENV,
    FileTooLargeError,
    UnusableFileError,
    data_dir,
    file_kind,
    read_bounded,
    read_json,
    set_aside,
    write_atomic,
    write_json_atomic,
)
from yahtzee_solver.state import parse_card


def test_file_kind(tmp_path):
    (tmp_path / "f").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    assert file_kind(tmp_path / "f") == "file"
    assert file_kind(tmp_path) == "folder"
    assert file_kind(tmp_path / "fifo") == "special"
    assert file_kind(tmp_path / "nope") == "missing"
    assert file_kind(tmp_path / "f" / "below") == "missing"
    assert file_kind(os.stat(tmp_path / "f")) == "file"


def test_write_atomic_bytes_text_and_callback(tmp_path):
    p = tmp_path / "sub" / "a.bin"
    write_atomic(p, b"\x00\x01")
    assert p.read_bytes() == b"\x00\x01"
    write_atomic(p, "é")
    assert p.read_bytes() == "é".encode()
    write_atomic(p, lambda tmp: tmp.write_bytes(b"cb"))
    assert p.read_bytes() == b"cb"
    assert sorted(x.name for x in p.parent.iterdir()) == ["a.bin"]


@pytest.mark.parametrize("exc", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_failed_writer_leaves_the_old_file_and_no_temp_file(tmp_path, exc):
    p = tmp_path / "a.json"
    write_json_atomic(p, {"old": 1})

    def boom(tmp):
        tmp.write_text("half")
        raise exc

    expected = DataFileError if isinstance(exc, OSError) else KeyboardInterrupt
    with pytest.raises(expected):
        write_atomic(p, boom)
    assert read_json(p) == {"old": 1}
    assert [x.name for x in tmp_path.iterdir()] == ["a.json"]


def test_error_factory_names_the_reason(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(RuntimeError, match="cannot put it there"):
        write_atomic(tmp_path / "file" / "x", b"", error=lambda reason: RuntimeError(f"cannot put it there: {reason}"))


def test_read_bounded_refuses_large_and_special_files(tmp_path):
    p = tmp_path / "big"
    p.write_bytes(b"x" * 11)
    assert read_bounded(p, 11) == b"x" * 11
    with pytest.raises(FileTooLargeError):
        read_bounded(p, 10)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(UnusableFileError, match="not a regular file"):
        read_bounded(tmp_path / "fifo")
    with pytest.raises(IsADirectoryError):
        read_bounded(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "nope")


def test_read_json_refuses_a_name_given_twice_at_any_depth(tmp_path):
    """JSON leaves open which of two members of one name counts: a data file that repeats one is corrupt."""
    from yahtzee_solver.files import RepeatedKeyError

    p = tmp_path / "a.json"
    p.write_text('{"a": {"b": [1, {"c": 1, "d": 2}]}, "e": 1}')
    assert read_json(p) == {"a": {"b": [1, {"c": 1, "d": 2}]}, "e": 1}
    for text, key in (('{"a": 1, "a": 2}', "'a'"), ('{"a": [{"c": 1, "c": 1}]}', "'c'")):
        p.write_text(text)
        with pytest.raises(RepeatedKeyError, match=f"the key {key} is given twice"):
            read_json(p)


def test_card_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "card.json")
    with pytest.raises(DataFileError, match="not a regular file"):
        parse_card(f"@{tmp_path / 'card.json'}")


def test_set_aside_never_overwrites(tmp_path):
    a = tmp_path / "x.json"
    names = set()
    for _ in range(3):
        a.write_text("bad")
        names.add(set_aside(a).name)
    assert len(names) == 3 and not a.exists()


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG folders are for Linux and the BSDs")
@pytest.mark.parametrize("xdg", ["", "  ", "relative/dir"])
def test_empty_or_relative_xdg_config_home_counts_as_unset(tmp_path, monkeypatch, xdg):
    monkeypatch.delenv(HOME_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    monkeypatch.chdir(tmp_path)
    assert data_dir() == tmp_path / ".config" / "yahtzee-solver"
    assert data_dir().is_absolute()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert data_dir() == tmp_path / "cfg" / "yahtzee-solver"
