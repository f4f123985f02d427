"""TruthWeaver with a scripted model: de-duplication, merging, provenance, reverts, resume."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import BaseStore, Op, Result
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    Relation,
    RevertError,
    Truth,
    TruthStatus,
    TruthWeaver,
    load_truths,
)
from memory_fakes import BagOfWords, ScriptedChatModel, prompt_entries, relation_judge

WALLS = "avoid walls because each wall hit costs one life"
WALLS_EXACT = "  - Avoid walls because each wall hit costs ONE life!  "
WALLS_NEAR = "avoid walls: because each wall hit costs one life"  # same words, not same text
WALLS_SIMILAR = "stay away from walls since each wall hit costs one life"  # cosine 0.70
KEY = "pick up the key before you go to the goal"
MONSTERS = "monsters move 2 cells per turn so keep 3 cells away"
MONSTERS_SIMILAR = "keep 3 cells away from monsters because they move 2 cells per turn"
MERGED_WALLS = "Stay away from walls: each wall hit costs one life."


def cand(cid: str, text: str, round_: int = 1, **kw: Any) -> Candidate:
    return Candidate(id=cid, text=text, round=round_, **kw)


def weaver(store: BaseStore | None = None, **kw: Any) -> TruthWeaver:
    return TruthWeaver(
        store if store is not None else InMemoryStore(), "maze", embeddings=BagOfWords(), **kw
    )


def by_text(w: TruthWeaver) -> dict[str, Truth]:
    return {t.text: t for t in w.truths()}


def test_exact_and_near_duplicates_are_dropped_but_recorded() -> None:
    w = weaver()  # the embedding-only path: exact text, then the same content words
    report = w.insert_many(
        [
            cand("c1", WALLS, episode="ep1", level="L1"),
            cand("c2", WALLS_EXACT, episode="ep2"),
            cand("c3", WALLS_NEAR, episode="ep3"),
            cand("c4", KEY),
        ]
    )
    assert (report.added, report.exact_duplicates, report.near_duplicates) == (2, 1, 1)
    truths = by_text(w)
    assert sorted(truths) == sorted([WALLS, KEY])
    walls = truths[WALLS]
    assert [(s.candidate, s.relation, s.episode) for s in walls.provenance] == [
        ("c1", Relation.ORIGIN, "ep1"),
        ("c2", Relation.EXACT_DUPLICATE, "ep2"),
        ("c3", Relation.NEAR_DUPLICATE, "ep3"),
    ]
    assert walls.provenance[1].text == " ".join(WALLS_EXACT.split())  # the dropped text is kept
    assert walls.provenance[2].similarity == pytest.approx(1.0)
    assert (walls.level, walls.episode) == ("L1", "ep1")
    assert [c.action for c in walls.history] == ["created", "exact-duplicate", "near-duplicate"]


def test_a_paraphrase_is_recorded_on_the_entry_that_keeps_its_text() -> None:
    model = relation_judge({(WALLS_SIMILAR, WALLS): "same"})
    w = weaver(model=model)
    w.insert_many([cand("c1", WALLS, level="L1"), cand("c2", KEY)])
    first = by_text(w)[WALLS]
    report = w.insert(cand("c3", WALLS_SIMILAR, round_=2, level="L2"))
    assert (report.same_meaning, report.added, report.relation_calls) == (1, 0, 1)
    assert "New lesson (A): " + WALLS_SIMILAR in model.prompts[0]
    assert "maze" in model.prompts[0]
    active = by_text(w)
    assert sorted(active) == sorted([WALLS, KEY])
    walls = active[WALLS]
    assert walls.id == first.id and walls.support == 2
    assert [(s.candidate, s.text, s.relation) for s in walls.provenance] == [
        ("c1", WALLS, Relation.ORIGIN),
        ("c3", WALLS_SIMILAR, Relation.SAME_MEANING),
    ]
    assert walls.history[-1].detail == "same by the table"  # the model's reason is kept
    assert load_truths(w.store, "maze") == [WALLS, KEY]


def test_unrelated_candidates_are_kept_without_asking_the_model() -> None:
    model = ScriptedChatModel(replies=[])
    w = weaver(model=model)
    report = w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", MONSTERS)])
    assert report.added == 3 and model.prompts == []


@pytest.mark.parametrize(
    ("reply", "source"),
    [
        ("", "unresolved"),
        ("I think\nthey are about walls", "unresolved"),
        ('{"relation": "identical"}', "unresolved"),
        ("same, or more_general", "unresolved"),
        (None, "model-error"),
    ],
)
def test_unusable_relation_replies_keep_both_entries(reply: str | None, source: str) -> None:
    model = ScriptedChatModel(replies=[reply or ""], fail=reply is None)
    w = weaver(model=model)
    w.insert(cand("c1", WALLS))
    report = w.insert(cand("c2", WALLS_SIMILAR, round_=2))
    assert (report.unresolved, report.added) == (1, 1)
    assert sorted(by_text(w)) == sorted([WALLS, WALLS_SIMILAR])
    assert w.truths(TruthStatus.SUPERSEDED) == []


def test_unrelated_and_no_model_keep_similar_entries_apart() -> None:
    w = weaver(model=relation_judge({}))
    w.insert(cand("c1", WALLS))
    report = w.insert(cand("c2", WALLS_SIMILAR))
    assert (report.relation_calls, report.added) == (1, 1)
    plain = weaver()  # the embedding-only path
    plain.insert(cand("c1", WALLS))
    report = plain.insert(cand("c2", WALLS_SIMILAR))
    assert (report.similar_kept, report.added) == (1, 1)


def test_append_mode_keeps_everything_as_it_comes() -> None:
    w = weaver(mode="append")
    report = w.insert_many([cand("c1", WALLS), cand("c2", WALLS_EXACT), cand("c3", WALLS_NEAR)])
    assert report.added == 3
    texts = load_truths(w.store, "maze")
    assert sorted(texts) == sorted(
        [WALLS, "- Avoid walls because each wall hit costs ONE life!", WALLS_NEAR]
    )


def test_inserting_is_idempotent_by_candidate_id() -> None:
    w = weaver(model=relation_judge({(WALLS_SIMILAR, WALLS): "same"}))
    batch = [cand("c1", WALLS), cand("c2", KEY), cand("c3", WALLS_SIMILAR, round_=2)]
    w.insert_many(batch)
    before = {t.id: t for t in w.truths(None)}
    report = w.insert_many(batch)
    assert (report.already_present, report.added, report.same_meaning) == (3, 0, 0)
    assert {t.id: t for t in w.truths(None)} == before


class CrashingStore(InMemoryStore):
    """Dies (as a killed process would) on the n-th write batch."""

    def __init__(self, crash_on: int) -> None:
        super().__init__()
        self.writes = 0
        self.crash_on = crash_on

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if any(type(op).__name__ == "PutOp" for op in ops):
            self.writes += 1
            if self.writes == self.crash_on:
                raise KeyboardInterrupt("killed")
        return super().batch(ops)


JUDGE = {
    (WALLS_SIMILAR, WALLS): "same",
    (MONSTERS_SIMILAR, MONSTERS): "more_specific",
}


def judge() -> ScriptedChatModel:
    return relation_judge(JUDGE)


@pytest.mark.parametrize(
    ("crash_on", "every"), [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 4), (2, 4)]
)
def test_a_round_killed_midway_and_resumed_loses_and_duplicates_nothing(
    crash_on: int, every: int
) -> None:
    batch = [
        cand("c1", WALLS),
        cand("c2", KEY),
        cand("c3", WALLS_EXACT),
        cand("c4", WALLS_SIMILAR),
        cand("c5", MONSTERS),
        cand("c6", MONSTERS_SIMILAR),
    ]
    clean = weaver(model=judge())
    clean.insert_many(batch)
    store = CrashingStore(crash_on)
    model = judge()
    crashing = weaver(store, model=model, checkpoint_every=every)
    with pytest.raises(KeyboardInterrupt):
        crashing.insert_many(batch)
    store.crash_on = -1
    weaver(store, model=model, checkpoint_every=every).insert_many(batch)
    resumed = weaver(store)
    assert {t.id: t for t in resumed.truths(None)} == {t.id: t for t in clean.truths(None)}


@pytest.mark.parametrize(("every", "writes"), [(1, 6), (4, 2), (100, 1)])
def test_checkpoint_every_groups_writes(every: int, writes: int) -> None:
    store = CrashingStore(crash_on=-1)
    w = weaver(store, model=judge(), checkpoint_every=every)
    w.insert_many(
        [
            cand(f"c{i}", t)
            for i, t in enumerate(
                [WALLS, KEY, WALLS_EXACT, WALLS_SIMILAR, MONSTERS, MONSTERS_SIMILAR]
            )
        ]
    )
    assert store.writes == writes
    assert len(w.truths()) == 3


def test_reverting_a_round_restores_the_previous_truth_base() -> None:
    w = weaver(model=judge())
    w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c0", MONSTERS)])
    after_round_1 = {t.id: t for t in w.truths(None)}
    report = w.insert_many(
        [
            cand("c3", WALLS_SIMILAR, round_=2),  # the same meaning as c1's entry
            cand("c4", KEY.upper(), round_=2),  # exact duplicate of c2's entry
            cand("c5", MONSTERS_SIMILAR, round_=2),  # refines c0's entry
            cand("c6", "use the shovel to break a wall", round_=2),  # new
        ]
    )
    assert (report.same_meaning, report.exact_duplicates, report.refined, report.added) == (
        1, 1, 1, 2
    )  # fmt: skip
    with pytest.raises(RevertError, match=r"round 1 .* rounds \[2\]"):
        w.revert_round(1)
    undone = w.revert_round(2)
    assert (undone.reverted, undone.restored, undone.detached) == (2, 1, 2)
    now = {t.id: t for t in w.truths(None)}
    for key, truth in after_round_1.items():  # as before, plus what the revert recorded
        assert now[key].model_copy(update={"history": truth.history}) == truth
        assert [c.action for c in now[key].history[len(truth.history) :]] in ([], ["reverted"])
    assert {t.status for k, t in now.items() if k not in after_round_1} == {TruthStatus.REVERTED}
    assert sorted(load_truths(w.store, "maze")) == sorted([WALLS, KEY, MONSTERS])
    # The reverted round's lessons are remembered: the same from the same level is refused.
    assert w.insert_many([cand("c7", MONSTERS_SIMILAR, round_=2)]).refused == 1
    w.revert_round(2)
    w.revert_round(1)
    assert load_truths(w.store, "maze") == []


def test_rewrite_mode_keeps_provenance_and_can_be_reverted() -> None:
    merged = "Stay away from walls; each wall hit costs one life"
    model = ScriptedChatModel(replies=[f"1. {merged}\n2. {KEY}"])
    w = weaver(model=model, mode="rewrite")
    report = w.insert_many([cand("c1", WALLS), cand("c2", WALLS_SIMILAR), cand("c3", KEY)])
    assert (report.added, report.rewritten) == (3, 1)
    assert prompt_entries(model.prompts[0]) == [WALLS, WALLS_SIMILAR, KEY]
    truths = by_text(w)
    assert sorted(truths) == sorted([merged, KEY])
    assert sorted(m.text for m in truths[merged].merged_from) == sorted([WALLS, WALLS_SIMILAR])
    assert {s.candidate for s in truths[merged].provenance} == {"c1", "c2"}
    w.revert_round(1)
    assert load_truths(w.store, "maze") == []
    bad = weaver(model=ScriptedChatModel(replies=["no list here"]), mode="rewrite")
    report = bad.insert_many([cand("c1", WALLS), cand("c2", KEY)])
    assert report.failure_reasons == Counter(["no-list"]) and len(bad.truths()) == 2


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_provenance_is_never_dropped_on_random_rounds(seed: int) -> None:
    rng = random.Random(seed)
    pool = [WALLS, WALLS_EXACT, WALLS_NEAR, WALLS_SIMILAR, KEY, KEY.upper(), MONSTERS,
            MONSTERS_SIMILAR, "use the shovel to break a wall", "use a shovel to break walls",
            "collect coins only when no monster is near", "coins are worth 500 points",
            "collect coins when no monster is near them", "each coin is worth 500 points",
            "stay away from walls because a wall hit costs one life"]  # fmt: skip
    answers = ["same", "more_specific", "more_general", "contradicts", "unrelated", "garbage"]
    model = ScriptedChatModel(respond=lambda p: json.dumps({"relation": rng.choice(answers)}))
    w = weaver(model=model)
    live: dict[int, set[str]] = {}
    n = 0
    for round_ in range(1, 16):
        batch = []
        for _ in range(rng.randint(1, 5)):
            n += 1
            batch.append(cand(f"c{n}", rng.choice(pool), round_=round_))
        w.insert_many(batch)
        live[round_] = {c.id for c in batch}
        if rng.random() < 0.3:
            w.revert_round(round_)
            del live[round_]
        everything = {t.id: t for t in w.truths(None)}
        recorded = {c for t in everything.values() if t.live for c in t.candidate_ids()}
        recorded |= {c for t in everything.values() for c in t.turned_away()}
        assert recorded == set().union(*live.values())  # no live candidate is ever lost
        for t in everything.values():
            if t.status == TruthStatus.SUPERSEDED:
                assert t.superseded_by in everything
            for r in t.refines:
                assert everything[r].superseded_by == t.id or not t.active
        # Each active truth's origin is its own: no candidate is the origin of two.
        origins = Counter(t.provenance[0].candidate for t in w.truths())
        assert set(origins.values()) <= {1}


def test_the_same_scenario_on_a_chroma_store(tmp_path: Path) -> None:
    def scenario(store: BaseStore) -> list[str]:
        w = weaver(store, model=judge())
        w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", WALLS_EXACT)])
        w.insert_many([cand("c4", WALLS_SIMILAR, round_=2), cand("c5", MONSTERS, round_=2)])
        w.revert_round(2)
        w.insert_many([cand("c6", MONSTERS, round_=3)])
        return sorted(t.model_dump_json() for t in w.truths(None))

    with ChromaStore(tmp_path / "s") as chroma:
        assert scenario(chroma) == scenario(InMemoryStore())


def test_defaults_with_the_offline_model_on_real_paraphrases() -> None:
    first = "Avoid walking into walls because it costs 1 life."
    table = {
        ("Do not walk into walls; hitting one costs 1 life.", first): "same",
        ("Avoid walking into walls since it costs 3 lives.", first): "same",
    }
    model = relation_judge(table)
    w = TruthWeaver(InMemoryStore(), "maze", model=model)  # MiniLM, default thresholds
    w.insert(cand("c1", first))
    same = w.insert(cand("c2", "Do not walk into walls; hitting one costs 1 life."))
    number = w.insert(cand("c3", "Avoid walking into walls since it costs 3 lives."))
    other = w.insert(cand("c4", "Use the shovel to break walls when the path is blocked."))
    assert (same.same_meaning, other.added) == (1, 1)
    # The judge said "same", but a number changed: the guard makes it a contradiction.
    assert (number.contradictions, number.superseded) == (1, 1)
    assert len(model.prompts) == 2  # c2 and c3 asked once each; c4 has no near neighbour


@pytest.mark.parametrize("mode", ["merge", "rewrite", "append"])
def test_written_is_the_truth_base_the_insert_left(mode: str) -> None:
    model = judge() if mode == "merge" else None
    w = weaver(model=model, mode=mode)
    assert w.written() is None
    w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", WALLS_EXACT)])
    w.insert_many([cand("c4", WALLS_SIMILAR, round_=2), cand("c5", MONSTERS, round_=2)])
    assert w.written() == w.truths(None) and len(w.truths(None)) >= 3
    w.revert_round(2)
    assert w.written() is None  # a revert leaves it to the next read
