"""ChromaStore against LangGraph's InMemoryStore on random sequences of operations.

Both stores get the same seeded fake embeddings. The oracle is InMemoryStore for what
matches (namespaces, filters, values) and what each item scores; the order of results
follows the documented rule (best score first, then the most recently written), which
this test tracks with a write counter. Where InMemoryStore has known quirks the oracle
sidesteps them (docs/memory.md lists them): it lists namespaces emptied by deletes, keeps
vectors of replaced values, and orders plain searches by insertion; so the oracle deletes
before it re-puts, drops empty namespaces before listing, and sorts by the write counter.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import (
    GetOp,
    IndexConfig,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import ChromaStore
from langgraph_games.memory import _chroma_read as read
from memory_fakes import fake_index

NAMESPACES = [("a",), ("a", "b"), ("a", "b", "c"), ("a", "c"), ("x", "b"), ("x",)]
KEYS = [f"k{i}" for i in range(6)]
WORDS = ["avoid", "monsters", "coins", "walls", "goal", "keys", "night", "shovel", "sword"]
# Notes never repeat a word nor equal a text: InMemoryStore fails on an item that holds the
# same text at two indexed paths (it embeds each distinct text once, then miscounts).
NOTE_WORDS = ["north", "south", "east", "west", "up", "down", "left", "right"]
FILTERS: list[dict[str, Any] | None] = [
    None,
    {"kind": "truth"},
    {"kind": {"$ne": "exp"}},
    {"n": {"$gt": 4}},
    {"n": {"$lte": 3}},
    {"meta": {"color": "red"}},
    {"flag": True},
    {"tags": ["a", "b"]},
    {"x": None},
    {"x": {"$ne": 1.5}},
    {"x": 2.5},
    {"kind": "note", "n": {"$gte": 2, "$lt": 8}},
    {"meta": {"size": {"$gt": 1}}},
]


def random_value(rng: random.Random) -> dict[str, Any]:
    value: dict[str, Any] = {
        "text": " ".join(rng.choices(WORDS, k=rng.randint(1, 3))),
        "kind": rng.choice(["truth", "exp", "note"]),
        "n": rng.randint(0, 9),
        "flag": rng.random() < 0.5,
        "tags": rng.choice([["a"], ["a", "b"], ["b", "a"], []]),
        "meta": {"color": rng.choice(["red", "blue"]), "size": rng.randint(0, 3)},
    }
    if rng.random() < 0.6:
        value["x"] = rng.choice([0.5, 1.5, 2.5])
    if rng.random() < 0.4:
        value["notes"] = rng.sample(NOTE_WORDS, rng.randint(1, 3))
    return value


def random_op(rng: random.Random) -> Op:
    roll = rng.random()
    if roll < 0.5:
        index = rng.choice(
            [None, None, None, False, ["text"], ["notes[*]"], ["meta.color", "text"]]
        )
        return PutOp(rng.choice(NAMESPACES), rng.choice(KEYS), random_value(rng), index)
    if roll < 0.6:
        return PutOp(rng.choice(NAMESPACES), rng.choice(KEYS), None)
    if roll < 0.7:
        return GetOp(rng.choice(NAMESPACES), rng.choice(KEYS))
    if roll < 0.92:
        return SearchOp(
            rng.choice([(), ("a",), ("a", "b"), ("x",), ("zz",)]),
            rng.choice(FILTERS),
            rng.choice([1, 3, 10]),
            rng.choice([0, 0, 1, 4]),
            rng.choice([None, " ".join(rng.choices(WORDS, k=2))]),
        )
    conditions = []
    if rng.random() < 0.5:
        conditions.append(MatchCondition("prefix", rng.choice([("a",), ("a", "*"), ("x",)])))
    if rng.random() < 0.4:
        conditions.append(MatchCondition("suffix", rng.choice([("b",), ("*", "c"), ("c",)])))
    return ListNamespacesOp(
        tuple(conditions), rng.choice([None, 1, 2]), rng.choice([2, 100]), rng.choice([0, 1])
    )


class Oracle:
    """InMemoryStore plus a write counter that gives the documented result order."""

    def __init__(self, index: IndexConfig | None) -> None:
        self.store = InMemoryStore(index=index)
        self.seq: dict[tuple[tuple[str, ...], str], int] = {}
        self.clock = 0

    def _recency(self, item: Any) -> tuple[int, tuple[str, ...], str]:
        return (-self.seq[(item.namespace, item.key)], item.namespace, item.key)

    def read(self, op: Op) -> Any:
        if isinstance(op, GetOp):
            return self.store.batch([op])[0]
        if isinstance(op, ListNamespacesOp):
            for ns in [ns for ns, items in self.store._data.items() if not items]:
                del self.store._data[ns]
            return self.store.batch([op])[0]
        assert isinstance(op, SearchOp)
        everything = self.store.batch([op._replace(limit=10**6, offset=0)])[0]
        scored = sorted((it for it in everything if it.score is not None), key=self._recency)
        scored.sort(key=lambda it: it.score, reverse=True)
        unscored = sorted((it for it in everything if it.score is None), key=self._recency)
        ranked = scored + unscored
        return ranked[op.offset : op.offset + op.limit], {
            (it.namespace, it.key): it.score for it in everything
        }

    def write(self, ops: list[PutOp]) -> None:
        latest: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for op in ops:
            latest.pop((op.namespace, op.key), None)
            latest[(op.namespace, op.key)] = op
        for (ns, key), op in latest.items():
            self.store.delete(ns, key)
            if op.value is None:
                self.seq.pop((ns, key), None)
            else:
                self.store.batch([op])
                self.clock += 1
                self.seq[(ns, key)] = self.clock


def same_item(got: Any, want: Any) -> None:
    assert (got.namespace, got.key, got.value) == (want.namespace, want.key, want.value)


def compare_search(got: list[Any], want: list[Any], scores: dict[Any, float | None]) -> None:
    assert len(got) == len(want), ([g.key for g in got], [w.key for w in want])
    for g, w in zip(got, want, strict=True):
        expected = scores.get((g.namespace, g.key), "absent")
        assert expected != "absent", f"{g.namespace}/{g.key} should not match"
        if (g.namespace, g.key) != (w.namespace, w.key):
            # Only a tie (equal scores within float32 rounding) may swap two results.
            assert g.score is not None and w.score is not None
            assert abs(g.score - w.score) < 1e-5, (g.key, g.score, w.key, w.score)
        else:
            same_item(g, w)
        if expected is None:
            assert g.score is None
        else:
            assert g.score == pytest.approx(expected, abs=1e-4)


def run_sequence(store: ChromaStore, oracle: Oracle, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    done = 0
    while done < steps:
        ops = [random_op(rng) for _ in range(rng.choice([1, 1, 1, 2, 4]))]
        done += len(ops)
        use_async = rng.random() < 0.25
        got = asyncio.run(store.abatch(ops)) if use_async else store.batch(ops)
        for op, result in zip(ops, got, strict=True):
            if isinstance(op, PutOp):
                assert result is None
                continue
            want = oracle.read(op)
            context = f"seed {seed}, op {op}"
            if isinstance(op, GetOp):
                if want is None:
                    assert result is None, context
                else:
                    assert result is not None, context
                    same_item(result, want)
            elif isinstance(op, SearchOp):
                compare_search(result, want[0], want[1])
            else:
                assert result == want, context
        oracle.write([op for op in ops if isinstance(op, PutOp)])


CONFIGS = {
    "text-field": lambda: fake_index(16, ["text"]),
    "whole-value": lambda: fake_index(16),
    "no-index": lambda: None,
}


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_operations_agree_with_in_memory_store(config: str, seed: int) -> None:
    with ChromaStore(index=CONFIGS[config]()) as store:
        run_sequence(store, Oracle(CONFIGS[config]()), seed, steps=150)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_filtered_query_path_agrees_too(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiny windows make searches give up on unfiltered ranking and push filters to Chroma.
    monkeypatch.setattr(read, "FIRST_WINDOW", 1)
    monkeypatch.setattr(read, "UNFILTERED_CAP", 2)
    calls: list[object] = []
    with ChromaStore(index=fake_index(16, ["text"])) as store:
        query = store._vectors.query

        def spy(*args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs.get("where"))
            return query(*args, **kwargs)

        monkeypatch.setattr(store._vectors, "query", spy)
        run_sequence(store, Oracle(fake_index(16, ["text"])), seed, steps=150)
    assert any(where is not None for where in calls)


def test_random_operations_agree_on_a_persistent_directory(store_dir: Path) -> None:
    with ChromaStore(store_dir, index=fake_index(16, ["text", "notes[*]"])) as store:
        run_sequence(store, Oracle(fake_index(16, ["text", "notes[*]"])), 7, steps=80)
