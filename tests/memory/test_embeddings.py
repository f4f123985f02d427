"""The offline MiniLM embeddings: meaningful, deterministic, offline, and loud when damaged."""

from __future__ import annotations

import socket
from typing import Any

import numpy as np
import pytest

from langgraph_games.memory import (
    ChromaStore,
    EmbeddingModelError,
    MiniLMEmbeddings,
    default_embeddings,
    minilm_index,
)
from langgraph_games.memory import embeddings as module

TRIPLES = [
    # (anchor, related, unrelated)
    ("avoid monsters at night", "stay away from enemies", "collect coins"),
    (
        "you must pick up the key before the goal",
        "the goal needs the key first",
        "walls cost a life",
    ),
    ("corner squares can never be flipped", "take the corners in othello", "roll the dice twice"),
    (
        "match three tiles to clear them",
        "clearing tiles by matching them",
        "the king moves one square",
    ),
]


def test_related_sentences_score_higher_than_unrelated_ones() -> None:
    emb = default_embeddings()
    for anchor, related, unrelated in TRIPLES:
        a, r, u = emb.embed_array([anchor, related, unrelated])
        assert float(a @ r) > float(a @ u) + 0.1, (anchor, float(a @ r), float(a @ u))


def test_vectors_are_unit_deterministic_and_independent_of_batching() -> None:
    emb = default_embeddings()
    texts = ["short", "a much longer sentence about walls and monsters and coins", "", "key"]
    together = emb.embed_array(texts)
    alone = np.stack([emb.embed_array([t])[0] for t in texts])
    assert together.shape == (4, 384)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.abs(together - alone).max() < 1e-4  # padding does not leak into the mean
    assert np.allclose(emb.embed_documents(texts), together, atol=1e-6)
    assert np.allclose(emb.embed_query("key"), together[3], atol=1e-6)
    assert emb.embed_array([]).shape == (0, 384)
    long = emb.embed_array(["walls " * 2000])  # truncated at 256 tokens, no error
    assert np.isfinite(long).all()


def test_search_ranks_a_paraphrase_first() -> None:
    with ChromaStore(index=minilm_index(["text"])) as store:
        lessons = {
            "monsters": "A zombie attacked me at night, so stay in a shelter after dark.",
            "coins": "Coins are worth 500 points; collect them when the path is safe.",
            "walls": "Walking into a wall costs a life.",
            "key": "The goal stays locked until you carry the key.",
        }
        for key, text in lessons.items():
            store.put(("truths", "maze"), key, {"text": text})
        queries = {
            "monster hit me in the dark": "monsters",
            "I reached the exit but it was locked": "key",
            "bumping into obstacles hurts": "walls",
            "gold gives a lot of points": "coins",
        }
        for query, expected in queries.items():
            assert store.search(("truths",), query=query)[0].key == expected, query


def test_loading_never_touches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("network access while loading the embedding model")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    fresh = MiniLMEmbeddings(batch_size=2)
    assert len(fresh.embed_query("offline")) == 384


def test_a_damaged_model_or_missing_package_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "_MODEL_SHA256", "0" * 64)
    with pytest.raises(EmbeddingModelError, match="does not match its pinned sha256"):
        MiniLMEmbeddings().embed_query("x")
    monkeypatch.setattr(module, "_MODEL_PACKAGE", "no_such_model_package_here")
    with pytest.raises(EmbeddingModelError, match=r"not installed.*install -e '\.\[memory"):
        MiniLMEmbeddings().embed_query("x")
    monkeypatch.setattr(module, "_TOKENIZER_SHA256", "0" * 64)
    with pytest.raises(EmbeddingModelError, match="vendored tokenizer"):
        MiniLMEmbeddings().embed_query("x")


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        MiniLMEmbeddings(batch_size=0)
    with pytest.raises(ValueError, match="max_length"):
        MiniLMEmbeddings(max_length=4)
    with pytest.raises(TypeError, match="not a single string"):
        default_embeddings().embed_array("oops")  # type: ignore[arg-type]
