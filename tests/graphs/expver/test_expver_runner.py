"""The loop's episodes go through the runner in its context: test levels as one batch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from expver_support import GOOD, UNRELATED, has, lesson_players, level, reflect_script
from expver_support import reflection as reflection_text
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver import (
    Delivered,
    EpisodeRequest,
    InProcessEpisodes,
    create_expver_graph,
)
from langgraph_games.graphs.expver.parts import ExpVerOptions, MemoryLedger
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords

STEPS = 12
TESTS = [level("eval", k, STEPS) for k in (2, 4, 5)]
OPTIONS = ExpVerOptions(
    rounds=1, levels_per_round=1, episode=EpisodeOptions(max_retries=0, max_steps=STEPS)
)
FACTORY = lesson_players(lambda truths: has(GOOD, truths), lambda truths: has(GOOD, truths))


class Recording:
    """A runner that plays in this process and notes each batch's level ids."""

    def __init__(self) -> None:
        self.here = InProcessEpisodes(ScriptedChatModel(), FACTORY, OPTIONS.episode, 4)
        self.batches: list[list[str]] = []

    async def __call__(self, requests: Sequence[EpisodeRequest], done: Delivered) -> None:
        self.batches.append([r.level.id for r in requests])
        await self.here(requests, done)


class Crash(Exception):
    pass


class CrashingLedger(MemoryLedger):
    """Raises instead of writing the second test episode of round 0 (once)."""

    armed = True

    def add(self, record: dict[str, Any]) -> None:
        tests = [key for key in self.records if key.startswith("r0/test/")]
        if self.armed and str(record["id"]).startswith("r0/test/") and len(tests) == 1:
            self.armed = False
            raise Crash
        super().add(record)


def graph(runner: Recording, ledger: MemoryLedger) -> Any:
    return create_expver_graph(
        ScriptedChatModel(responses=[UNRELATED]),
        "maze",
        train_levels=[level("train", 1, STEPS)],
        test_levels=TESTS,
        options=OPTIONS,
        player_factory=FACTORY,
        reflect_model=ScriptedChatModel(script=reflect_script(reflection_text(GOOD))),
        embeddings=BagOfWords(),
        ledger=ledger,
        episodes=runner,
    )


async def test_the_test_levels_are_one_batch_and_training_episodes_one_each() -> None:
    runner = Recording()
    final = await graph(runner, MemoryLedger()).ainvoke({})
    assert [r["decision"] for r in final["rounds"]] == ["baseline", "kept"]
    tests = ["L1-eval2", "L1-eval4", "L1-eval5"]
    assert runner.batches == [tests, ["L1-train1"], ["L1-train1"], tests]


async def test_a_resumed_evaluation_hands_the_runner_only_the_levels_not_recorded() -> None:
    ledger = CrashingLedger()
    with pytest.raises(Crash):
        await graph(Recording(), ledger).ainvoke({})
    kept = {key.removeprefix("r0/test/") for key in ledger.records if key.startswith("r0/")}
    assert 1 <= len(kept) < 3
    runner = Recording()  # a new process: the rest of the batch is all it plays
    await graph(runner, ledger).ainvoke({})
    assert runner.batches[0] == [k for k in ("L1-eval2", "L1-eval4", "L1-eval5") if k not in kept]
    assert sorted(k for k in ledger.records if k.startswith("r0/test/")) == [
        "r0/test/L1-eval2", "r0/test/L1-eval4", "r0/test/L1-eval5"
    ]  # fmt: skip
