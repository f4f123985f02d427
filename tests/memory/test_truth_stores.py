"""TruthWeaver on every LangGraph store, items it did not write, and stores of other formats."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    TruthStatus,
    TruthVersionError,
    TruthWeaver,
    load_truths,
    truths_namespace,
)
from memory_fakes import BagOfWords, fake_index, relation_judge

WALLS = "avoid walls because each wall hit costs one life"
WALLS_SAME = "stay away from walls since each wall hit costs one life"
RIGHT, UP = "Move right first, then up", "Move up first, then right"
KEY = "pick up the key before you go to the goal"


def rounds(store: BaseStore) -> list[list[str]]:
    """Five rounds with a paraphrase, a repeat of the same text, a correction, a revert."""
    judge = relation_judge({(WALLS_SAME, WALLS): "same", (UP, RIGHT): "contradicts"})
    w = TruthWeaver(store, "maze", model=judge, embeddings=BagOfWords(), merge_threshold=0.05)
    seen = []
    plan = [
        [Candidate(id="c1", text=WALLS, round=1, level="L1")],
        [Candidate(id="c2", text=WALLS_SAME, round=2, level="L2"),
         Candidate(id="c3", text=RIGHT, round=2, level="L2")],
        [Candidate(id="c4", text=WALLS, round=3, level="L3"),
         Candidate(id="c5", text=UP, round=3, level="L3")],
        [Candidate(id="c6", text=KEY, round=4, level="L4")],
    ]  # fmt: skip
    for batch in plan:
        w.insert_many(batch)
        seen.append(load_truths(store, "maze"))
    w.revert_round(4)
    w.revert_round(3)
    seen.append(load_truths(store, "maze"))
    return seen


@pytest.fixture(params=["memory", "memory-indexed", "sqlite", "chroma"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseStore]:
    kind = str(request.param)
    index: Any = fake_index(fields=["text"]) if kind.endswith("indexed") else None
    if kind.startswith("memory"):
        yield InMemoryStore(index=index)
    elif kind.startswith("sqlite"):
        with SqliteStore.from_conn_string(str(tmp_path / "s.db"), index=index) as sqlite:
            sqlite.setup()
            yield sqlite
    else:
        with ChromaStore(tmp_path / "chroma", index=fake_index(fields=["text"])) as chroma:
            yield chroma


def test_the_same_rounds_give_the_same_truths_on_every_store(store: BaseStore) -> None:
    assert rounds(store) == rounds(InMemoryStore())
    assert rounds(InMemoryStore()) == [
        [WALLS],
        [WALLS, RIGHT],
        [WALLS, UP],  # the correction replaced what it contradicts
        [WALLS, UP, KEY],
        [WALLS, RIGHT],  # reverting rounds 4 and 3 brings the old base back
    ]


def test_an_item_truthweaver_did_not_write_is_skipped_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = InMemoryStore(index=fake_index(fields=["text"]))
    namespace = truths_namespace("maze")
    store.put(namespace, "langmem-1", {"kind": "Memory", "content": "the user likes mazes"})
    w = TruthWeaver(store, "maze", embeddings=BagOfWords())
    with caplog.at_level(logging.WARNING, logger="langgraph_games.memory"):
        w.insert(Candidate(id="c1", text=WALLS, round=1))
        w.insert(Candidate(id="c2", text=KEY, round=2))
        assert load_truths(store, "maze") == [WALLS, KEY]
    assert any("skipped truths/maze/langmem-1" in r.getMessage() for r in caplog.records)
    assert store.get(namespace, "langmem-1") is not None  # never touched


def test_a_store_of_format_one_reads_and_is_upgraded_on_its_next_write() -> None:
    store = InMemoryStore()
    namespace = truths_namespace("maze")
    old = {  # a truth as format 1 wrote it: no format, history or evidence
        "id": "t-old", "game": "maze", "text": WALLS, "round": 1, "order": 1,
        "status": "active", "kind": "summary", "level": "L1", "episode": None, "metrics": {},
        "provenance": [{"candidate": "c1", "text": WALLS, "round": 1, "relation": "origin",
                        "similarity": None, "kind": "summary", "experience": "e1",
                        "episode": None, "level": "L1"}],
        "merged_from": [], "merged_into": None, "merged_round": None, "support": 1,
    }  # fmt: skip
    store.put(namespace, "t-old", old)
    w = TruthWeaver(store, "maze", embeddings=BagOfWords())
    (truth,) = w.truths()
    assert (truth.format, truth.history, truth.support) == (1, [], 1)
    w.insert(Candidate(id="c2", text=WALLS.upper(), round=2, experience="e2"))
    item = store.get(namespace, "t-old")
    assert item is not None and item.value["format"] == 2 and item.value["support"] == 2
    assert [c["action"] for c in item.value["history"]] == ["exact-duplicate"]


def test_a_store_of_a_newer_format_is_refused_with_the_version_named() -> None:
    store = InMemoryStore()
    store.put(truths_namespace("maze"), "t-new", {"id": "t-new", "text": "x", "format": 9})
    with pytest.raises(TruthVersionError, match=r"has format 9; this version .* reads formats 1-2"):
        TruthWeaver(store, "maze", embeddings=BagOfWords()).truths()


def test_retired_truths_are_not_searchable_and_active_ones_are(store: BaseStore) -> None:
    rounds(store)
    statuses = {
        t.text: t.status for t in TruthWeaver(store, "maze", embeddings=BagOfWords()).truths(None)
    }
    assert statuses[UP] == TruthStatus.REVERTED and statuses[RIGHT] == TruthStatus.ACTIVE
