"""A ChromaStore whose vector index files were lost or damaged on disk.

Chroma keeps records in ``chroma.sqlite3`` and each collection's vector index in a folder
beside it; once an index is written its log is purged (here after 10 records, so the test
needs few). Losing the folder made searches silently return the newest items instead of
the nearest; truncated files made every read raise Chroma's internal errors.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from chromadb.errors import ChromaError
from langgraph.store.base import PutOp

from langgraph_games.memory import ChromaStore, StoreDamagedError
from langgraph_games.memory import chroma_store as chroma_store_module
from langgraph_games.memory._chroma_check import segment_folder
from memory_fakes import fake_index

ITEMS = 40
QUERY = "item number 7"


def index() -> dict[str, object]:
    return dict(fake_index(16, ["text"]))


def nearest(store: ChromaStore) -> list[str]:
    return [hit.key for hit in store.search(("t",), query=QUERY, limit=3)]


def build(directory: Path) -> list[str]:
    """A store of 40 items whose index is on disk and whose log is purged."""
    with ChromaStore(
        directory, index=index(), hnsw={"sync_threshold": 10, "batch_size": 10}
    ) as store:
        store.batch([PutOp(("t",), f"k{i}", {"text": f"item number {i}"}) for i in range(ITEMS)])
        found = nearest(store)
    assert found[0] == "k7"
    return found


def folder(directory: Path, kind: str) -> Path:
    found = segment_folder(directory, f"langgraph-{kind}")
    assert found is not None and found.is_dir()
    return found


def truncate(path: Path) -> None:
    for file in path.iterdir():
        file.write_bytes(b"")


def test_a_lost_vector_index_is_rebuilt_when_the_store_opens(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    expected = build(store_dir)
    shutil.rmtree(folder(store_dir, "vectors"))
    with caplog.at_level(logging.WARNING, "langgraph_games.memory"):
        store = ChromaStore(store_dir, index=index())
    with store:
        assert nearest(store) == expected  # was the 3 newest items, with no error
        assert store.repair().reembedded == 0  # nothing left to do
    assert "rebuilding the vector index" in caplog.text
    assert str(store_dir) in caplog.text


def test_a_truncated_vector_index_is_rebuilt(store_dir: Path) -> None:
    expected = build(store_dir)
    truncate(folder(store_dir, "vectors"))
    with ChromaStore(store_dir, index=index()) as store:  # was Chroma's InternalError
        assert nearest(store) == expected


def test_a_damaged_items_index_is_refused_with_the_fix(store_dir: Path) -> None:
    expected = build(store_dir)
    damaged = folder(store_dir, "items")
    truncate(damaged)
    with pytest.raises(StoreDamagedError) as caught:
        ChromaStore(store_dir, index=index())
    message = str(caught.value)
    assert str(damaged) in message and "move the folder" in message
    assert isinstance(caught.value.__cause__, ChromaError)
    # The fix the message gives works and loses nothing.
    shutil.move(str(damaged), str(store_dir.parent / "moved-away"))
    with ChromaStore(store_dir, index=index()) as store:
        assert nearest(store) == expected
        assert len(store.search(("t",), limit=100)) == ITEMS
        assert store.get(("t",), "k3") is not None


def test_opening_without_an_index_config_reads_and_says_how_to_rebuild(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    expected = build(store_dir)
    shutil.rmtree(folder(store_dir, "vectors"))
    with (
        caplog.at_level(logging.WARNING, "langgraph_games.memory"),
        ChromaStore(store_dir) as plain,  # such a store never reads vectors
    ):
        found = plain.get(("t",), "k7")
        assert found is not None and found.value == {"text": QUERY}
    assert "open it with the index config" in caplog.text
    with ChromaStore(store_dir, index=index()) as store:
        assert nearest(store) == expected


def test_chroma_errors_are_wrapped_and_repair_rebuilds(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = build(store_dir)
    truncate(folder(store_dir, "vectors"))
    monkeypatch.setattr(chroma_store_module, "check_store", lambda store, directory, **_: None)
    with ChromaStore(store_dir, index=index()) as store:  # opened unchecked
        with pytest.raises(StoreDamagedError, match="repair") as caught:
            nearest(store)
        assert isinstance(caught.value.__cause__, ChromaError)
        report = store.repair()  # found nothing to do before
        assert report.reembedded == ITEMS
        assert nearest(store) == expected
