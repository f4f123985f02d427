"""ChromaStore keeps data across reopening, works in graphs, and survives interrupted writes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from langgraph_games.memory import ChromaStore
from memory_fakes import fake_index


def test_data_survives_reopening(store_dir: Path) -> None:
    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:
        store.put(("truths", "maze"), "t1", {"text": "avoid monsters", "n": 1})
        store.put(("truths", "maze"), "t2", {"text": "collect coins", "n": 2})
        store.put(("experiences", "maze"), "e1", {"text": "hit a wall", "n": 3}, index=False)
        store.put(("truths", "maze"), "t2", {"text": "collect coins early", "n": 5})
        store.delete(("truths", "maze"), "t1")
        before = store.get(("truths", "maze"), "t2")
        ranked = store.search(("truths",), query="collect coins early")
    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:
        again = store.get(("truths", "maze"), "t2")
        assert again is not None and before is not None
        assert again.value == {"text": "collect coins early", "n": 5}
        assert (again.created_at, again.updated_at) == (before.created_at, before.updated_at)
        assert again.created_at < again.updated_at
        assert store.get(("truths", "maze"), "t1") is None
        assert store.list_namespaces() == [("experiences", "maze"), ("truths", "maze")]
        hits = store.search(("truths",), query="collect coins early")
        assert [(h.key, h.score) for h in hits] == [(h.key, h.score) for h in ranked]
        assert hits[0].score == pytest.approx(1.0, abs=1e-5)
        assert store.search((), filter={"n": {"$gte": 3}}, limit=5)[0].key == "t2"
    # Opened without an index the items are all there; search just has no scores.
    with ChromaStore(store_dir) as store:
        assert [h.score for h in store.search(("truths",), query="coins")] == [None]


class State(TypedDict):
    lesson: str
    found: list[str]


def remember(state: State) -> dict[str, Any]:
    store = get_store()
    store.put(("truths", "maze"), state["lesson"][:8], {"text": state["lesson"]})
    return {}


def recall(state: State) -> dict[str, Any]:
    hits = get_store().search(("truths", "maze"), query=state["lesson"], limit=3)
    return {"found": [h.value["text"] for h in hits]}


def test_works_as_the_store_of_a_compiled_graph(store_dir: Path) -> None:
    graph = StateGraph(State)
    graph.add_node("remember", remember)
    graph.add_node("recall", recall)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "recall")
    graph.add_edge("recall", END)
    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:
        app = graph.compile(store=store)
        app.invoke({"lesson": "stay away from monsters", "found": []})
        out = app.invoke({"lesson": "collect coins first", "found": []})
        assert out["found"][0] == "collect coins first"
        assert set(out["found"]) == {"collect coins first", "stay away from monsters"}
        out = asyncio.run(app.ainvoke({"lesson": "walls cost a life", "found": []}))
        assert out["found"][0] == "walls cost a life"


def test_async_api_matches_the_sync_api(memory_store: ChromaStore) -> None:
    async def scenario() -> list[Any]:
        await memory_store.aput(("a", "b"), "k", {"text": "hello world"})
        await memory_store.aput(("a", "c"), "k", {"text": "other words"})
        got = await memory_store.aget(("a", "b"), "k")
        hits = await memory_store.asearch(("a",), query="hello world", limit=1)
        spaces = await memory_store.alist_namespaces(prefix=("a",), max_depth=2)
        await memory_store.adelete(("a", "b"), "k")
        return [got, hits, spaces, await memory_store.aget(("a", "b"), "k")]

    got, hits, spaces, gone = asyncio.run(scenario())
    assert got.value == {"text": "hello world"}
    assert [h.key for h in hits] == ["k"] and hits[0].namespace == ("a", "b")
    assert spaces == [("a", "b"), ("a", "c")]
    assert gone is None


def test_reads_in_a_batch_see_the_state_before_its_writes(memory_store: ChromaStore) -> None:
    from langgraph.store.base import GetOp, PutOp

    ns = ("a",)
    results = memory_store.batch(
        [PutOp(ns, "k", {"text": "one"}), GetOp(ns, "k"), PutOp(ns, "k", {"text": "two"})]
    )
    assert results == [None, None, None]
    item = memory_store.get(ns, "k")
    assert item is not None and item.value == {"text": "two"}


def cosine(a: str, b: str) -> float:
    embed = fake_index()["embed"]
    u, v = np.array(embed.embed_query(a)), np.array(embed.embed_query(b))  # type: ignore[union-attr]
    return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))


def test_an_interrupted_write_leaves_every_item_whole(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ns = ("truths", "maze")
    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:
        store.put(ns, "t1", {"text": "old lesson"})

        # The new vectors are written, then the process "dies" before the item commits.
        def die(*args: Any, **kwargs: Any) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(store._items, "upsert", die)
        with pytest.raises(KeyboardInterrupt):
            store.put(ns, "t1", {"text": "new lesson"})
        monkeypatch.undo()
        assert store._vectors.count() == 2  # the old vector and the orphan new one
        item = store.get(ns, "t1")
        assert item is not None and item.value == {"text": "old lesson"}
        hits = store.search(ns, query="new lesson")
        # Only the committed version's vector counts: the score is that of "old lesson".
        assert len(hits) == 1
        assert hits[0].score == pytest.approx(cosine("new lesson", "old lesson"), abs=1e-5)

    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:
        report = store.repair()
        assert (report.items, report.reembedded, report.removed_vectors) == (1, 0, 1)
        assert store._vectors.count() == 1
        store.put(ns, "t1", {"text": "new lesson"})
        assert store.search(ns, query="new lesson")[0].score == pytest.approx(1.0, abs=1e-5)


def test_repair_restores_lost_vectors_and_reindex_switches_models(store_dir: Path) -> None:
    ns = ("truths", "maze")
    with ChromaStore(store_dir, index=fake_index(16, ["text"])) as store:
        for i in range(5):
            store.put(ns, f"t{i}", {"text": f"lesson number {i}"})
        lost = store._vectors.get(limit=2)["ids"]
        store._vectors.delete(ids=lost)
        report = store.repair()
        assert (report.items, report.reembedded, report.removed_vectors) == (5, 2, 0)
        assert store._vectors.count() == 5
        before = {h.key: h.updated_at for h in store.search(ns)}
    with ChromaStore(store_dir, index=fake_index(8, ["text"]), reindex=True) as store:
        assert store._vectors.count() == 5
        top = store.search(ns, query="lesson number 3", limit=1)[0]
        assert top.key == "t3" and top.score == pytest.approx(1.0, abs=1e-5)
        assert {h.key: h.updated_at for h in store.search(ns)} == before
