"""TruthWeaver with a scripted model: de-duplication, merging, provenance, reverts, resume."""

from __future__ import annotations

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
from memory_fakes import BagOfWords, ScriptedChatModel, prompt_entries

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
    w = weaver(model=ScriptedChatModel(replies=[]))
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


def test_similar_entries_are_merged_keeping_ids_and_texts() -> None:
    model = ScriptedChatModel(replies=[f"Sure.\nMERGED: {MERGED_WALLS}"])
    w = weaver(model=model)
    w.insert_many([cand("c1", WALLS, level="L1"), cand("c2", KEY)])
    first = by_text(w)[WALLS]
    report = w.insert(cand("c3", WALLS_SIMILAR, round_=2, level="L2"))
    assert (report.merged, report.added) == (1, 0)
    assert prompt_entries(model.prompts[0]) == [WALLS, WALLS_SIMILAR]
    assert "maze" in model.prompts[0]
    active = by_text(w)
    assert sorted(active) == sorted([MERGED_WALLS, KEY])
    merged = active[MERGED_WALLS]
    assert (merged.kind, merged.round, merged.level) == ("merged", 2, None)
    assert [(m.id, m.text, m.round) for m in merged.merged_from] == [(first.id, WALLS, 1)]
    assert [(s.candidate, s.text) for s in merged.provenance] == [
        ("c1", WALLS),
        ("c3", WALLS_SIMILAR),
    ]
    folded = {t.id: t for t in w.truths(TruthStatus.MERGED)}
    assert folded[first.id].merged_into == merged.id
    assert folded[first.id].merged_round == 2
    assert load_truths(w.store, "maze") == [KEY, MERGED_WALLS]


def test_unrelated_candidates_are_kept_without_asking_the_model() -> None:
    model = ScriptedChatModel(replies=[])
    w = weaver(model=model)
    report = w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", MONSTERS)])
    assert report.added == 3 and model.prompts == []


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty"),
        ("I think\nthey are the same lesson", "no-merged-line"),
        ("MERGED: walls", "length"),
        ("MERGED: These lessons overlap: 1. avoid walls", "echo"),
        ("MERGED: collect each coin quickly, one at a time", "drifted"),
        (None, "model-error"),
    ],
)
def test_malformed_replies_keep_both_entries(reply: str | None, reason: str) -> None:
    model = ScriptedChatModel(replies=[reply or ""], fail=reply is None)
    w = weaver(model=model)
    w.insert(cand("c1", WALLS))
    report = w.insert(cand("c2", WALLS_SIMILAR, round_=2))
    assert (report.merge_failures, report.failure_reasons, report.added) == (
        1,
        Counter([reason]),
        1,
    )
    assert sorted(by_text(w)) == sorted([WALLS, WALLS_SIMILAR])
    assert w.truths(TruthStatus.MERGED) == []


def test_a_merge_that_loses_a_number_is_refused() -> None:
    w = weaver(model=ScriptedChatModel(replies=["MERGED: keep away from monsters, they move fast"]))
    w.insert(cand("c1", MONSTERS))
    report = w.insert(cand("c2", MONSTERS_SIMILAR))
    assert report.failure_reasons == Counter(["lost-number"])
    assert len(w.truths()) == 2


def test_separate_and_no_model_keep_similar_entries_apart() -> None:
    w = weaver(model=ScriptedChatModel(replies=["SEPARATE"]))
    w.insert(cand("c1", WALLS))
    report = w.insert(cand("c2", WALLS_SIMILAR))
    assert (report.similar_kept, report.merge_failures, report.added) == (1, 0, 1)
    plain = weaver()  # the embedding-only path
    plain.insert(cand("c1", WALLS))
    report = plain.insert(cand("c2", WALLS_SIMILAR))
    assert (report.similar_kept, report.added) == (1, 1)


def test_a_bare_single_line_reply_is_accepted() -> None:
    w = weaver(model=ScriptedChatModel(replies=[MERGED_WALLS]))
    w.insert(cand("c1", WALLS))
    assert w.insert(cand("c2", WALLS_SIMILAR)).merged == 1


def test_append_mode_keeps_everything_as_it_comes() -> None:
    w = weaver(mode="append")
    report = w.insert_many([cand("c1", WALLS), cand("c2", WALLS_EXACT), cand("c3", WALLS_NEAR)])
    assert report.added == 3
    texts = load_truths(w.store, "maze")
    assert sorted(texts) == sorted(
        [WALLS, "- Avoid walls because each wall hit costs ONE life!", WALLS_NEAR]
    )


def test_inserting_is_idempotent_by_candidate_id() -> None:
    w = weaver(model=ScriptedChatModel(replies=[MERGED_WALLS]))
    batch = [cand("c1", WALLS), cand("c2", KEY), cand("c3", WALLS_SIMILAR, round_=2)]
    w.insert_many(batch)
    before = {t.id: t for t in w.truths(None)}
    report = w.insert_many(batch)
    assert (report.already_present, report.added, report.merged) == (3, 0, 0)
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


def scripted_merge(prompt: str) -> str:
    return "MERGED: " + "; ".join(prompt_entries(prompt))


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
    clean = weaver(model=ScriptedChatModel(respond=scripted_merge))
    clean.insert_many(batch)
    store = CrashingStore(crash_on)
    model = ScriptedChatModel(respond=scripted_merge)
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
    w = weaver(store, model=ScriptedChatModel(respond=scripted_merge), checkpoint_every=every)
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
    w = weaver(model=ScriptedChatModel(replies=[f"MERGED: {MERGED_WALLS}"]))
    w.insert_many([cand("c1", WALLS), cand("c2", KEY)])
    after_round_1 = {t.id: t for t in w.truths(None)}
    report = w.insert_many(
        [
            cand("c3", WALLS_SIMILAR, round_=2),  # merged with c1's entry
            cand("c4", KEY.upper(), round_=2),  # exact duplicate of c2's entry
            cand("c5", MONSTERS, round_=2),  # new
        ]
    )
    assert (report.merged, report.exact_duplicates, report.added) == (1, 1, 1)
    with pytest.raises(RevertError, match=r"round 1 .* rounds \[2\]"):
        w.revert_round(1)
    undone = w.revert_round(2)
    assert (undone.reverted, undone.restored, undone.detached) == (2, 1, 1)
    now = {t.id: t for t in w.truths(None)}
    assert {k: now[k] for k in after_round_1} == after_round_1
    assert {t.status for k, t in now.items() if k not in after_round_1} == {TruthStatus.REVERTED}
    assert sorted(load_truths(w.store, "maze")) == sorted([WALLS, KEY])
    # The reverted round can be played again: its candidates are new again.
    assert w.insert_many([cand("c5", MONSTERS, round_=2)]).added == 1
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
    replies = [scripted_merge, lambda p: "garbage", lambda p: "SEPARATE", lambda p: "MERGED: x"]
    model = ScriptedChatModel(respond=lambda p: rng.choice(replies)(p))
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
        owners = Counter(s.candidate for t in w.truths() for s in t.provenance)
        assert set(owners) == set().union(*live.values())
        assert set(owners.values()) == {1}  # each candidate on exactly one active truth
        everything = {t.id: t for t in w.truths(None)}
        for t in everything.values():
            if t.status == TruthStatus.MERGED:
                assert t.merged_into in everything
            for m in t.merged_from:
                assert everything[m.id].text == m.text


def test_the_same_scenario_on_a_chroma_store(tmp_path: Path) -> None:
    def scenario(store: BaseStore) -> list[str]:
        w = weaver(store, model=ScriptedChatModel(replies=[f"MERGED: {MERGED_WALLS}"]))
        w.insert_many([cand("c1", WALLS), cand("c2", KEY), cand("c3", WALLS_EXACT)])
        w.insert_many([cand("c4", WALLS_SIMILAR, round_=2), cand("c5", MONSTERS, round_=2)])
        w.revert_round(2)
        w.insert_many([cand("c6", MONSTERS, round_=3)])
        return sorted(t.model_dump_json() for t in w.truths(None))

    with ChromaStore(tmp_path / "s") as chroma:
        assert scenario(chroma) == scenario(InMemoryStore())


def test_defaults_with_the_offline_model_on_real_paraphrases() -> None:
    model = ScriptedChatModel(respond=scripted_merge)
    w = TruthWeaver(InMemoryStore(), "maze", model=model)
    w.insert(cand("c1", "Avoid walking into walls because it costs a life."))
    near = w.insert(cand("c2", "Avoid walking into the walls, since it costs a life."))
    # "a" -> "one" scores 0.96 too, but a changed number word is left to the merge step.
    number = w.insert(cand("c3", "Avoid walking into walls since it costs one life."))
    similar = w.insert(cand("c4", "Do not walk into walls; hitting one costs a life."))
    other = w.insert(cand("c5", "Use the shovel to break walls when the path is blocked."))
    assert (near.near_duplicates, other.added) == (1, 1)
    assert (number.near_different, number.merged, similar.merged) == (1, 1, 1)
