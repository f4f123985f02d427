"""Opening a store that other clients share: a lagging index is asked again, never rebuilt.

On a Chroma server, a client opening the store while others write can find the index
briefly behind its records, or a segment the server is writing unreadable. Rebuilding the
vectors collection then would make the other clients' writes fail, so a shared store is
probed again, and a problem that stays is raised with the fix, not repaired.
"""

from __future__ import annotations

from typing import Any

import pytest
from chromadb.errors import InternalError

from langgraph_games.memory import StoreDamagedError
from langgraph_games.memory import _chroma_check as check
from langgraph_games.memory._chroma_rebuild import RepairReport


class Vectors:
    """Three records whose index fails the first ``fails`` queries, then answers."""

    def __init__(self, fails: int) -> None:
        self.fails = fails
        self.queries = 0

    def count(self) -> int:
        return 3

    def get(self, *, limit: int, include: list[str], offset: int = 0) -> dict[str, Any]:
        return {"ids": [f"k{offset}"], "embeddings": [[1.0, float(offset)]]}

    def query(self, **_: Any) -> dict[str, Any]:
        self.queries += 1
        if self.fails:
            self.fails -= 1
            raise InternalError("Error creating hnsw segment reader: Nothing found on disk")
        return {"ids": [["k0", "k1", "k2"]], "distances": [[0.0, 0.1, 0.2]]}


class Store:
    """What check_store reads of a just opened ChromaStore; counts rebuilds."""

    name = "shared"
    location = "http://127.0.0.1:8000"
    embeddings: Any = object()

    def __init__(self, fails: int) -> None:
        self._items = Vectors(0)
        self._vectors = Vectors(fails)
        self.rebuilds = 0

    def reindex(self) -> RepairReport:
        self.rebuilds += 1
        self._vectors.fails = 0
        return RepairReport(items=3, reembedded=3)


@pytest.fixture(autouse=True)
def quick_settling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "SERVER_SETTLE_S", (0.001, 0.001, 0.001))


def test_a_shared_store_whose_index_catches_up_opens_without_a_rebuild() -> None:
    store = Store(fails=2)
    check.check_store(store, None, shared=True)
    assert store.rebuilds == 0 and store._vectors.queries == 3 + 2


def test_a_shared_store_whose_index_stays_unreadable_is_reported_not_rebuilt() -> None:
    store = Store(fails=100)
    with pytest.raises(StoreDamagedError, match=r"call repair\(\) on it while no other client"):
        check.check_store(store, None, shared=True)
    assert store.rebuilds == 0 and store._vectors.queries == 4  # one probe and three again


def test_a_store_of_its_own_is_rebuilt_at_once() -> None:
    store = Store(fails=1)
    check.check_store(store, None, shared=False)
    assert store.rebuilds == 1 and store._vectors.queries == 1 + 3
