"""One lesson per meaning: paraphrases merged, contradictions settled by evidence, refinements
replace, retired lessons stay out without new evidence, and every change can be reverted.

The relation check's answers come from a scripted judge (a table of sentence pairs): what is
tested is what TruthWeaver does with each answer, the deterministic guards (which must
overrule a wrong "same" on a changed number, direction or order, and must not fire on
ordinary paraphrases), and the records it keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import (
    Candidate,
    Evidence,
    Relation,
    Truth,
    TruthStatus,
    TruthWeaver,
    load_truths,
)
from langgraph_games.memory.contest import Contest
from langgraph_games.memory.relations import detail_conflict
from memory_fakes import BagOfWords, ScriptedChatModel, relation_judge

PARAPHRASES = [
    ("Avoid walking into walls", "Do not walk into walls"),
    ("Head for the goal first, then explore", "Go to the goal before exploring"),
    ("Collect every coin", "Pick up all coins"),
    ("Avoid walls: hitting one costs a life", "Stay clear of walls, each hit costs a life"),
    ("Keep two cells away from monsters", "Stay at least two cells from any monster"),
    ("Read the map before moving", "Look at the map before you move"),
    ("Take the key before the door", "Pick up the key first, then go to the door"),
    ("Do not step off the grid", "Never move off the edge of the grid"),
    ("Walk along the open cells", "Move only through cells that are open"),
    ("Check for walls ahead before stepping", "Look for a wall in front before each step"),
]

# (first, second, what a careless judge answers): the guards must turn the "same" answers
# on a changed number, direction or order into contradictions.
CONTRADICTIONS = [
    ("Always move right along the bottom row", "Never move right along the bottom row",
     "contradicts"),
    ("You have 3 lives, so one hit is affordable", "You have two lives, so a hit is affordable",
     "same"),
    ("Turn right at the first wall", "Turn left at the first wall", "same"),
    ("Move right first, then up", "Move up first, then right", "same"),
    ("Collect every coin on the map", "Collect only the coins on your path", "contradicts"),
    ("Walk into monsters to push them away", "Do not walk into monsters", "contradicts"),
    ("Keep 3 cells from a monster", "Keep 1 cell from a monster", "more_specific"),
    ("Take the key before the coins", "Take the coins before the key", "contradicts"),
    ("Open every door you pass", "Open no door you pass", "contradicts"),
    ("Go north until the wall, then east", "Go east until the wall, then north", "same"),
]  # fmt: skip


def cand(cid: str, text: str, round_: int = 1, level: str | None = "L1", **kw: Any) -> Candidate:
    return Candidate(id=cid, text=text, round=round_, level=level, experience=cid, **kw)


def weaver(model: Any = None, **kw: Any) -> TruthWeaver:
    return TruthWeaver(InMemoryStore(), "maze", model=model, embeddings=BagOfWords(), **kw)


class Table:
    """An arbiter that lets the sides in ``winners`` win, recording every contest."""

    def __init__(self, winners: Sequence[str]) -> None:
        self.winners = set(winners)
        self.asked: list[tuple[str, str]] = []

    def __call__(self, candidate: Candidate, incumbent: Truth, active: Sequence[Truth]) -> Contest:
        self.asked.append((candidate.text, incumbent.text))
        wins = candidate.text in self.winners
        return Contest(
            candidate_wins=wins,
            levels=(str(candidate.level),),
            candidate_score=10.0 if wins else 1.0,
            incumbent_score=1.0 if wins else 10.0,
            detail="scripted",
        )


@pytest.mark.parametrize(("first", "second"), PARAPHRASES)
def test_the_guards_never_fire_on_a_paraphrase(first: str, second: str) -> None:
    assert detail_conflict(first, second) is None


def test_natural_paraphrases_are_merged_into_one_active_truth() -> None:
    merged = 0
    for i, (first, second) in enumerate(PARAPHRASES):
        judge = relation_judge({(second, first): "same"})
        w = weaver(judge, merge_threshold=0.05)
        w.insert(cand(f"a{i}", first, 1))
        report = w.insert(cand(f"b{i}", second, 2, level="L2"))
        active = w.truths()
        if len(active) == 1 and report.same_meaning == 1:
            merged += 1
            (truth,) = active
            assert truth.text == first and truth.support == 2
            assert [s.relation for s in truth.provenance] == [
                Relation.ORIGIN,
                Relation.SAME_MEANING,
            ]
            assert truth.provenance[1].text == second  # the wording is kept
            assert len(judge.prompts) == 1  # one call for the one neighbour
    assert merged >= 9, merged


@pytest.mark.parametrize(("first", "second", "answer"), CONTRADICTIONS)
@pytest.mark.parametrize("winner", ["first", "second"])
def test_contradictions_are_never_active_together_and_the_verified_side_stays(
    first: str, second: str, answer: str, winner: str
) -> None:
    arbiter = Table([second] if winner == "second" else [])
    w = weaver(relation_judge({(second, first): answer}), merge_threshold=0.05, arbiter=arbiter)
    w.insert(cand("old", first, 1))
    report = w.insert(cand("new", second, 2, level="L2"))
    assert report.contradictions == 1 and arbiter.asked == [(second, first)]
    active = [t.text for t in w.truths()]
    assert active == [second if winner == "second" else first]
    everything = {t.text: t for t in w.truths(None)}
    loser = everything[first if winner == "second" else second]
    kept = everything[active[0]]
    assert loser.status == TruthStatus.SUPERSEDED and loser.superseded_by == kept.id
    contests = [e for e in loser.evidence + kept.evidence if e.kind == "contest"]
    assert sorted(e.won for e in contests) == [False, True]  # both sides keep the scores
    assert {e.score for e in contests} == {1.0, 10.0}


def test_a_retired_lesson_comes_back_with_new_evidence_and_its_round_reverts_exactly() -> None:
    first, second = "Move right first, then up", "Move up first, then right"
    judge = relation_judge({(second, first): "contradicts"})
    arbiter = Table([second])
    w = weaver(judge, merge_threshold=0.05, arbiter=arbiter)
    w.insert(cand("a", first, 1, level="L1"))
    w.insert(cand("b", second, 2, level="L2"))  # wins: first is superseded
    before = {t.id: t for t in w.truths(None)}
    # Round 3: the first lesson again, from a level it has no record on, wins this time.
    arbiter.winners = {first}
    report = w.insert(cand("c", first, 3, level="L3"))
    assert (report.restored, report.superseded, report.added) == (1, 1, 0)
    restored = {t.text: t for t in w.truths(None)}
    assert [t.text for t in w.truths()] == [first]
    assert [c.action for c in restored[first].history] == ["created", "superseded", "restored"]
    assert restored[second].superseded_by == restored[first].id
    # The round is reverted: the truth base is as it was, and the try is remembered.
    w.revert_round(3)
    after = {t.id: t for t in w.truths(None)}
    assert {k: (t.status, t.superseded_by, t.provenance, t.evidence) for k, t in after.items()} == {
        k: (t.status, t.superseded_by, t.provenance, t.evidence) for k, t in before.items()
    }
    assert [t.text for t in w.truths()] == [second]
    assert "L3" in after[restored[first].id].evidence_levels()
    # The same lesson from the same level again: refused, with the reason.
    report = w.insert(cand("d", first.lower(), 4, level="L3"))
    assert report.refused == 1 and "no new evidence: level L3" in report.outcomes["d"]


def test_a_reverted_lesson_and_a_rewording_are_refused_without_new_evidence() -> None:
    lesson, reworded = (
        "Run for the goal and ignore the map",
        "Rush to the goal without reading the map",
    )
    judge = relation_judge({(reworded, lesson): "same"})
    w = weaver(judge, merge_threshold=0.05)
    w.insert(cand("e1/summary", lesson, 1, level="L1-train03"))
    w.revert_round(1)
    assert w.truths() == []
    for cid, text in (("e2/summary", lesson), ("e3/summary", reworded)):
        report = w.insert(cand(cid, text, 2, level="L1-train03"))
        assert report.refused == 1 and report.added == 0
        assert "reverted" in report.outcomes[cid] and "level L1-train03" in report.outcomes[cid]
    (reverted,) = w.truths(TruthStatus.REVERTED)
    assert [c.action for c in reverted.history][-2:] == ["refused", "refused"]
    # Inserting the refused candidates again is a no-op (a resumed round).
    assert w.insert(cand("e3/summary", reworded, 2, level="L1-train03")).already_present == 1
    # Another level, but the test that reverted it would face the same policy: refused.
    report = w.insert(cand("e4/summary", reworded, 3, level="L1-train05"))
    assert report.refused == 1 and "round 1's test reverted it" in report.outcomes["e4/summary"]
    # The opposite failure: new evidence (another level, and another policy since the
    # revert) is not refused.
    w.insert(cand("e5/summary", "Pick up the key before the door", 4, level="L1-train06"))
    report = w.insert(cand("e6/summary", reworded, 5, level="L1-train05"))
    assert report.added == 1 and reworded in [t.text for t in w.truths()]


def test_a_more_specific_lesson_replaces_the_general_one_and_a_narrower_one_supports_it() -> None:
    general, specific = "Avoid walls", "Avoid walls: each hit costs a life and 50 points"
    narrower = "Stay off the walls"
    judge = relation_judge(
        {(specific, general): "more_specific", (narrower, specific): "more_general"}
    )
    w = weaver(judge, merge_threshold=0.05)
    w.insert(cand("g", general, 1))
    report = w.insert(cand("s", specific, 2, level="L2"))
    assert report.refined == 1
    (truth,) = w.truths()
    assert truth.text == specific and truth.refines == [w.truths(TruthStatus.SUPERSEDED)[0].id]
    assert {s.candidate for s in truth.provenance} == {"g", "s"} and truth.support == 2
    report = w.insert(cand("n", narrower, 3, level="L3"))
    assert report.supported == 1 and w.truths()[0].support == 3
    assert w.truths()[0].provenance[-1].relation == Relation.NARROWER


def test_an_unreadable_relation_is_reported_and_the_lessons_kept_apart() -> None:
    w = weaver(
        ScriptedChatModel(replies=["same or contradicts, hard to say"]), merge_threshold=0.05
    )
    w.insert(cand("a", "Avoid walls", 1))
    report = w.insert(cand("b", "Avoid the walls at the edge", 2))
    assert (report.unresolved, report.added, report.relation_calls) == (1, 1, 1)
    assert len(w.truths()) == 2


def test_exact_duplicates_skip_the_model_and_neighbours_are_bounded() -> None:
    judge = relation_judge({})
    w = weaver(judge, merge_threshold=0.05, max_neighbours=2)
    w.insert_many([cand(f"c{i}", f"Avoid walls number {i} of the maze", 1) for i in range(5)])
    calls = len(judge.prompts)
    w.insert(cand("dup", "avoid walls number 3 of the maze!", 2))
    assert len(judge.prompts) == calls  # the same text: no model call
    w.insert(cand("new", "Avoid walls of the maze at the edge", 2))
    assert len(judge.prompts) == calls + 2  # two neighbours checked, no more


def test_the_truth_limit_keeps_the_lesson_with_more_verified_evidence() -> None:
    first, second = "Move right first, then up", "Move up first, then right"
    w = weaver(relation_judge({}), merge_threshold=0.95)
    proof = Evidence(round=1, kind="verified", levels=["L1"], score=5, baseline=-5)
    w.insert_many([cand("k1", "Pick up the key", 1), cand("k2", "Pick up the key", 1, level="L2")])
    w.insert(cand("a", first, 2, evidence=[proof]))
    arbiter = Table([second])
    judge = relation_judge({(second, first): "contradicts"})
    w2 = TruthWeaver(w.store, "maze", model=judge, embeddings=BagOfWords(), merge_threshold=0.05,
                     arbiter=arbiter)  # fmt: skip
    w2.insert(cand("b", second, 3, level="L3"))
    # The correction won its contest: strength 2 (support 1 + 1 contest), like the key
    # lesson (two verified experiences); it is the newer, so it stays under a limit of 1.
    strengths = {t.text: t.strength for t in w2.truths()}
    assert strengths == {"Pick up the key": 2, second: 2}
    assert load_truths(w2.store, "maze", limit=1) == [second]
    assert first not in load_truths(w2.store, "maze")


def test_without_a_model_only_exact_and_near_duplicates_are_merged() -> None:
    w = weaver()
    report = w.insert_many(
        [
            cand("a", "avoid walls because each wall hit costs one life", 1),
            cand("b", "Avoid walls: because each wall hit costs one life!", 1),
            cand("c", "Stay clear of walls, each hit costs a life", 1),
        ]
    )
    assert (report.near_duplicates, report.added, report.relation_calls) == (1, 2, 0)
