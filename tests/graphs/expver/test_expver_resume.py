"""A training run killed at any write and run again ends exactly as an uninterrupted one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.store.base import BaseStore, Op, PutOp, Result
from langgraph.store.memory import InMemoryStore

from expver_support import (
    GOOD,
    OVERFIT,
    SplitPlayer,
    has,
    lesson_players,
    level,
    overfit_test_policy,
    replay_only,
)
from expver_support import reflection as reflection_text
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions, MemoryLedger
from langgraph_games.memory import TruthWeaver, load_experiences
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords, relation_judge


class Crash(Exception):
    """The simulated crash."""


class Writes:
    """Counts durable writes (store puts, ledger adds); raises before write number ``at``."""

    def __init__(self, at: int | None = None) -> None:
        self.at = at
        self.count = 0

    def tick(self) -> None:
        self.count += 1
        if self.at is not None and self.count == self.at:
            self.at = None  # one crash per run
            raise Crash(f"killed before write {self.count}")


class CrashingStore(BaseStore):
    """An InMemoryStore whose writes can crash (nothing of the crashing batch is applied)."""

    def __init__(self, inner: InMemoryStore, writes: Writes) -> None:
        self.inner, self.writes = inner, writes

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if any(isinstance(op, PutOp) for op in ops):
            self.writes.tick()
        return self.inner.batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return self.batch(ops)


class CrashingLedger(MemoryLedger):
    def __init__(self, writes: Writes) -> None:
        super().__init__()
        self.writes = writes
        self.adds: Counter[str] = Counter()

    def add(self, record: dict[str, Any]) -> None:
        self.writes.tick()
        self.adds[str(record["id"])] += 1
        super().add(record)


OVERFIT2 = f"{OVERFIT} at full speed"
CONTRA = "Walk the longest open path to the goal"
NOT_AGAIN = "(do not propose these again):"
REFLECTIONS = {
    ("train-L1-01", False): reflection_text(GOOD),
    ("train-L1-03", False): reflection_text(OVERFIT),
    ("train-L1-03", True): reflection_text(OVERFIT2),
    ("train-L1-01", True): reflection_text(CONTRA),
}
STEPS = 12  # the shortest paths of these maps are 12 one-cell moves


def summary(lesson: str) -> str:
    return f"Due to aimless moves, the goal was missed. Next time, I should {lesson.lower()}."


def reflect(messages: Sequence[BaseMessage]) -> str:
    """InsightForce: a lesson per level, another once reverted lessons are listed."""
    text = "\n".join(str(m.content) for m in messages)
    for (key, later), reply in REFLECTIONS.items():
        if key in text and (NOT_AGAIN in text) == later:
            return reply
    raise AssertionError(text)


def judge() -> Any:
    """The relation check: CONTRA contradicts GOOD; everything else is unrelated."""
    return relation_judge({(summary(CONTRA), summary(GOOD)): "contradicts"})


TRAIN = [level("train", 1, STEPS), level("train", 3, STEPS)]
TEST = [level("eval", 2, STEPS)]


def options(rounds: int = 5) -> ExpVerOptions:
    return ExpVerOptions(
        rounds=rounds,
        levels_per_round=1,
        revert_retries=1,
        episode=EpisodeOptions(max_retries=0, max_steps=STEPS),
    )


def graph(store: BaseStore, ledger: MemoryLedger) -> Any:
    """Round 1 learns GOOD (kept); round 2 OVERFIT (reverted); round 3 retries the level and
    learns OVERFIT2 (reverted again: the one retry allowed); round 4 moves on to the next
    level, where CONTRA contradicts GOOD: a contest is replayed, GOOD keeps its place and
    CONTRA is recorded as superseded (kept); round 5 proposes OVERFIT2 again from the level
    it was reverted on: refused (unchanged). InsightForce's prompt lists the reverted
    lessons from round 3 on.
    """
    return create_expver_graph(
        judge(),
        "maze",
        train_levels=TRAIN,
        test_levels=TEST,
        store=store,
        options=options(),
        player_factory=lesson_players(replay_lesson, on_test_maps),
        reflect_model=ScriptedChatModel(script=reflect),
        embeddings=BagOfWords(),
        ledger=ledger,
    )


def replay_lesson(truths: str) -> bool:
    return "From my last attempt" in truths and (has(GOOD, truths) or has(OVERFIT, truths))


def on_test_maps(truths: str) -> bool:
    return not has(OVERFIT, truths)


def snapshot(store: BaseStore, ledger: MemoryLedger) -> dict[str, Any]:
    """Everything durable, without wall-clock fields."""
    weaver = TruthWeaver(store, "maze", embeddings=BagOfWords())
    records = {}
    for key, record in ledger.records.items():
        if record["kind"] == "episode":
            records[key] = (record["metrics"], record["truths"], record["result"]["record"])
        else:
            records[key] = record
    return {
        "truths": sorted((t.model_dump(mode="json") for t in weaver.truths(status=None)), key=str),
        "experiences": [e.model_dump(mode="json") for e in load_experiences(store, "maze")],
        "records": records,
    }


async def reference() -> tuple[dict[str, Any], int]:
    writes = Writes()
    inner, ledger = InMemoryStore(), CrashingLedger(writes)
    final = await graph(CrashingStore(inner, writes), ledger).ainvoke({})
    decisions = [r["decision"] for r in final["rounds"]]
    assert decisions == ["baseline", "kept", "reverted", "reverted", "kept", "unchanged"]
    return snapshot(inner, ledger), writes.count


async def test_the_scenario_covers_keep_revert_retry_contest_and_refusal() -> None:
    expected, count = await reference()
    by_status = Counter(t["status"] for t in expected["truths"])
    assert by_status == {"active": 3, "reverted": 2, "superseded": 1}  # summaries; the rest repeat
    records = expected["records"]
    levels = [records[f"round/{r}/train"]["levels"] for r in (1, 2, 3, 4, 5)]
    assert levels == [["L1-train1"], ["L1-train3"], ["L1-train3"], ["L1-train1"], ["L1-train3"]]
    assert [records[f"round/{r}/test"]["next_retry"] for r in (1, 2, 3, 4, 5)] == [0, 1, 0, 0, 0]
    assert records["round/4/test"]["revert_retries"] == 1
    # Round 4's contest was replayed (two sides on L1-train1) and GOOD kept its place.
    contest = [k for k in records if "/contest/" in k]
    assert len(contest) == 2 and all(k.startswith("r4/contest/") for k in contest)
    assert records["round/4/train"]["superseded"] == 1 and records["round/4/train"]["contests"] == 1
    [loser] = [t for t in expected["truths"] if t["status"] == "superseded"]
    assert has(CONTRA, loser["text"]) and loser["evidence"][-1]["won"] is False
    # Round 5's OVERFIT2 brought no new evidence: refused, with the reason in the ledger.
    assert records["round/5/train"]["refused"] == 1
    assert "no new evidence: level L1-train3" in records["round/5/train"]["refusals"][0]
    # The reflections of rounds 3 on were asked with the reverted lessons in the prompt
    # (their prompt hashes are part of the snapshot every resumed run must reproduce).
    hashes = {e["round"]: e["provenance"]["prompt_sha256"] for e in expected["experiences"]}
    assert len(set(hashes.values())) == 5
    # Many crash points: ledger records, truth batches and two writes per experience (made,
    # decided).
    assert count > 50


async def test_killed_at_every_write_and_resumed_nothing_lost_or_duplicated() -> None:
    expected, count = await reference()
    for at in range(1, count + 1):
        writes = Writes(at)
        inner, ledger = InMemoryStore(), CrashingLedger(writes)
        store = CrashingStore(inner, writes)
        with pytest.raises(Crash):
            await graph(store, ledger).ainvoke({})
        final = await graph(store, ledger).ainvoke({})  # the rerun, in a "new process"
        assert [r["round"] for r in final["rounds"]] == [0, 1, 2, 3, 4, 5], at
        assert snapshot(inner, ledger) == expected, f"crash before write {at}"
        assert max(ledger.adds.values()) == 1, f"a record written twice (crash at {at})"


async def test_a_finished_run_reruns_without_playing_and_extends_with_more_rounds() -> None:
    writes = Writes()
    inner, ledger = InMemoryStore(), CrashingLedger(writes)
    store = CrashingStore(inner, writes)
    await graph(store, ledger).ainvoke({})
    before = writes.count
    players = SplitPlayer(replay_only, overfit_test_policy)
    again = create_expver_graph(
        judge(),
        "maze",
        train_levels=TRAIN,
        test_levels=TEST,
        store=store,
        options=options(),
        player_factory=players,
        reflect_model=ScriptedChatModel(script=reflect),
        embeddings=BagOfWords(),
        ledger=ledger,
    )
    final = await again.ainvoke({})
    assert writes.count == before and players.models == []  # nothing played, nothing written
    decisions = [r["decision"] for r in final["rounds"]]
    assert decisions == ["baseline", "kept", "reverted", "reverted", "kept", "unchanged"]
    more = create_expver_graph(
        judge(),
        "maze",
        train_levels=TRAIN,
        test_levels=TEST,
        store=store,
        options=options(rounds=6),
        player_factory=SplitPlayer(replay_only, overfit_test_policy),
        reflect_model=ScriptedChatModel(script=reflect),
        embeddings=BagOfWords(),
        ledger=ledger,
    )
    final = await more.ainvoke({})
    assert [r["round"] for r in final["rounds"]] == [0, 1, 2, 3, 4, 5, 6]
    assert ledger.get("r6/train/L1-train1") is not None
