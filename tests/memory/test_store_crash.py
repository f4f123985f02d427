"""A ChromaStore after a kill -9, a full disk, or a lost records file.

Real processes are killed with SIGKILL while they write (each kills itself at a chosen
point, see ``store_crash_support``). A kill inside an SQLite transaction leaves a hot
rollback journal that a read-only look refuses; the store used to be refused as damaged
for good. A store whose ``chroma.sqlite3`` was emptied opened as a new, empty store with
no error. A full disk was reported as damage.
"""

from __future__ import annotations

import errno
import logging
import multiprocessing
import shutil
import signal
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import chromadb.api.models.Collection
import pytest
from chromadb.errors import InternalError
from langgraph.store.base import PutOp

from langgraph_games.memory import (
    ChromaStore,
    StoreDamagedError,
    StoreFullError,
    StoreOpenError,
)
from langgraph_games.memory._chroma_full import says_disk_full
from langgraph_games.memory._chroma_open import segment_folders
from store_crash_support import (
    ADDED,
    DELETED,
    KILL_POINTS,
    NS,
    UPDATED,
    build,
    index,
    new_text,
    old_text,
    torn_write,
    write_killed_at,
)

# What Chroma 1.5 raised on a tmpfs filled to the brim (see _chroma_full).
SQLITE_FULL = (
    "Query error: Database error: error returned from database: (code: 13) database or disk is full"
)
COMPACTION_FAILED = "Error in compaction: Failed to apply logs to the metadata segment"
BACKFILL_FAILED = (
    "Error executing plan: Error sending backfill request to compactor: Failed to apply "
    "logs to the metadata segment"
)
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def run_and_kill(target: Callable[..., None], *args: str) -> None:
    """Run ``target`` in a spawned process and wait until it has killed itself."""
    process = multiprocessing.get_context("spawn").Process(target=target, args=args)
    process.start()
    try:
        process.join(timeout=180)
        assert process.exitcode == -signal.SIGKILL, process.exitcode
    finally:
        if process.is_alive():
            process.kill()
            process.join()


def snapshot(directory: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``directory``: size and modification time."""
    return {
        str(p.relative_to(directory)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def store_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("langgraph_games.memory") and r.levelno >= logging.WARNING
    ]


def assert_whole(store: ChromaStore, key: str, allowed: set[str | None]) -> str | None:
    """The item's text is one of ``allowed``, and its vector is that version's."""
    item = store.get(NS, key)
    text = None if item is None else item.value["text"]
    assert text in allowed, (key, text)
    if text is not None:
        top = store.search(NS, query=text, limit=1)[0]
        assert top.key == key and top.score == pytest.approx(1.0, abs=1e-5), (key, top)
    return text


# -- kill -9 between Chroma's calls: the store opens and every item is whole ------------


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_kill_between_the_writes_calls_leaves_every_item_whole(
    store_dir: Path, point: str, caplog: pytest.LogCaptureFixture
) -> None:
    build(store_dir)
    run_and_kill(write_killed_at, str(store_dir), point)
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        store = ChromaStore(store_dir, index=index())
    with store:
        assert store_warnings(caplog) == []  # nothing to recover or rebuild
        # The item records are one Chroma call: all of them old, or all of them new.
        committed = point != "new vectors written"
        for key in UPDATED:
            assert_whole(store, key, {new_text(key) if committed else old_text(key)})
        for key in ADDED:
            assert_whole(store, key, {new_text(key) if committed else None})
        for key in DELETED:
            assert_whole(store, key, {None if point == "deletes done" else old_text(key)})
        store.repair()  # drops the vectors of versions that were never (or no longer) used
        assert store._vectors.count() == len(store.search(NS, limit=100))
        store.batch(
            [PutOp(NS, k, {"text": new_text(k)}) for k in UPDATED + ADDED]
            + [PutOp(NS, k, None) for k in DELETED]
        )
        for key in UPDATED + ADDED:
            assert_whole(store, key, {new_text(key)})


# -- kill -9 inside an SQLite transaction: a hot journal ---------------------------------


@pytest.fixture
def torn_store(store_dir: Path) -> Iterator[Path]:
    """A store whose writer was killed inside a transaction, with pages half written."""
    build(store_dir)
    before = (store_dir / "chroma.sqlite3").read_bytes()
    run_and_kill(torn_write, str(store_dir))
    journal = store_dir / "chroma.sqlite3-journal"
    assert journal.read_bytes()[: len(JOURNAL_MAGIC)] == JOURNAL_MAGIC  # a hot journal
    assert (store_dir / "chroma.sqlite3").read_bytes() != before  # and a torn file
    yield store_dir


def test_a_hot_journal_is_rolled_back_when_the_store_opens(
    torn_store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        store = ChromaStore(torn_store, index=index())  # was StoreOpenError, for good
    with store:
        (warning,) = store_warnings(caplog)
        assert str(torn_store) in warning and "rolled that write back" in warning
        assert not (torn_store / "chroma.sqlite3-journal").exists()
        for key in UPDATED + DELETED:
            assert_whole(store, key, {old_text(key)})
        store.put(NS, "after", {"text": "written after the recovery"})
        assert_whole(store, "after", {"written after the recovery"})
    caplog.clear()
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"), ChromaStore(torn_store):
        assert store_warnings(caplog) == []  # recovered once, then a clean store


def test_a_hot_journal_that_does_not_give_a_sound_database_is_refused(torn_store: Path) -> None:
    database = torn_store / "chroma.sqlite3"
    data = bytearray(database.read_bytes())
    data[4096:] = bytes(len(data) - 4096)  # pages the journal cannot restore are lost too
    database.write_bytes(bytes(data))
    with pytest.raises(StoreDamagedError) as caught:
        ChromaStore(torn_store, index=index())
    message = str(caught.value)
    assert str(torn_store) in message and "rollback journal" in message
    assert "Restore the store's directory from a backup" in message


def test_a_journal_whose_header_was_never_written_is_left_to_sqlite(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    build(store_dir)
    (store_dir / "chroma.sqlite3-journal").write_bytes(bytes(4096))  # killed before it began
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        store = ChromaStore(store_dir, index=index())
    with store:
        assert store_warnings(caplog) == []
        assert_whole(store, "u0", {old_text("u0")})


# -- the records file and the index folders must agree -----------------------------------


def _empty(database: Path) -> None:
    database.write_bytes(b"")


def _no_tables(database: Path) -> None:
    database.unlink()
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA user_version = 1")  # an SQLite file, with no tables
    connection.close()


@pytest.mark.parametrize(
    ("damage", "found"),
    [(_empty, "is empty (0 bytes)"), (_no_tables, "holds no tables")],
    ids=["empty", "no-tables"],
)
def test_an_emptied_records_file_is_refused_not_opened_empty(
    store_dir: Path, damage: Callable[[Path], None], found: str
) -> None:
    build(store_dir)
    folders = segment_folders(store_dir)
    assert len(folders) == 2
    damage(store_dir / "chroma.sqlite3")
    before = snapshot(store_dir)
    with pytest.raises(StoreDamagedError) as caught:
        ChromaStore(store_dir, index=index())  # was an empty store: 12 items silently gone
    message = str(caught.value)
    assert str(store_dir) in message and found in message
    assert "cannot be rebuilt" in message and "backup" in message and "move" in message
    assert snapshot(store_dir) == before  # nothing changed, not even the lock file
    # The way out the message gives: move the folders aside to start an empty store.
    aside = store_dir.parent / "aside"
    aside.mkdir()
    for folder in folders:
        shutil.move(str(folder), str(aside))
    with ChromaStore(store_dir, index=index()) as store:
        assert store.search(NS) == []


def test_a_missing_records_file_is_refused_and_restoring_it_works(store_dir: Path) -> None:
    build(store_dir)
    backup = store_dir.parent / "chroma.sqlite3.backup"
    shutil.move(str(store_dir / "chroma.sqlite3"), str(backup))
    before = snapshot(store_dir)
    with pytest.raises(StoreDamagedError) as caught:  # was a StoreOpenError: "not empty"
        ChromaStore(store_dir, index=index())
    message = str(caught.value)
    assert str(store_dir) in message and "chroma.sqlite3 is missing" in message
    assert "Restore chroma.sqlite3 from a backup" in message
    assert snapshot(store_dir) == before
    shutil.move(str(backup), str(store_dir / "chroma.sqlite3"))
    with ChromaStore(store_dir, index=index()) as store:
        for key in UPDATED + DELETED:
            assert_whole(store, key, {old_text(key)})


def test_lost_index_folders_with_records_present_are_rebuilt(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    keys = [f"k{i}" for i in range(40)]
    # A log threshold of 10 records: Chroma's indexes are on disk and its log is purged.
    with ChromaStore(
        store_dir, index=index(), hnsw={"sync_threshold": 10, "batch_size": 10}
    ) as store:
        store.batch([PutOp(NS, key, {"text": old_text(key)}) for key in keys])
    for folder in segment_folders(store_dir):  # every index folder: items' and vectors'
        shutil.rmtree(folder)
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        store = ChromaStore(store_dir, index=index())
    with store:
        assert any("rebuilding the vector index" in w for w in store_warnings(caplog))
        assert {h.key for h in store.search(NS, limit=100)} == set(keys)
        for key in keys:
            assert_whole(store, key, {old_text(key)})  # a search by query finds each item


def test_a_clean_store_and_a_new_directory_open_without_a_word(
    store_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        build(store_dir)  # a brand-new directory
        with ChromaStore(store_dir, index=index()) as store:
            assert_whole(store, "u1", {old_text("u1")})
        (tmp_path / "empty").mkdir()
        with ChromaStore(tmp_path / "empty") as store:  # an existing empty directory
            assert store.search(NS) == []
        (tmp_path / "zero").mkdir()
        (tmp_path / "zero" / "chroma.sqlite3").write_bytes(b"")  # stopped before its schema
        with ChromaStore(tmp_path / "zero") as store:
            assert store.search(NS) == []
    assert store_warnings(caplog) == []


# -- a full disk ------------------------------------------------------------------------


class _Usage(NamedTuple):
    total: int
    used: int
    free: int


@pytest.fixture
def disk_free(monkeypatch: pytest.MonkeyPatch, store_dir: Path) -> Callable[[int], None]:
    """Set the free bytes the store's disk reports (other paths are left alone)."""
    real = shutil.disk_usage

    def set_free(free: int) -> None:
        def usage(path: Any) -> Any:
            if Path(path).resolve().is_relative_to(store_dir.resolve()):
                return _Usage(1 << 40, (1 << 40) - free, free)
            return real(path)

        monkeypatch.setattr(shutil, "disk_usage", usage)

    return set_free


def _fail_with(monkeypatch: pytest.MonkeyPatch, collection: Any, message: str) -> list[int]:
    """Make ``collection.upsert`` fail as Chroma does on a full disk; count the calls."""
    calls: list[int] = []

    def upsert(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        raise InternalError(message)

    monkeypatch.setattr(collection, "upsert", upsert)
    return calls


def test_a_write_on_a_full_disk_is_refused_before_it_starts(
    store_dir: Path, disk_free: Callable[[int], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    build(store_dir)
    with ChromaStore(store_dir, index=index()) as store:
        vectors_before = store._vectors.count()
        disk_free(100 * 1024)
        with monkeypatch.context() as patch:
            calls = _fail_with(patch, store._vectors, "must not be called")
            with pytest.raises(StoreFullError) as caught:
                store.put(NS, "u0", {"text": new_text("u0")})
            assert calls == []  # nothing reached Chroma
        message = str(caught.value)
        assert "is full" in message and str(store_dir) in message
        assert "Nothing was written" in message and "Free space" in message
        assert store._vectors.count() == vectors_before
        assert_whole(store, "u0", {old_text("u0")})
        disk_free(1 << 30)  # space freed: the same write goes through
        store.put(NS, "u0", {"text": new_text("u0")})
        assert_whole(store, "u0", {new_text("u0")})


@pytest.mark.parametrize(
    ("message", "free", "full"),
    [
        (SQLITE_FULL, 1 << 40, True),  # SQLite's own words
        (COMPACTION_FAILED, 1 << 20, True),  # no cause given, and 1 MiB free
        (COMPACTION_FAILED, 1 << 40, False),  # no cause given, and room: damage
    ],
    ids=["sqlite-full", "compaction-little-room", "compaction-room"],
)
def test_a_write_that_chroma_fails_on_a_full_disk_says_so(
    store_dir: Path,
    disk_free: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
    message: str,
    free: int,
    full: bool,
) -> None:
    build(store_dir)
    with ChromaStore(store_dir, index=index()) as store:
        disk_free(free)
        with monkeypatch.context() as patch:
            _fail_with(patch, store._items, message)  # the commit point
            with pytest.raises(StoreOpenError) as caught:
                store.put(NS, "u0", {"text": new_text("u0")})
        assert isinstance(caught.value, StoreFullError) == full  # was always damaged
        assert isinstance(caught.value, StoreDamagedError) != full
        assert isinstance(caught.value.__cause__, InternalError)
        if full:
            text = str(caught.value)
            assert "is full" in text and str(store_dir) in text
            assert "Nothing stored before was lost" in text and "run the write again" in text
        assert_whole(store, "u0", {old_text("u0")})  # as before the write
        disk_free(1 << 40)
        store.put(NS, "u0", {"text": new_text("u0")})
        assert_whole(store, "u0", {new_text("u0")})


def test_opening_on_a_full_disk_says_so_and_rebuilds_nothing(
    store_dir: Path, disk_free: Callable[[int], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    build(store_dir)
    folders = snapshot(store_dir)
    disk_free(300 * 1024)
    with monkeypatch.context() as patch:
        # Chroma applies its pending log on the first read when the store opens.
        def count(self: Any) -> int:
            raise InternalError(BACKFILL_FAILED)

        patch.setattr(chromadb.api.models.Collection.Collection, "count", count)
        with pytest.raises(StoreFullError) as caught:  # was "damaged: move the folder"
            ChromaStore(store_dir, index=index())
    message = str(caught.value)
    assert "is full" in message and "open the store again" in message
    assert {k for k in snapshot(store_dir) if "/" in k} == {k for k in folders if "/" in k}
    disk_free(1 << 40)
    with ChromaStore(store_dir, index=index()) as store:
        assert_whole(store, "u0", {old_text("u0")})


@pytest.mark.parametrize(
    ("error", "full"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), True),
        (sqlite3.OperationalError("database or disk is full"), True),
        (InternalError(SQLITE_FULL), True),
        (InternalError("Error writing HNSW index: No space left on device (os error 28)"), True),
        (InternalError(COMPACTION_FAILED), False),  # says nothing: the free space decides
        (OSError(errno.EIO, "Input/output error"), False),
    ],
    ids=["enospc", "sqlite", "chroma-sqlite", "chroma-os", "chroma-vague", "eio"],
)
def test_what_counts_as_a_full_disk(error: BaseException, full: bool) -> None:
    assert says_disk_full(error) == full
    wrapped = RuntimeError("while writing")
    wrapped.__cause__ = error
    assert says_disk_full(wrapped) == full
