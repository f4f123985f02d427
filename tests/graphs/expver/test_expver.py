"""The Agent-ExpVer graph with scripted models on fixed maze maps: promotion, eq. 6, modes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langgraph.store.base import SearchOp
from langgraph.store.memory import InMemoryStore

from expver_support import (
    AVOID,
    GOOD,
    KEEP,
    OVERFIT,
    STEPS,
    UNRELATED,
    USELESS,
    WANDER,
    SplitPlayer,
    has,
    is_typing,
    lesson_policy,
    level,
    overfit_test_policy,
    reflect_script,
    reflection,
    replay_only,
    typing_reply,
)
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerError, ExpVerOptions, Level, MemoryLedger
from langgraph_games.graphs.expver.prompts import parse_reflection
from langgraph_games.memory import (
    Candidate,
    ExperienceStatus,
    TruthStatus,
    TruthWeaver,
    load_experiences,
    load_truths,
)
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords


def options(**kw: Any) -> ExpVerOptions:
    base: dict[str, Any] = {
        "rounds": 1,
        "levels_per_round": 1,
        "episode": EpisodeOptions(max_retries=0, max_steps=STEPS),
    }
    return ExpVerOptions(**{**base, **kw})


class Run:
    """One ExpVer graph over InMemoryStore with scripted GeoLink and InsightForce."""

    def __init__(
        self,
        reflections: dict[str, str] | str,
        *,
        train: Callable[[str, str], str] = lesson_policy,
        test: Callable[[str, str], str] = lesson_policy,
        train_levels: Sequence[Level] = (level("train", 1),),
        test_levels: Sequence[Level] = (level("eval", 2),),
        store: Any = None,
        ledger: Any = None,
        **kw: Any,
    ) -> None:
        self.store = store if store is not None else InMemoryStore()
        self.ledger = ledger if ledger is not None else MemoryLedger()
        self.players = SplitPlayer(train, test)
        self.coach = ScriptedChatModel(script=reflect_script(reflections))
        self.graph = create_expver_graph(
            ScriptedChatModel(responses=[UNRELATED]),
            "maze",
            train_levels=list(train_levels),
            test_levels=list(test_levels),
            store=self.store,
            options=options(**kw),
            player_factory=self.players,
            reflect_model=self.coach,
            embeddings=BagOfWords(),
            ledger=self.ledger,
        )

    async def __call__(self) -> dict[str, Any]:
        return await self.graph.ainvoke({})

    def record(self, record_id: str) -> dict[str, Any]:
        found = self.ledger.get(record_id)
        assert found is not None, record_id
        return found


async def test_promotes_when_the_replay_succeeds_and_scores_higher() -> None:
    run = Run(reflection(GOOD))
    final = await run()
    play, replay = run.record("r1/train/L1-train1"), run.record("r1/replay/L1-train1")
    # Without lessons the scripted agent walks off the grid every step: -50 each.
    assert play["metrics"]["score"] == -50 * STEPS and not play["metrics"]["success"]
    assert replay["metrics"]["success"] and replay["metrics"]["score"] > play["metrics"]["score"]
    [exp] = load_experiences(run.store, "maze")
    assert exp.status == ExperienceStatus.PROMOTED and exp.episode == "r1/train/L1-train1"
    assert exp.replay_metrics is not None and exp.replay_metrics["success"] == 1.0
    assert exp.provenance["verdict"].startswith("promoted: the replay succeeded and scored +")
    truths = load_truths(run.store, "maze")
    assert truths[0].startswith("Due to aimless moves") and has(GOOD, truths[0])
    assert truths[1:] == [KEEP, AVOID]
    weaver = TruthWeaver(run.store, "maze", embeddings=BagOfWords())
    sources = [s for t in weaver.truths() for s in t.provenance]
    assert {s.experience for s in sources} == {exp.id} and {s.level for s in sources} == {
        "L1-train1"
    }
    # The replay's prompt held the truths (none yet) plus the experience, the play's did not.
    assert play["truths"] == [] and replay["truths"][0].startswith("From my last attempt")
    # InsightForce saw the metrics and the agent's reasoning.
    [prompt] = run.coach.calls
    assert "score: -800" in prompt[1].content and 'Reasoning: "I weigh the moves.' in (
        prompt[1].content
    )
    # The test level improved with the truths: the round is kept.
    test = final["rounds"][-1]
    assert test["decision"] == "kept" and test["delta"] > 0 and not test["reverted"]


@pytest.mark.parametrize(
    ("lesson", "settings", "verdict"),
    [
        (USELESS, {}, "rejected: the replay did not succeed"),
        (WANDER, {}, "rejected: the replay did not succeed"),
        (WANDER, {"require_success": False}, "promoted: the replay succeeded and scored +"),
        (GOOD, {"min_score_gain": 10_000}, "rejected: the replay scored +"),
    ],
)
async def test_promotion_rule(lesson: str, settings: dict[str, Any], verdict: str) -> None:
    run = Run(reflection(lesson), **settings)
    await run()
    play, replay = run.record("r1/train/L1-train1"), run.record("r1/replay/L1-train1")
    [exp] = load_experiences(run.store, "maze")
    assert exp.provenance["verdict"].startswith(verdict)
    promoted = exp.status == ExperienceStatus.PROMOTED
    assert bool(load_truths(run.store, "maze")) == promoted
    if lesson == WANDER:  # explores, so it scores higher, but never reaches the goal
        assert replay["metrics"]["score"] > play["metrics"]["score"]
        assert not replay["metrics"]["success"]
    if lesson == USELESS:
        assert replay["metrics"]["score"] == play["metrics"]["score"]


async def test_no_promotion_when_the_replay_only_matches_the_play() -> None:
    store = InMemoryStore()
    TruthWeaver(store, "maze", mode="append").insert_many(
        [Candidate(id="seed", text=f"{GOOD}.", round=0)]
    )
    run = Run(reflection(GOOD), store=store)
    await run()
    play, replay = run.record("r1/train/L1-train1"), run.record("r1/replay/L1-train1")
    assert play["metrics"]["success"] and play["truths"] == [f"{GOOD}."]
    assert replay["metrics"] == play["metrics"]
    [exp] = load_experiences(store, "maze")
    assert exp.status == ExperienceStatus.REJECTED
    assert exp.provenance["verdict"] == "rejected: the replay scored +0 (needs > +0)"
    assert load_truths(store, "maze") == [f"{GOOD}."]


async def test_an_unusable_reflection_is_rejected_without_a_replay() -> None:
    run = Run("Action: 9")
    final = await run()
    [exp] = load_experiences(run.store, "maze")
    assert exp.status == ExperienceStatus.REJECTED and exp.text == ""
    assert exp.provenance["verdict"] == "unusable reflection: no-sections"
    assert exp.provenance["reply"] == "Action: 9"
    assert run.ledger.get("r1/replay/L1-train1") is None
    # Nothing changed, so the test levels were not played again.
    assert run.ledger.get("r1/test/L1-eval2") is None
    assert final["rounds"][-1]["decision"] == "unchanged"
    assert final["rounds"][-1]["evaluated"] is False


async def test_reverts_a_round_that_lowers_the_test_score_and_remembers_it() -> None:
    # OVERFIT helps on the training map and ruins the test map: eq. 6 reverts the round,
    # and the next round repeats the abstraction on the same level. The same lessons from
    # the same level bring no new evidence: they are refused, not promoted again.
    run = Run(
        reflection(OVERFIT),
        train=replay_only,
        test=overfit_test_policy,
        train_levels=[level("train", 1), level("train", 2)],
        rounds=2,
    )
    final = await run()
    baseline, first, second = final["rounds"]
    assert baseline["decision"] == "baseline" and baseline["success_rate"] == 1.0
    assert first["decision"] == "reverted" and first["reverted"] is True
    assert first["delta"] < 0 and first["score"] < baseline["score"]
    assert first["accepted_scores"] == baseline["accepted_scores"]
    assert first["truths_reverted"] == 3
    assert second["decision"] == "unchanged" and second["truths_reverted"] == 0
    train1, train2 = run.record("round/1/train"), run.record("round/2/train")
    assert train1["levels"] == train2["levels"] == ["L1-train1"]
    assert (train1["promoted"], train1["truths_added"], train1["reverted"]) == (1, 3, True)
    assert (train2["promoted"], train2["truths_added"], train2["refused"]) == (1, 0, 3)
    assert all("no new evidence: level L1-train1" in why for why in train2["refusals"])
    assert load_truths(run.store, "maze") == []
    weaver = TruthWeaver(run.store, "maze", embeddings=BagOfWords())
    reverted = weaver.truths(status=TruthStatus.REVERTED)
    assert sorted(t.round for t in reverted) == [1, 1, 1]  # promoted once, never again
    assert weaver.truths(status=TruthStatus.ACTIVE) == []


async def test_keeps_improving_rounds_and_moves_on_through_the_pool() -> None:
    run = Run(
        reflection(GOOD),
        train=replay_only,
        test=lesson_policy,
        train_levels=[level("train", 1), level("train", 2), level("train", 3)],
        rounds=3,
        retry_reverted=True,
    )
    final = await run()
    levels = [run.record(f"round/{r}/train")["levels"] for r in (1, 2, 3)]
    assert levels == [["L1-train1"], ["L1-train2"], ["L1-train3"]]
    decisions = [r["decision"] for r in final["rounds"]]
    # Round 1 adds the lesson; later rounds only repeat it (exact duplicates): unchanged.
    assert decisions == ["baseline", "kept", "unchanged", "unchanged"]
    assert run.record("round/2/train")["duplicates"] == 3
    assert len(load_truths(run.store, "maze")) == 3


@pytest.mark.parametrize(("mode", "active"), [("merge", 3), ("append", 6)])
async def test_truthweaver_against_the_ablation_without_it(mode: str, active: int) -> None:
    run = Run(
        reflection(GOOD),
        train=replay_only,
        train_levels=[level("train", 1), level("train", 2)],
        levels_per_round=2,
        weave_mode=mode,
    )
    await run()
    assert len(load_truths(run.store, "maze")) == active
    assert run.record("round/1/train")["promoted"] == 2


async def test_summary_only_promotion_and_truth_limit() -> None:
    run = Run(reflection(GOOD), promote="summary", truth_limit=0)
    await run()
    assert len(load_truths(run.store, "maze")) == 1
    # truth_limit=0: the test level was played without truths, so it did not improve.
    assert run.record("r1/test/L1-eval2")["truths"] == []


async def test_a_store_of_another_run_is_refused() -> None:
    store = InMemoryStore()
    await Run(reflection(GOOD), store=store)()
    other = Run(reflection(GOOD), store=store)
    other.graph = create_expver_graph(
        ScriptedChatModel(responses=[UNRELATED]),
        "maze",
        train_levels=[level("train", 1)],
        test_levels=[level("eval", 2)],
        store=store,
        options=options(),
        embeddings=BagOfWords(),
        run_id="another",
    )
    with pytest.raises(ExpVerError, match="holds the maze training run 'expver', not 'another'"):
        await other()


async def test_bad_setup_is_refused() -> None:
    with pytest.raises(ExpVerError, match="at least one training level"):
        create_expver_graph(ScriptedChatModel(), "maze", train_levels=[], test_levels=[])
    with pytest.raises(ExpVerError, match="unique"):
        create_expver_graph(
            ScriptedChatModel(),
            "maze",
            train_levels=[level("train", 1), level("train", 1)],
            test_levels=[level("eval", 2)],
        )
    run = Run(reflection(GOOD), score_key="points")
    with pytest.raises(ExpVerError, match=r"no number .points.*custom_score"):
        await run()


def test_the_graph_shape() -> None:
    graph = Run(reflection(GOOD)).graph.get_graph()
    edges = {(e.source, e.target) for e in graph.edges}
    assert {
        ("__start__", "begin"),
        ("begin", "plan"),
        ("plan", "play"),
        ("plan", "plan"),
        ("plan", "__end__"),
        ("play", "reflect"),
        ("reflect", "replay"),
        ("replay", "promote"),
        ("promote", "play"),
        ("promote", "evaluate"),
        ("evaluate", "judge"),
        ("judge", "plan"),
    } == edges


async def test_truths_already_in_the_store_are_kept_apart_from_the_rounds() -> None:
    store = InMemoryStore()
    TruthWeaver(store, "maze", mode="append").insert_many(
        [Candidate(id="by-hand", text="Coins are worth 500 points.", round=5)]
    )
    run = Run(reflection(OVERFIT), train=replay_only, test=overfit_test_policy, store=store)
    final = await run()
    assert final["rounds"][-1]["decision"] == "reverted"
    assert final["rounds"][-1]["weave_round"] == 6  # the run's round 1, after round 5
    assert load_truths(store, "maze") == ["Coins are worth 500 points."]
    weaver = TruthWeaver(store, "maze", embeddings=BagOfWords())
    assert {t.round for t in weaver.truths(status=TruthStatus.REVERTED)} == {6}


async def test_a_ledger_and_a_store_that_do_not_belong_together_are_refused() -> None:
    first = Run(reflection(GOOD))
    await first()
    new_store = Run(reflection(GOOD), ledger=first.ledger)
    with pytest.raises(ExpVerError, match="the store has never seen it"):
        await new_store()
    new_ledger = Run(reflection(GOOD), store=first.store)
    with pytest.raises(ExpVerError, match="the ledger has none of its records"):
        await new_ledger()


OBSERVED = ("Kept moving", "Never headed for the goal.")


async def test_only_what_the_model_typed_as_advice_becomes_a_truth() -> None:
    observations = reflection(GOOD, *OBSERVED, types=("observation", "observation"))
    run = Run(observations)
    await run()
    [exp] = load_experiences(run.store, "maze")
    assert exp.status == ExperienceStatus.PROMOTED
    assert (exp.strengths, exp.weaknesses) == (["Kept moving"], ["Never headed for the goal."])
    assert [x.kind for x in exp.lessons] == ["observation", "observation"]
    assert exp.provenance["typed"] == "by the reflection"
    assert (
        exp.provenance["not_promoted"]
        == "not promoted: observation: lesson/0, observation: lesson/1"
    )
    [truth] = load_truths(run.store, "maze")  # was stored with both items, verbatim
    assert truth.startswith("Due to aimless moves") and has(GOOD, truth)
    released = Run(observations, require_advice=False)  # the released code: every item
    await released()
    assert load_truths(released.store, "maze")[1:] == list(OBSERVED)


async def test_an_untyped_reflection_is_typed_by_a_second_call_or_not_promoted() -> None:
    text = reflection(GOOD, "Keep to the open cells", "Never headed for the goal.", typed=False)

    def coach(observations: tuple[str, ...]) -> Callable[[Sequence[BaseMessage]], str]:
        def script(messages: Sequence[BaseMessage]) -> str:
            if is_typing(messages):
                return typing_reply(messages, observations) if observations else "no idea"
            return text

        return script

    run = Run(text)
    run.coach.script = coach(("Never headed for the goal.",))
    await run()
    [exp] = load_experiences(run.store, "maze")
    assert [(x.kind, x.section) for x in exp.lessons] == [
        ("advice", "strength"),
        ("observation", "weakness"),
    ]
    assert exp.provenance["typed"] == "by a second call"
    assert load_truths(run.store, "maze")[1:] == ["Keep to the open cells"]
    unreadable = Run(text)
    unreadable.coach.script = coach(())
    await unreadable()
    [exp] = load_experiences(unreadable.store, "maze")
    assert exp.lessons == [] and exp.provenance["typed"].startswith("untyped")
    assert (
        exp.provenance["not_promoted"] == "not promoted: untyped: strength/0, untyped: weakness/0"
    )
    assert len(load_truths(unreadable.store, "maze")) == 1  # the summary only


def reflect_prompts(run: Run) -> list[str]:
    return [str(call[-1].content) for call in run.coach.calls]


NOT_AGAIN = "(do not propose these again):"


def new_overfit_each_time() -> Callable[[Sequence[BaseMessage]], str]:
    """InsightForce proposing a new wording of OVERFIT every time (never refused)."""
    calls = iter(range(1, 100))

    def script(messages: Sequence[BaseMessage]) -> str:
        return reflection(f"{OVERFIT}, try {next(calls)}", f"{KEEP} {next(calls)}", f"{AVOID} x")

    return script


@pytest.mark.parametrize(("retries", "levels"), [(2, [1, 1, 1, 2]), (0, [1, 2, 1, 2])])
async def test_retries_after_a_revert_are_bounded(retries: int, levels: list[int]) -> None:
    # InsightForce proposes a new lesson every time; every round is reverted.
    run = Run(
        reflection(OVERFIT),
        train=replay_only,
        test=overfit_test_policy,
        train_levels=[level("train", 1), level("train", 2)],
        rounds=4,
        revert_retries=retries,
    )
    run.coach.script = new_overfit_each_time()
    final = await run()
    assert [r["decision"] for r in final["rounds"][1:]] == ["reverted"] * 4
    played = [run.record(f"round/{r}/train")["levels"] for r in (1, 2, 3, 4)]
    assert played == [[f"L1-train{k}"] for k in levels]  # was L1-train1 every round
    tests = [run.record(f"round/{r}/test") for r in (1, 2, 3, 4)]
    assert all(t["revert_retries"] == retries for t in tests)
    if retries == 2:
        assert [(t["retry"], t["next_retry"]) for t in tests] == [(0, 1), (1, 2), (2, 0), (0, 1)]


async def test_insightforce_is_told_which_lessons_were_reverted() -> None:
    run = Run(
        reflection(OVERFIT),
        train=replay_only,
        test=overfit_test_policy,
        train_levels=[level("train", 1)],
        rounds=2,
    )
    await run()
    first, second = reflect_prompts(run)
    assert NOT_AGAIN not in first
    listed = second.split(NOT_AGAIN)[1].split("\nSome of its")[0].strip().splitlines()
    reverted = TruthWeaver(run.store, "maze", embeddings=BagOfWords()).truths(
        status=TruthStatus.REVERTED
    )
    round_one = sorted(f"- {t.text}" for t in reverted if t.round == 1)
    assert len(round_one) == 3 and sorted(listed) == round_one


class Calls(BaseCallbackHandler):
    """Records the first message of every chat-model call made with the caller's config."""

    def __init__(self) -> None:
        self.starts: list[str] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kw: Any
    ) -> None:
        self.starts.append(str(messages[0][0].content))


async def test_insightforce_and_truthweaver_calls_get_the_callers_config() -> None:
    merges = ScriptedChatModel(responses=[UNRELATED])
    run = Run(reflection(GOOD), train=replay_only, rounds=2, retry_reverted=False)
    run.graph = create_expver_graph(
        ScriptedChatModel(responses=[UNRELATED]),
        "maze",
        train_levels=[level("train", 1), level("train", 2)],
        test_levels=[level("eval", 2)],
        store=run.store,
        options=options(rounds=2),
        player_factory=run.players,
        reflect_model=ScriptedChatModel(
            script=reflect_script(
                {
                    "train-L1-01": reflection(GOOD),
                    "train-L1-02": reflection(GOOD, strength=f"{KEEP} quickly"),
                }
            )
        ),
        merge_model=merges,
        embeddings=BagOfWords(),
        ledger=run.ledger,
    )
    calls = Calls()
    await run.graph.ainvoke({}, config={"callbacks": [calls]})
    assert sum("You are a coach" in s for s in calls.starts) == 2
    assert [e.status for e in load_experiences(run.store, "maze")] == [
        ExperienceStatus.PROMOTED
    ] * 2
    assert len(merges.calls) >= 1  # round 2's strength resembles round 1's: relation asked
    assert sum("one lesson per meaning" in s for s in calls.starts) == len(merges.calls)


async def test_a_round_that_only_reinforces_a_lesson_is_evaluated_when_the_prompt_changes() -> None:
    summary = parse_reflection(reflection(GOOD)).summary
    store = InMemoryStore()
    TruthWeaver(store, "maze", mode="append").insert_many(
        [
            Candidate(id="x", text=summary, round=0),
            Candidate(id="y", text="Coins are worth 500 points.", round=0),
        ]
    )
    run = Run(reflection(GOOD), store=store, promote="summary", truth_limit=1)
    final = await run()
    assert run.record("r1/train/L1-train1")["truths"] == ["Coins are worth 500 points."]
    train = run.record("round/1/train")
    assert (train["truths_added"], train["truths_merged"], train["duplicates"]) == (0, 0, 1)
    # The duplicate raised the lesson's support, so the limit now puts it in the prompt:
    # a new policy, tested (it was "unchanged" and never played).
    test = final["rounds"][-1]
    assert test["evaluated"] is True and test["decision"] == "kept" and test["delta"] > 0
    assert run.record("r1/test/L1-eval2")["truths"] == [summary]


class TruthReads(InMemoryStore):
    """Counts the reads of a game's truth base (of any filter: GeoLink's prompt is built
    from what the loop read of it)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def _count(self, ops: Any) -> list[Any]:
        ops = list(ops)
        self.reads += sum(
            isinstance(op, SearchOp) and op.namespace_prefix == ("truths", "maze") for op in ops
        )
        return ops

    def batch(self, ops: Any) -> list[Any]:
        return super().batch(self._count(ops))

    async def abatch(self, ops: Any) -> list[Any]:
        return await super().abatch(self._count(ops))


async def test_the_next_round_plays_with_the_truths_a_round_promoted_read_once() -> None:
    store = TruthReads()
    run = Run(
        reflection(GOOD),
        train=replay_only,
        train_levels=[level("train", 1), level("train", 2)],
        rounds=2,
        store=store,
    )
    final = await run()
    reads = store.reads
    assert [r["decision"] for r in final["rounds"]] == ["baseline", "kept", "unchanged"]
    promoted = load_truths(store, "maze")
    assert len(promoted) == 3 and has(GOOD, promoted[0])
    assert run.record("r1/train/L1-train1")["truths"] == []
    assert run.record("r2/train/L1-train2")["truths"] == promoted
    # Read when the run starts (the baseline's prompt) and once per round, by TruthWeaver
    # before it inserts: the prompts after a weave come from what it wrote, not once per
    # episode or node.
    assert reads == 3


async def test_the_round_after_a_revert_plays_without_the_reverted_truths() -> None:
    run = Run(
        reflection(OVERFIT),
        train=replay_only,
        test=overfit_test_policy,
        train_levels=[level("train", 1)],
        rounds=2,
    )
    await run()
    tested = run.record("r1/test/L1-eval2")["truths"]
    assert len(tested) == 3 and has(OVERFIT, tested[0])  # round 1's truths were tested...
    assert run.record("round/1/test")["decision"] == "reverted"
    assert run.record("r2/train/L1-train1")["truths"] == []  # ...and are gone in round 2
