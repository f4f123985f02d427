"""What one Agent-ExpVer round asks of the store: each fact written once, read from the state."""

from __future__ import annotations

from typing import Any

import pytest

from expver_support import (
    GOOD,
    STEPS,
    USELESS,
    CountingStore,
    RoundLedger,
    SplitPlayer,
    lesson_policy,
    level,
    reflect_script,
    reflection,
    replay_only,
)
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver import ReplayVerdict, create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions, MemoryLedger
from langgraph_games.memory import Experience, ExperienceStatus, load_experiences, load_truths
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords, relation_judge


def no_model_call(messages: Any) -> str:
    raise AssertionError("a model was called on a resumed round")


async def one_round(reply: str) -> tuple[CountingStore, Any]:
    store = CountingStore()
    return store, await run_round(reply, store, RoundLedger(store))


async def run_round(reply: str, store: CountingStore, ledger: MemoryLedger) -> Any:
    """One round (after the baseline) of the ExpVer graph over ``store`` and ``ledger``."""
    model = ScriptedChatModel(script=reflect_script(reply) if reply else no_model_call)
    graph = create_expver_graph(
        relation_judge({}),
        "maze",
        train_levels=[level("train", 1)],
        test_levels=[level("eval", 2)],
        store=store,
        options=ExpVerOptions(
            rounds=1,
            levels_per_round=1,
            episode=EpisodeOptions(max_retries=0, max_steps=STEPS),
        ),
        player_factory=SplitPlayer(replay_only, lesson_policy),
        reflect_model=model,
        embeddings=BagOfWords(),
        ledger=ledger,
    )
    return await graph.ainvoke({})


def experience_ops(store: CountingStore) -> tuple[int, int, int]:
    """(writes, reads by key, searches) of the experiences namespace."""
    c = store.counts
    return c["put", "experiences"], c["get", "experiences"], c["search", "experiences"]


async def test_a_promoted_round_writes_its_experience_twice_and_reads_the_truths_once() -> None:
    store, final = await one_round(reflection(GOOD))
    [experience] = load_experiences(store.inner, "maze")
    assert experience.status == ExperienceStatus.PROMOTED and "weave" in experience.provenance
    assert len(load_truths(store.inner, "maze")) == 3
    # Written when made (pending: a crash keeps the reflection) and once decided (verdict and
    # weave outcome together); never read back: the state carries it.
    assert experience_ops(store) == (2, 0, 0)
    # The truth base is read once, by TruthWeaver before it inserts; what it wrote serves the
    # fates, the round's counts and the test levels' prompt.
    assert store.counts["search", "truths"] == 1
    assert final["verdicts"] == {"L1-train1": ReplayVerdict.PROMOTED}
    assert isinstance(final["current"]["experience"], Experience)
    assert final["current"]["experience"] == experience
    record = final["rounds"][-1]
    assert record["truths_active"] == 3 and record["decision"] == "kept"


async def test_a_rejected_round_reads_neither_the_experience_nor_the_truths() -> None:
    store, final = await one_round(reflection(USELESS))
    [experience] = load_experiences(store.inner, "maze")
    assert experience.status == ExperienceStatus.REJECTED
    assert experience.provenance["verdict"].startswith("rejected: the replay did not succeed")
    assert experience_ops(store) == (2, 0, 0)
    assert store.counts["search", "truths"] == 0
    assert final["verdicts"] == {"L1-train1": ReplayVerdict.REPLAY_FAILED}


async def test_an_unusable_reflection_is_written_once() -> None:
    store, final = await one_round("I do not know.")
    [experience] = load_experiences(store.inner, "maze")
    assert experience.status == ExperienceStatus.REJECTED and experience.replay_metrics is None
    assert experience_ops(store) == (1, 0, 0)
    assert final["verdicts"] == {"L1-train1": ReplayVerdict.UNUSABLE}


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        (reflection(GOOD), ReplayVerdict.PROMOTED),
        (reflection(USELESS), ReplayVerdict.REPLAY_FAILED),
    ],
)
async def test_a_round_resumed_before_its_judgement_reads_the_experience_once(
    reply: str, verdict: ReplayVerdict
) -> None:
    """A crash after the experience was decided, before the round was judged: the rerun
    reads the recorded experience (its verdict comes from it), calls no model, writes it
    no more and records the same round."""
    store = CountingStore()
    ledger = RoundLedger(store)
    await run_round(reply, store, ledger)
    decided = load_experiences(store.inner, "maze")
    judged = {k: ledger.records.pop(k) for k in ("round/1/train", "round/1/test")}
    store.counts.clear()
    final = await run_round("", store, ledger)  # no reflection: a model call fails
    # One read of the recorded experience; the search is the start's check that the store's
    # experiences belong to this ledger (a rerun counts from its start).
    assert experience_ops(store) == (0, 1, 1)
    assert load_experiences(store.inner, "maze") == decided
    assert final["verdicts"] == {"L1-train1": verdict}
    for key, record in judged.items():
        assert ledger.records[key] == record, key
