"""HDF5 value tables: round trip, atomic write, and one test per load error."""

from __future__ import annotations

import json
import os
import shutil

import h5py
import numpy as np
import pytest

from yahtzee_solver.solver import table as table_mod
from yahtzee_solver.errors import ScoreCardError, TableError
from yahtzee_solver.rules import get_rules
from yahtzee_solver.solver.table import FORMAT_VERSION, ValueTable, checksum, load_table, save_table


@pytest.fixture
def yacht_file(fresh_table, tmp_path):
    """A valid yacht table written to a fresh file."""
    return save_table(fresh_table("yacht"), tmp_path / "yacht.h5")


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _assert_clear(err: TableError, *fragments):
    msg = str(err)
    assert "\n" not in msg and "Traceback" not in msg
    assert not msg[0].isupper()
    for f in fragments:
        assert f in msg, (f, msg)


# -- round trip ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["yacht", "yahtzee"])
def test_save_load_round_trip(name, fresh_table, built, tmp_path):
    t = fresh_table(name)
    path = save_table(t, tmp_path / "sub" / f"{name}.h5", n_states=built(name).n_states)
    assert path.exists() and _leftovers(path.parent) == []
    loaded = load_table(name, path)
    assert loaded.rules == t.rules and loaded.path == path
    assert np.array_equal(loaded.values, t.values, equal_nan=True)
    assert not loaded.values.flags.writeable
    m = loaded.meta
    assert m["format"] == table_mod.FORMAT and m["format_version"] == FORMAT_VERSION
    assert m["rules"] == name and json.loads(m["rules_json"]) == json.loads(t.rules.to_json())
    assert m["empty_value"] == t.values[0, 0, 0]
    assert m["n_states"] == built(name).n_states == int(np.count_nonzero(~np.isnan(t.values)))
    assert m["checksum"] == checksum(t.values)
    assert loaded.empty_value == t.empty_value


def test_load_is_cached_until_the_file_changes(yacht_file, fresh_table):
    a = load_table("yacht", yacht_file)
    assert load_table("yacht", yacht_file) is a
    save_table(fresh_table("yacht"), yacht_file)  # rewritten: new mtime
    os.utime(yacht_file, ns=(1, 1))
    assert load_table("yacht", yacht_file) is not a


def test_checksum_depends_on_every_value():
    v = np.zeros((4, 2, 1))
    w = v.copy()
    w[3, 1, 0] = 1e-300
    assert checksum(v) != checksum(w)
    assert checksum(v).startswith("sha256:") and len(checksum(v)) == 7 + 64


# -- atomic write -------------------------------------------------------------------
def test_failed_write_leaves_the_old_file_and_no_temp(fresh_table, yacht_file, monkeypatch):
    before = yacht_file.read_bytes()

    def broken(values):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(table_mod, "checksum", broken)
    with pytest.raises(TableError) as info:
        save_table(fresh_table("yacht"), yacht_file)
    _assert_clear(info.value, "cannot write table", str(yacht_file))
    assert yacht_file.read_bytes() == before
    assert _leftovers(yacht_file.parent) == []


def test_interrupted_write_leaves_no_temp(fresh_table, tmp_path, monkeypatch):
    def interrupted(values):
        raise KeyboardInterrupt

    monkeypatch.setattr(table_mod, "checksum", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_table(fresh_table("yacht"), tmp_path / "t.h5")
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder(fresh_table, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    with pytest.raises(TableError) as info:
        save_table(fresh_table("yacht"), blocker / "t.h5")
    _assert_clear(info.value, "cannot write table")


def test_written_file_is_readable_by_others(yacht_file):
    umask = os.umask(0)
    os.umask(umask)
    assert yacht_file.stat().st_mode & 0o777 == 0o666 & ~umask


# -- load errors ---------------------------------------------------------------------
def test_missing_file(tmp_path):
    p = tmp_path / "nope.h5"
    with pytest.raises(TableError) as info:
        load_table("yahtzee", p)
    _assert_clear(info.value, "not found", str(p), "yahtzee-solve build --rules yahtzee")
    assert isinstance(info.value, OSError)


def test_truncated_file(yacht_file):
    data = yacht_file.read_bytes()
    yacht_file.write_bytes(data[: len(data) // 2])
    with pytest.raises(TableError) as info:
        load_table("yacht", yacht_file)
    _assert_clear(info.value, "cannot read value table", str(yacht_file), "rebuild")


def test_not_an_hdf5_file(tmp_path):
    p = tmp_path / "card.h5"
    p.write_text('{"sixes": 18}\n')
    with pytest.raises(TableError) as info:
        load_table("yahtzee", p)
    _assert_clear(info.value, "cannot read value table", str(p))


def test_hdf5_without_our_schema(tmp_path):
    p = tmp_path / "other.h5"
    with h5py.File(p, "w") as f:
        f.create_dataset("data", data=np.arange(10))
    with pytest.raises(TableError) as info:
        load_table("yahtzee", p)
    _assert_clear(info.value, "is not a yahtzee_solver value table", str(p))


def test_format_attribute_without_values(tmp_path):
    p = tmp_path / "empty.h5"
    with h5py.File(p, "w") as f:
        f.attrs["format"] = table_mod.FORMAT
    with pytest.raises(TableError, match="is not a yahtzee_solver value table"):
        load_table("yahtzee", p)


def test_wrong_rules(yacht_file):
    with pytest.raises(TableError) as info:
        load_table("yahtzee", yacht_file)
    _assert_clear(info.value, "holds rules 'yacht', not 'yahtzee'", "--rules yahtzee")


def test_same_name_other_definition(yacht_file):
    with h5py.File(yacht_file, "r+") as f:
        d = json.loads(f.attrs["rules_json"])
        d["upper_bonus"] = 50
        f.attrs["rules_json"] = json.dumps(d)
    with pytest.raises(TableError) as info:
        load_table("yacht", yacht_file)
    _assert_clear(info.value, "different definition of rules 'yacht'")


def test_wrong_format_version(yacht_file):
    with h5py.File(yacht_file, "r+") as f:
        f.attrs["format_version"] = FORMAT_VERSION + 1
    with pytest.raises(TableError) as info:
        load_table("yacht", yacht_file)
    _assert_clear(info.value, f"format version {FORMAT_VERSION + 1}", f"reads {FORMAT_VERSION}")


def test_wrong_shape(tmp_path, fresh_table):
    p = save_table(fresh_table("yacht"), tmp_path / "t.h5")
    with h5py.File(p, "r+") as f:
        del f["values"]
        f.create_dataset("values", data=np.zeros((4, 64, 1)))
    with pytest.raises(TableError) as info:
        load_table("yacht", p)
    _assert_clear(info.value, "shape (4, 64, 1)")


def test_flipped_value_fails_the_checksum(yacht_file):
    with h5py.File(yacht_file, "r+") as f:
        v = f["values"][1, 3, 0]  # Ones = 3: a reachable state
        f["values"][1, 3, 0] = v + 1e-9  # rewritten chunk: Fletcher-32 stays valid
    with pytest.raises(TableError) as info:
        load_table("yacht", yacht_file)
    _assert_clear(info.value, "fails its checksum", str(yacht_file), "rebuild")
    # verify=False skips only the SHA-256 (and then sees the changed value)
    t = load_table("yacht", yacht_file, verify=False)
    assert t.values[1, 3, 0] == v + 1e-9


def test_flipped_byte_in_a_stored_chunk(yacht_file):
    with h5py.File(yacht_file, "r") as f:
        info = f["values"].id.get_chunk_info(0)
    data = bytearray(yacht_file.read_bytes())
    data[info.byte_offset + info.size // 2] ^= 0xFF
    yacht_file.write_bytes(bytes(data))
    with pytest.raises(TableError) as err:
        load_table("yacht", yacht_file, verify=False)
    _assert_clear(err.value, "cannot read value table", str(yacht_file))


def test_unknown_rules_name():
    from yahtzee_solver.errors import RuleSetError

    with pytest.raises(RuleSetError):
        load_table("poker")


# -- ValueTable ------------------------------------------------------------------------
def test_value_table_checks_shape():
    with pytest.raises(TableError, match="does not fit rules 'yacht'"):
        ValueTable(get_rules("yacht"), np.zeros((1 << 13, 64, 2)))
    with pytest.raises(TableError, match="float64"):
        ValueTable(get_rules("yacht"), np.zeros((1 << 12, 64, 1), dtype=np.float32))


def test_value_lookup(fresh_table):
    """A state out of range or unreachable is a ScoreCardError (the project's, and a ValueError as before)."""
    t = fresh_table("yahtzee")
    assert t.value(0, 0, 0) == t.empty_value == t.values[0, 0, 0]
    for state, match in (((1 << 13, 0, 0), "out of range"), ((0, 64, 0), "out of range"), ((-1, 0, 0), "out of range"),
                         ((0, 5, 0), "cannot occur"),  # no upper box filled, subtotal 5
                         ((0, 0, 1), "cannot occur")):  # bonus flag without a filled Yahtzee box
        with pytest.raises(ScoreCardError, match=match) as info:
            t.value(*state)
        assert isinstance(info.value, ValueError) and f"({state[0]}, {state[1]}, {state[2]})" in str(info.value)
    for bad in ((0.5, 0, 0), (0, None, 0), (True, 0, 0)):
        with pytest.raises(ScoreCardError, match="integers"):
            t.value(*bad)


def test_rows_of_a_mask_that_is_no_mask_are_a_score_card_error(tmp_path):
    import shutil

    p = tmp_path / "yacht.h5"
    shutil.copyfile(table_mod.default_table_path("yacht"), p)
    opened = table_mod.open_table("yacht", p)  # read on demand: the rows of a mask are looked up
    assert not opened.is_loaded
    for filled in (-1, 1 << 12):
        for f in (opened.values_for, opened.values_from):
            with pytest.raises(ScoreCardError, match=str(filled)):
                f(filled)


def test_refuses_a_target_that_is_not_a_regular_file(fresh_table, tmp_path):
    fifo = tmp_path / "pipe.h5"
    os.mkfifo(fifo)
    with pytest.raises(TableError, match="not a regular file"):
        save_table(fresh_table("yacht"), fifo)
    assert fifo.is_fifo()
    assert _leftovers(tmp_path) == []
    with pytest.raises(TableError, match="not a regular file"):
        save_table(fresh_table("yacht"), tmp_path)


def test_signals_are_deferred_while_the_file_is_written(fresh_table, tmp_path, monkeypatch):
    """A SIGTERM that arrives mid-write is delivered only once the file is complete and renamed."""
    import signal

    events = []
    real = table_mod._write_atomic

    def write_then_signal(table, v, path, n_states):
        signal.raise_signal(signal.SIGTERM)  # arrives in the middle of the write
        events.append("signalled")
        real(table, v, path, n_states)
        events.append("written")

    def on_term(signum, frame):
        events.append(("delivered", path.exists(), _leftovers(tmp_path)))

    path = tmp_path / "t.h5"
    monkeypatch.setattr(table_mod, "_write_atomic", write_then_signal)
    old = signal.signal(signal.SIGTERM, on_term)
    try:
        save_table(fresh_table("yacht"), path)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert events == ["signalled", "written", ("delivered", True, [])]
    assert signal.getsignal(signal.SIGTERM) is old


def test_refuses_to_overwrite_a_file_that_is_not_hdf5(fresh_table, tmp_path):
    precious = tmp_path / "important.json"
    precious.write_text('{"sixes": 18}')
    with pytest.raises(TableError) as info:
        save_table(fresh_table("yacht"), precious)
    _assert_clear(info.value, "refusing to overwrite", "not an HDF5 value table")
    assert precious.read_text() == '{"sixes": 18}'
    damaged = tmp_path / "old.h5"
    damaged.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 64)  # a truncated table, or another program's file
    with pytest.raises(TableError, match="replace it with --force"):
        save_table(fresh_table("yacht"), damaged)
    save_table(fresh_table("yacht"), damaged, force=True)
    assert load_table("yacht", damaged).rules.name == "yacht"


def test_default_path_falls_back_to_the_checkout_data_folder(monkeypatch):
    """From a source checkout that shadows an installed copy, data/ is found beside the package."""

    def missing(name):
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(table_mod, "_installed_data_folder", lambda: missing("yahtzee_solver.data"))
    path = table_mod.default_table_path("yahtzee")
    assert path == table_mod.Path(table_mod.__file__).resolve().parent.parent / "data" / "yahtzee.h5"


def test_load_refuses_what_is_not_a_regular_file(tmp_path):
    """A fifo would block h5py forever; a folder or device is no table either."""
    fifo = tmp_path / "pipe.h5"
    os.mkfifo(fifo)
    for p in (fifo, tmp_path):
        with pytest.raises(TableError) as info:
            load_table("yacht", p)
        _assert_clear(info.value, "is not a regular file", "yahtzee-solve build")


# -- open_table: values read as queries need them, each chunk checked -------------------------
def test_open_table_reads_only_the_chunks_a_turn_needs(yacht_file, fresh_table):
    from yahtzee_solver.solver.table import open_table

    t = open_table("yacht", yacht_file)
    assert not t.is_loaded and t.rules.name == "yacht"
    full = fresh_table("yacht").values
    mask = 0b000000100101
    V = t.values_for(mask)
    rows = [mask] + [mask | (1 << c) for c in range(12) if not (mask >> c) & 1]
    assert np.array_equal(V[rows], full[rows], equal_nan=True)
    read = np.flatnonzero(t._reader.loaded)
    assert set(read) == {r // 64 for r in rows} and len(read) < len(t._reader.loaded) // 4
    assert not V[np.setdiff1d(np.arange(1 << 12), np.arange(0, 1 << 12).reshape(-1, 64)[read].ravel())].any()
    assert t.value(0, 0, 0) == t.empty_value == full[0, 0, 0]
    assert not t.is_loaded
    assert np.array_equal(t.values, full, equal_nan=True) and t.is_loaded  # the whole table on demand


def test_values_from_reads_the_chunks_of_every_reachable_state(yacht_file, fresh_table):
    """A card's whole rest of the game: every mask holding its boxes, and only their chunks."""
    from yahtzee_solver.solver.table import open_table

    t = open_table("yacht", yacht_file)
    full = fresh_table("yacht").values
    filled = 0b010111000001  # two of the boxes 6.. open (chunks are 64 masks): 4 of the 64 chunks
    V = t.values_from(filled)
    assert not V.flags.writeable and not t.is_loaded
    masks = np.arange(1 << 12)
    supers = masks[(masks & filled) == filled]
    assert np.array_equal(V[supers], full[supers], equal_nan=True)
    read = set(np.flatnonzero(t._reader.loaded).tolist())
    assert read == {m // 64 for m in supers.tolist()} and len(read) == 4
    others = np.setdiff1d(masks, np.arange(1 << 12).reshape(-1, 64)[sorted(read)].ravel())
    assert not V[others].any()
    with pytest.raises(ValueError, match="out of range"):
        t.values_from(1 << 12)
    assert load_table("yacht", yacht_file).values_from(filled) is load_table("yacht", yacht_file).values


def test_values_from_detects_an_edited_chunk_of_a_later_state(yacht_file):
    """The edit is in a state the card reaches only near the end of the game: found before any value is used."""
    from yahtzee_solver.solver.table import open_table

    filled = 0b010111000001
    with h5py.File(yacht_file, "r+") as f:
        f["values"][filled | 0b101000000000, 0, 0] += 1.0  # two boxes later: chunk 63
    t = open_table("yacht", yacht_file)
    t.values_for(filled)  # the next turn's states are intact
    with pytest.raises(TableError) as info:
        t.values_from(filled)
    _assert_clear(info.value, "fails its checksum", "chunk 63", str(yacht_file))


def test_open_table_detects_an_edited_chunk_before_using_it(yacht_file):
    from yahtzee_solver.solver.table import open_table

    with h5py.File(yacht_file, "r+") as f:
        f["values"][1 << 11, 0, 0] += 1.0  # rewritten chunk: its Fletcher-32 is valid, its SHA-256 not
    t = open_table("yacht", yacht_file)
    assert t.value((1 << 11) | (1 << 7), 0, 0) > 0  # reads chunks 34, 35, 38, 42, 50: intact
    with pytest.raises(TableError) as info:
        t.values_for(0)  # needs mask 1 << 11: chunk 32
    _assert_clear(info.value, "fails its checksum", "chunk 32", str(yacht_file), "rebuild")
    with pytest.raises(TableError, match="fails its checksum"):
        _ = t.values  # the whole-table SHA-256 as well


def test_open_table_detects_a_flipped_stored_byte(yacht_file):
    from yahtzee_solver.solver.table import open_table

    with h5py.File(yacht_file, "r") as f:
        info = f["values"].id.get_chunk_info(5)
    data = bytearray(yacht_file.read_bytes())
    data[info.byte_offset + info.size // 2] ^= 0xFF
    yacht_file.write_bytes(bytes(data))
    t = open_table("yacht", yacht_file)
    with pytest.raises(TableError) as err:
        t.values_for(5 * 64)
    _assert_clear(err.value, "cannot read value table", str(yacht_file))


def test_open_table_on_a_truncated_file(yacht_file):
    from yahtzee_solver.solver.table import open_table

    data = yacht_file.read_bytes()
    yacht_file.write_bytes(data[: len(data) * 3 // 4])
    with pytest.raises(TableError) as err:
        open_table("yacht", yacht_file).values_for(0)
    _assert_clear(err.value, "cannot read value table", str(yacht_file))


def test_open_table_without_chunk_digests_loads_and_hashes_the_whole_table(yacht_file, fresh_table):
    from yahtzee_solver.solver.table import open_table

    with h5py.File(yacht_file, "r+") as f:
        del f["chunk_sha256"]
    t = open_table("yacht", yacht_file)
    assert t.is_loaded and np.array_equal(t.values, fresh_table("yacht").values, equal_nan=True)
    with h5py.File(yacht_file, "r+") as f:
        f["values"][0, 0, 0] += 1.0
    with pytest.raises(TableError, match="fails its checksum"):
        open_table("yacht", yacht_file)


def test_a_whole_load_refuses_a_file_whose_chunk_digests_the_lazy_open_refuses(yacht_file):
    """A damaged ``/chunk_sha256`` row (the values themselves intact): the queries' lazy open refused the
    file while load_table (the game, the build, the batch API) took it; now both refuse it alike."""
    from yahtzee_solver.solver.table import open_table

    with h5py.File(yacht_file, "r+") as f:
        f["chunk_sha256"][0, 5] ^= 1
    with pytest.raises(TableError, match="corrupt chunk 0") as lazy:
        open_table("yacht", yacht_file).values_for(0)
    with pytest.raises(TableError, match="corrupt chunk 0") as whole:
        load_table("yacht", yacht_file)
    assert str(whole.value) == str(lazy.value)
    assert load_table("yacht", yacht_file, verify=False).values.shape == (1 << 12, 64, 1)  # asked not to check


def test_chunk_digests_cover_every_chunk(yacht_file, fresh_table):
    from yahtzee_solver.solver.table import chunk_digests

    with h5py.File(yacht_file, "r") as f:
        stored = f["chunk_sha256"][...]
        assert f["values"].chunks == (64, 64, 1)
    assert stored.shape == ((1 << 12) // 64, 32)
    assert np.array_equal(stored, chunk_digests(fresh_table("yacht").values))


def test_load_table_reports_the_rule_set_of_a_file(yacht_file):
    from yahtzee_solver.solver.table import open_table

    assert load_table(None, yacht_file).rules.name == "yacht"
    assert open_table(None, yacht_file).rules.name == "yacht"
    with h5py.File(yacht_file, "r+") as f:
        f.attrs["rules"] = "poker"
    with pytest.raises(TableError) as info:
        load_table(None, yacht_file)
    _assert_clear(info.value, "holds rules 'poker', unknown to this version")
    # no rules and no path: the default table (test_no_rules_and_no_path_is_the_default_table)


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_shipped_tables_open_chunk_by_chunk(name):
    from yahtzee_solver.solver.table import default_table_path, open_table

    table_mod._TABLE_CACHE.clear()  # a whole table loaded earlier would be returned as it is
    t = open_table(name, default_table_path(name))
    assert not t.is_loaded
    assert abs(t.empty_value - get_rules(name).reference_value) < 5e-8
    assert not t.is_loaded


@pytest.mark.parametrize("name", ["yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy"])
def test_queries_on_an_opened_table_equal_queries_on_the_whole_table(name):
    """The turn reads only the rows values_for loads: every option value is the same as on the
    whole table (a row it did not load would read 0 and change the answers)."""
    import random

    from yahtzee_solver.strategy.advisor import Advisor
    from yahtzee_solver.dice import ROLLS
    from yahtzee_solver.solver.table import default_table_path, open_table

    whole = Advisor(name, load_table(name), jit=False)
    rules = whole.rules
    rng = random.Random(f"open-{name}")
    table_mod._TABLE_CACHE.clear()
    for _ in range(3):
        opened = Advisor(name, open_table(name, default_table_path(name)), jit=False)
        assert not opened.table.is_loaded
        filled = rng.randrange(rules.full_mask)
        card = None
        boxes = [min(p) if (filled >> c) & 1 else None for c, p in enumerate(rules.possible_points)]
        from yahtzee_solver.state import ScoreCard

        card = ScoreCard(rules, tuple(boxes))
        roll = ROLLS[rng.randrange(252)]
        for rl in (2, 1, 0):
            assert opened.hint(card, roll, rl) == whole.hint(card, roll, rl)
        assert opened.expected_final(card) == whole.expected_final(card)
        assert not opened.table.is_loaded
        table_mod._TABLE_CACHE.clear()


def test_demand_zeros_is_a_fresh_writable_zero_array():
    from yahtzee_solver.solver.table import demand_zeros

    a = demand_zeros((1 << 13, 64, 2))
    b = demand_zeros((1 << 13, 64, 2), np.int64)
    assert a.shape == b.shape == (1 << 13, 64, 2) and a.dtype == np.float64 and b.dtype == np.int64
    assert a.flags.c_contiguous and a.flags.writeable and not a.any() and not b.any()
    a[4095, 63, 1] = 1.5
    b[:, 0, 0] = 7
    assert a.sum() == 1.5 and not np.shares_memory(a, b) and b.sum() == 7 * (1 << 13)
    assert demand_zeros(0).shape == (0,)


def test_a_flipped_byte_anywhere_outside_the_values_is_one_table_error_or_the_right_answer(yacht_file, tmp_path):
    """HDF5's own structures (superblock, object headers, B-trees, heaps, attributes) damaged byte by
    byte: every query either stops with a TableError or answers exactly as the intact table does,
    never with another exception (h5py raises RuntimeError for a damaged B-tree or heap)."""
    from yahtzee_solver.solver.table import open_table

    good = load_table("yacht", yacht_file)
    want = (good.value(0, 0, 0), good.value(0b101, 4, 0))
    with h5py.File(yacht_file, "r") as f:
        ds = f["values"]
        chunks = sorted((ds.id.get_chunk_info(i).byte_offset, ds.id.get_chunk_info(i).size)
                        for i in range(ds.id.get_num_chunks()))
    data = yacht_file.read_bytes()
    in_chunk = np.zeros(len(data), bool)
    for off, size in chunks:
        in_chunk[off:off + size] = True
    outside = np.flatnonzero(~in_chunk)
    assert len(outside) > 1000  # the superblock, headers, heaps, digests and attributes
    errors = answered = 0
    for i, pos in enumerate(outside[:: max(1, len(outside) // 240)]):  # ~240 places, all regions
        bad = bytearray(data)
        bad[pos] ^= 0x11
        path = tmp_path / f"flip{i}.h5"
        path.write_bytes(bytes(bad))
        for opener in (lambda path=path: open_table("yacht", path), lambda path=path: load_table("yacht", path)):
            try:
                t = opener()
                got = (t.value(0, 0, 0), t.value(0b101, 4, 0))
            except TableError as e:
                assert "\n" not in str(e) and str(path) in str(e)
                errors += 1
            else:
                assert got == want, pos
                answered += 1
        path.unlink()
    assert errors and answered


# -- the file's own structures: what a loader or the writer is given instead of a table ----------------
def _shipped_copy(tmp_path, name="yacht.h5"):
    p = tmp_path / name
    shutil.copyfile(table_mod.default_table_path("yacht"), p)
    return p


def _foreign_hdf5(p):
    with h5py.File(p, "w") as f:
        f.create_dataset("measurements", data=np.arange(50_000.0), chunks=True, compression="gzip")
        f.attrs["instrument"] = "spectrometer"


@pytest.mark.parametrize("make", [
    lambda p: p.write_bytes(table_mod.default_table_path("yacht").read_bytes()[:100_000]),
    lambda p: (_foreign_hdf5(p), p.write_bytes(p.read_bytes()[:4000])),
    lambda p: p.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 64),
], ids=["truncated-table", "truncated-foreign-hdf5", "signature-only"])
def test_an_hdf5_file_that_cannot_be_read_is_replaced_only_with_force(tmp_path, make):
    """A truncated HDF5 file (h5py cannot open it: nothing says whose it is) was silently replaced, though it
    may be another program's data; now refused in one line naming it and --force, and replaced with --force."""
    shipped = load_table("yacht")
    table = ValueTable(shipped.rules, np.array(shipped.values))
    p = tmp_path / "data.h5"
    make(p)
    before = p.read_bytes()
    refused = table_mod.replace_refusal(p, "yacht")
    assert refused is not None and str(p) in refused and "--force" in refused
    assert table_mod.replace_refusal(p, "yacht", force=True) is None
    with pytest.raises(TableError) as info:
        save_table(table, p)
    _assert_clear(info.value, "refusing to replace", repr(str(p)), "cannot be read", "--force")
    assert p.read_bytes() == before and _leftovers(tmp_path) == []
    save_table(table, p, force=True)
    assert load_table("yacht", p).rules.name == "yacht"


def test_the_shipped_tables_own_path_is_rebuilt_without_force_though_unreadable(tmp_path, monkeypatch):
    """The package's own table file holds nothing of the user's: a truncated one is replaced as before."""
    shipped = tmp_path / "data" / "yacht.h5"
    shipped.parent.mkdir()
    shipped.write_bytes(table_mod.default_table_path("yacht").read_bytes()[:100_000])
    monkeypatch.setattr(table_mod, "default_table_path", lambda rules="yahtzee": shipped)
    assert table_mod.replace_refusal(shipped, "yacht") is None
    assert table_mod.replace_refusal(tmp_path / "data" / "yacht-copy.h5", "yacht") is None  # missing
    other = tmp_path / "data" / "elsewhere.h5"
    shutil.copyfile(shipped, other)
    assert table_mod.replace_refusal(other, "yacht") is not None


@pytest.mark.parametrize("name, bad", [
    ("format_version", np.array([1, 2])), ("format_version", "1"), ("format_version", 1.0),
    ("format_version", True), ("rules", np.array([1, 2])), ("rules_json", np.array([1, 2])),
    ("checksum", np.array([1, 2])), ("checksum", 5), ("package_version", np.array([1, 2])),
    ("empty_value", "254"), ("n_states", np.array([1, 2])), ("n_states", 2.5),
])
def test_an_attribute_that_is_not_one_value_of_its_kind_is_a_load_error_naming_it(tmp_path, name, bad):
    """``attrs['checksum'] = np.array([1, 2])`` raised numpy's "truth value of an array is ambiguous" from
    load_table (a traceback), other arrays leaked numpy's words in "cannot read value table (...)", and a
    format_version of "1" or 1.0 passed for 1: every loader now refuses the file in one line naming the
    attribute and the file."""
    p = _shipped_copy(tmp_path)
    with h5py.File(p, "r+") as f:
        f.attrs[name] = bad
    for load in (lambda: load_table("yacht", p), lambda: table_mod.open_table("yacht", p),
                 lambda: load_table(None, p, verify=False)):
        with pytest.raises(TableError) as info:
            load()
        _assert_clear(info.value, repr(str(p)), f"its attribute {name!r} is ", "rebuild it with")
        assert "truth value" not in str(info.value) and "scalar" not in str(info.value)


def test_a_format_attribute_that_is_an_array_is_no_table_said_in_one_line(tmp_path):
    p = _shipped_copy(tmp_path)
    with h5py.File(p, "r+") as f:
        f.attrs["format"] = np.array([1, 2])
    for load in (lambda: load_table("yacht", p), lambda: table_mod.open_table(None, p)):
        with pytest.raises(TableError) as info:
            load()
        _assert_clear(info.value, repr(str(p)), "not a yahtzee_solver value table", "attribute 'format'",
                      "move it away")
        assert "truth value" not in str(info.value)
    refused = table_mod.replace_refusal(p, "yacht", force=True)  # it raised numpy's ValueError
    assert refused is not None and "not a yahtzee_solver value table" in refused


@pytest.mark.parametrize("extra", [-1, 1], ids=["negative", "more-than-the-values"])
def test_a_count_of_states_the_values_cannot_hold_is_a_load_error(tmp_path, extra):
    p = _shipped_copy(tmp_path)
    with h5py.File(p, "r+") as f:
        f.attrs["n_states"] = -1 if extra < 0 else f["values"].size + extra
    with pytest.raises(TableError) as info:
        table_mod.open_table("yacht", p)
    _assert_clear(info.value, repr(str(p)), "attribute 'n_states'", "rebuild it with")


@pytest.mark.parametrize("damage", ["rows", "width", "dtype", "group"])
def test_chunk_digests_of_another_shape_or_dtype_are_a_load_error(tmp_path, damage):
    """A ``/chunk_sha256`` of another shape or dtype was taken for none: the chunks went unchecked, and
    open_table, load_table and ValueTable.verify() all passed.  Now each refuses the file, naming it."""
    p = _shipped_copy(tmp_path)
    before = load_table("yacht", p, verify=False)  # loaded while the file was sound
    with h5py.File(p, "r+") as f:
        d = f["chunk_sha256"][...]
        del f["chunk_sha256"]
        if damage == "group":
            f.create_group("chunk_sha256")
        else:
            f.create_dataset("chunk_sha256", data={"rows": d[:-1], "width": d[:, :16], "dtype": d.astype(np.int16)}[damage])
    for check in (lambda: load_table("yacht", p), lambda: load_table("yacht", p, verify=False),
                  lambda: table_mod.open_table("yacht", p), before.verify):
        with pytest.raises(TableError) as info:
            check()
        _assert_clear(info.value, repr(str(p)), "/chunk_sha256", "rebuild it with")


def test_check_chunks_refuses_digests_that_do_not_cover_every_chunk(tmp_path):
    """The one check of every chunk digest (load_table, ValueTable.verify) checked only the rows it was given."""
    p = _shipped_copy(tmp_path)
    t = load_table("yacht", p)
    digests = table_mod.chunk_digests(t.values)
    table_mod._check_chunks(t.values, digests, p, "yacht")
    for bad in (digests[:-1], digests.astype(np.int64), digests[:, :31]):
        with pytest.raises(TableError) as info:
            table_mod._check_chunks(t.values, bad, p, "yacht")
        _assert_clear(info.value, repr(str(p)), "/chunk_sha256")


def test_no_rules_and_no_path_is_the_default_table():
    """As get_rules(None) and Advisor(None): the default rule set's shipped table (it was a UsageError naming
    load_table even from open_table)."""
    assert load_table(None).rules.name == "yahtzee"
    assert table_mod.open_table(None).rules.name == "yahtzee"
