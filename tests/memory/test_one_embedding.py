"""One embedding per truth: the store's index and TruthWeaver share the vectors they compute."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore, IndexConfig
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import (
    MINILM_MODEL_ID,
    CachedEmbeddings,
    Candidate,
    ChromaStore,
    Relation,
    TruthStatus,
    TruthWeaver,
    load_truths,
    minilm_index,
    shared_embeddings,
)
from memory_fakes import BagOfWords, relation_judge

WALLS = "avoid walls because each wall hit costs one life"
WALLS_SIMILAR = "stay away from walls since each wall hit costs one life"
KEY = "pick up the key before you go to the goal"
WORDS = ["walls", "keys", "coins", "doors", "monsters", "corners", "edges", "traps"]


class CountingWords(BagOfWords):
    """Bag-of-words vectors that count every text they embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.texts += 1
        return super().embed_query(text)


def index_of(embed: Embeddings) -> IndexConfig:
    return {"dims": 1024, "embed": embed, "fields": ["text"]}


def lessons(count: int, tag: str = "") -> list[Candidate]:
    return [
        Candidate(id=f"c{i}", text=f"Lesson {i}{tag}: mind the {WORDS[i % 8]} on map {i}.", round=1)
        for i in range(count)
    ]


def open_store(kind: str, tmp_path: Path, index: IndexConfig) -> BaseStore:
    if kind == "chroma":
        return ChromaStore(tmp_path / "store", index=index)
    return InMemoryStore(index=index)


@pytest.mark.parametrize("kind", ["memory", "chroma"])
def test_n_truths_added_are_embedded_n_times(kind: str, tmp_path: Path) -> None:
    counting = CountingWords()
    shared = CachedEmbeddings(counting)
    store = open_store(kind, tmp_path, index_of(shared))
    report = TruthWeaver(store, "maze", embeddings=shared).insert_many(lessons(12))
    assert report.added == 12
    assert counting.texts == 12 and shared.computed == 12
    # The store's index holds them: a semantic search finds a lesson by its words.
    [hit] = store.search(("truths", "maze"), query="mind the coins on map 2", limit=1)
    assert hit.value["text"].startswith("Lesson 2:")


def test_separate_embeddings_embed_each_truth_twice() -> None:
    """The opposite wiring: a store and a weaver with their own vectors pay twice."""
    for_store, for_weaver = CountingWords(), CountingWords()
    store = InMemoryStore(index=index_of(for_store))
    TruthWeaver(store, "maze", embeddings=for_weaver).insert_many(lessons(5))
    assert (for_store.texts, for_weaver.texts) == (5, 5)


def test_the_defaults_share_one_minilm_between_the_store_and_the_weaver() -> None:
    index = minilm_index(["text"])
    store = InMemoryStore(index=index)
    weaver = TruthWeaver(store, "maze")
    assert weaver.embeddings is index["embed"] is shared_embeddings()
    before = shared_embeddings().computed
    weaver.insert_many(lessons(6, tag=f" ({uuid.uuid4().hex[:8]})"))  # never seen before
    assert shared_embeddings().computed - before == 6


def test_merges_and_refusals_are_the_same_with_shared_vectors() -> None:
    """True merges are kept and false ones refused, whether or not vectors are shared."""

    def scenario(store_embed: Embeddings, weaver_embed: Embeddings) -> list[str]:
        judge = relation_judge({(WALLS_SIMILAR, WALLS): "same"})
        store = InMemoryStore(index=index_of(store_embed))
        weaver = TruthWeaver(store, "maze", model=judge, embeddings=weaver_embed)
        weaver.insert_many([Candidate(id="c1", text=WALLS, round=1)])
        weaver.insert_many([Candidate(id="c2", text=KEY, round=2)])
        weaver.revert_round(2)
        same = weaver.insert(Candidate(id="c3", text=WALLS_SIMILAR, round=3))
        assert (same.same_meaning, same.added) == (1, 0)  # a true merge, kept
        again = weaver.insert(Candidate(id="c4", text=KEY, round=4))
        assert (again.refused, again.added) == (1, 0)  # a reverted lesson: refused
        [walls] = weaver.truths()
        assert [s.relation for s in walls.provenance] == [Relation.ORIGIN, Relation.SAME_MEANING]
        assert [t.text for t in weaver.truths(TruthStatus.REVERTED)] == [KEY]
        return load_truths(store, "maze")

    shared = CachedEmbeddings(BagOfWords())
    assert scenario(shared, shared) == scenario(BagOfWords(), BagOfWords()) == [WALLS]


def test_cached_embeddings_remember_documents_and_queries_apart() -> None:
    counting = CountingWords()
    cached = CachedEmbeddings(counting, size=2)
    first = cached.embed_documents([WALLS, KEY, WALLS])
    assert first[0] == first[2] and counting.texts == 2  # a repeat in one call: once
    assert cached.embed_query(WALLS) == first[0] and counting.texts == 3  # queries apart
    cached.embed_documents([WALLS])  # the oldest was forgotten (size 2)
    assert counting.texts == 4
    assert cached.model_id == f"{CountingWords.__module__}.CountingWords"
    assert shared_embeddings().model_id == MINILM_MODEL_ID
    with pytest.raises(ValueError, match="size must be at least 1, got 0"):
        CachedEmbeddings(counting, size=0)


def test_a_store_indexed_without_the_cache_opens_with_it(tmp_path: Path) -> None:
    counting = CountingWords()
    with ChromaStore(tmp_path / "s", index=index_of(counting)) as store:
        store.put(("truths", "maze"), "t1", {"text": WALLS})
    with ChromaStore(tmp_path / "s", index=index_of(CachedEmbeddings(counting))) as store:
        [hit] = store.search(("truths", "maze"), query=WALLS, limit=1)
        assert hit.key == "t1"
