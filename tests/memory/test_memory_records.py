"""Experience and truth records in a store, and the truths hook strategies use."""

from __future__ import annotations

import pydantic
import pytest
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    Experience,
    ExperienceStatus,
    MemoryLayerError,
    TruthWeaver,
    candidates_from_experience,
    format_truths,
    load_experiences,
    load_truths,
    minilm_index,
    save_experience,
    truths_namespace,
)
from memory_fakes import BagOfWords


def experience(eid: str, level: str = "L1", **kw: object) -> Experience:
    return Experience(
        id=eid,
        game="maze",
        level=level,
        episode=f"ep-{eid}",
        round=1,
        text="Due to rushing, I hit a wall. Next time, I should check the cell first.",
        strengths=["Found the key early", "  "],
        weaknesses=["Wasted steps near the start"],
        metrics={"score": 120.0, "success": 0.0},
        **kw,  # type: ignore[arg-type]
    )


def test_experiences_round_trip_and_filter() -> None:
    store = InMemoryStore()
    save_experience(store, experience("e1"))
    save_experience(store, experience("e2", level="L2", status=ExperienceStatus.PROMOTED))
    save_experience(store, experience("e1", replay_metrics={"score": 300.0, "success": 1.0}))
    found = load_experiences(store, "maze")
    assert [e.id for e in found] == ["e1", "e2"]
    assert found[0].replay_metrics == {"score": 300.0, "success": 1.0}
    assert [e.id for e in load_experiences(store, "maze", status=ExperienceStatus.PROMOTED)] == [
        "e2"
    ]
    assert [e.id for e in load_experiences(store, "maze", level="L1")] == ["e1"]
    assert load_experiences(store, "othello") == []


def test_a_damaged_record_is_named() -> None:
    store = InMemoryStore()
    store.put(("experiences", "maze"), "bad", {"id": "bad", "game": "maze"})
    with pytest.raises(MemoryLayerError, match=r"\('experiences', 'maze'\)/bad is not a valid"):
        load_experiences(store, "maze")


def test_candidates_from_an_experience() -> None:
    exp = experience("e1", replay_metrics={"score": 300.0})
    cands = candidates_from_experience(exp, round=3)
    assert [(c.id, c.kind, c.round) for c in cands] == [
        ("e1/summary", "summary", 3),
        ("e1/strength/0", "strength", 3),
        ("e1/weakness/0", "weakness", 3),
    ]  # the blank strength is skipped
    assert {(c.experience, c.episode, c.level) for c in cands} == {("e1", "ep-e1", "L1")}
    assert cands[0].metrics == {"score": 300.0}
    with pytest.raises(pydantic.ValidationError, match="needs some text"):
        Candidate(id="x", text="   ", round=1)


def test_load_truths_for_prompts() -> None:
    store = InMemoryStore()
    weaver = TruthWeaver(store, "maze", embeddings=BagOfWords())
    weaver.insert_many([Candidate(id="a", text="avoid walls", round=1)])
    weaver.insert_many([Candidate(id="b", text="take the key first", round=2)])
    weaver.insert_many([Candidate(id="c", text="collect coins when safe", round=3)])
    TruthWeaver(store, "othello", embeddings=BagOfWords()).insert(
        Candidate(id="o", text="take corners", round=1)
    )
    store.put((*truths_namespace("maze"), "drafts"), "d", {"text": "draft", "status": "active"})
    assert load_truths(store, "maze") == [
        "avoid walls",
        "take the key first",
        "collect coins when safe",
    ]
    # Equal support (one source each): the newest two, listed in the order they were made.
    assert load_truths(store, "maze", limit=2) == ["take the key first", "collect coins when safe"]
    assert load_truths(store, "othello") == ["take corners"]
    weaver.revert_round(3)
    assert load_truths(store, "maze") == ["avoid walls", "take the key first"]
    assert load_truths(None, "maze") == [] and load_truths(store, "maze", limit=0) == []
    assert format_truths([]) == ""
    assert format_truths(["avoid walls", "take\nthe key"]).splitlines()[1:] == [
        "1. avoid walls",
        "2. take the key",
    ]


def test_load_truths_by_relevance_on_an_indexed_chroma_store() -> None:
    with ChromaStore(index=minilm_index(["text"])) as store:
        weaver = TruthWeaver(store, "maze")
        weaver.insert_many(
            [
                Candidate(id="a", text="Walking into a wall costs a life.", round=1),
                Candidate(id="b", text="The goal stays locked until you carry the key.", round=1),
                Candidate(id="c", text="Coins are worth 500 points.", round=1),
            ]
        )
        top = load_truths(store, "maze", query="I reached the exit but it was locked", limit=1)
        assert top == ["The goal stays locked until you carry the key."]
        assert len(load_truths(store, "maze")) == 3
