"""Corrections are not near duplicates; support; the truth limit keeps the best-supported.

The sentence pairs are real: with the offline MiniLM model each pair scores at or above
the default duplicate threshold (0.95) although the two lessons say opposite things.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import (
    Candidate,
    Relation,
    Truth,
    TruthStatus,
    TruthWeaver,
    default_embeddings,
    load_truths,
    truths_namespace,
)
from langgraph_games.memory.meaning import content_words, lost_markers, same_meaning
from memory_fakes import BagOfWords, relation_judge

ALWAYS = "Next time, I should always move right along the bottom row first."
NEVER = "Next time, I should never move right along the bottom row first."
RIGHT = "Due to hitting a wall, I lost a life. Next time, I should turn right at the first wall."
LEFT = "Due to hitting a wall, I lost a life. Next time, I should turn left at the first wall."
THREE = "You have 3 lives, so one wall hit is affordable."
TWO = "You have 2 lives, so one wall hit is affordable."
REWORDED = "Next time, you should always move right along the bottom row first!"

CORRECTIONS = [(ALWAYS, NEVER), (RIGHT, LEFT), (THREE, TWO)]


def cand(cid: str, text: str, round_: int = 1, **kw: Any) -> Candidate:
    return Candidate(id=cid, text=text, round=round_, **kw)


def cosine(a: str, b: str) -> float:
    rows = np.asarray(default_embeddings().embed_documents([a, b]))
    return float(rows[0] @ rows[1])


@pytest.mark.parametrize(("old", "new"), CORRECTIONS, ids=["never", "left", "lives"])
def test_a_correction_is_not_dropped_as_a_near_duplicate(old: str, new: str) -> None:
    assert cosine(old, new) >= 0.95  # what made it look like a duplicate
    weaver = TruthWeaver(InMemoryStore(), "maze")  # real embeddings, default thresholds
    weaver.insert(cand("old", old))
    report = weaver.insert(cand("new", new, round_=2))
    assert (report.near_duplicates, report.near_different, report.added) == (0, 1, 1)
    assert sorted(t.text for t in weaver.truths()) == sorted([old, new])
    # ...so the round changed the truth base (and will be evaluated).
    assert [t.round for t in weaver.truths() if t.text == new] == [2]


def test_a_rewording_is_still_a_near_duplicate_and_adds_support() -> None:
    assert cosine(ALWAYS, REWORDED) >= 0.95 and same_meaning(ALWAYS, REWORDED)
    weaver = TruthWeaver(InMemoryStore(), "maze")
    weaver.insert(cand("c1", ALWAYS, experience="e1"))
    report = weaver.insert(cand("c2", REWORDED, round_=2, experience="e2"))
    assert (report.near_duplicates, report.near_different, report.added) == (1, 0, 0)
    (truth,) = weaver.truths()
    assert truth.text == ALWAYS and truth.support == 2
    assert [(s.candidate, s.relation) for s in truth.provenance] == [
        ("c1", Relation.ORIGIN),
        ("c2", Relation.NEAR_DUPLICATE),
    ]
    assert truth.provenance[1].text == REWORDED


def test_with_a_model_a_correction_supersedes_what_it_corrects() -> None:
    model = relation_judge({(NEVER, ALWAYS): "contradicts"})
    weaver = TruthWeaver(InMemoryStore(), "maze", model=model)  # no arbiter: newer wins
    weaver.insert(cand("c1", ALWAYS))
    report = weaver.insert(cand("c2", NEVER, round_=2))
    assert (report.contradictions, report.superseded, report.added) == (1, 1, 1)
    assert [t.text for t in weaver.truths()] == [NEVER]
    (old,) = weaver.truths(TruthStatus.SUPERSEDED)
    assert old.text == ALWAYS and old.superseded_by == weaver.truths()[0].id
    assert "newer verified lesson" in old.history[-1].detail


def test_the_meaning_rules() -> None:
    assert same_meaning(
        "Don't hit walls: it costs 3 lives.", "Do not hit the wall, costs three lives"
    )
    assert not same_meaning("Move up then right.", "Move right then up.")
    assert not same_meaning("Avoid walls.", "Always avoid walls.")
    assert not same_meaning("Collect coins before the goal.", "Collect coins after the goal.")
    assert content_words("I can't see") == ["can", "not", "see"]
    assert lost_markers("Keep 3 cells away.", ["Keep three cells away, never closer."]) == ["never"]


def test_support_counts_verified_wins_and_old_stores_still_read() -> None:
    weaver = TruthWeaver(InMemoryStore(), "maze", embeddings=BagOfWords())
    weaver.insert_many(
        [
            cand("e1/summary", "avoid walls because each hit costs a life", experience="e1"),
            cand("e1/weakness/0", "Avoid walls because each hit costs a life!", experience="e1"),
            cand("e2/summary", "avoid walls because each hit costs a life", experience="e2"),
            cand("hand", "AVOID walls because each hit costs a life"),
        ]
    )
    (truth,) = weaver.truths()
    assert truth.support == 3  # e1 (twice, counted once), e2, and one by hand
    value = truth.to_value()
    assert value["support"] == 3
    old = {k: v for k, v in value.items() if k != "support"}  # written before the field
    store = InMemoryStore()
    store.put(truths_namespace("maze"), truth.id, old)
    assert TruthWeaver(store, "maze", embeddings=BagOfWords()).truths()[0].support == 3
    assert Truth.model_validate({**value, "support": 99}).support == 3  # derived, not trusted
    assert load_truths(store, "maze", limit=1) == [truth.text]


WALLS = "avoid walls because each wall hit costs one life"
WALLS_SIMILAR = "stay away from walls since each wall hit costs one life"
KEY = "pick up the key before you go to the goal"
COINS = "collect the coins in the first row"


def test_the_truth_limit_keeps_the_reinforced_lesson() -> None:
    model = relation_judge({(WALLS_SIMILAR, WALLS): "same"})
    weaver = TruthWeaver(InMemoryStore(), "maze", model=model, embeddings=BagOfWords())
    weaver.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", COINS)])
    assert load_truths(weaver.store, "maze", limit=2) == [KEY, COINS]  # equal support: newest
    # Round 2 confirms the walls lesson in other words: it gains support, keeps its text.
    assert weaver.insert(cand("c4", WALLS_SIMILAR, round_=2)).same_meaning == 1
    assert load_truths(weaver.store, "maze") == [WALLS, KEY, COINS]
    # The limit keeps the lesson with the most support, then the newest; prompt order
    # stays the order the lessons were made.
    assert load_truths(weaver.store, "maze", limit=1) == [WALLS]
    assert load_truths(weaver.store, "maze", limit=2) == [WALLS, COINS]


def test_the_truth_limit_prefers_a_lesson_confirmed_by_a_duplicate() -> None:
    weaver = TruthWeaver(InMemoryStore(), "maze", embeddings=BagOfWords())
    weaver.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", COINS)])
    weaver.insert(cand("c4", KEY.upper(), round_=2))  # exact duplicate: support 2
    assert load_truths(weaver.store, "maze", limit=1) == [KEY]
    assert load_truths(weaver.store, "maze", limit=2) == [KEY, COINS]
    weaver.revert_round(2)  # the duplicate is detached: support back to 1
    assert load_truths(weaver.store, "maze", limit=1) == [COINS]
    assert [t.status for t in weaver.truths(None)] == [TruthStatus.ACTIVE] * 3
