"""The nodes of the Agent-ExpVer graph: module-level async functions of ``(context, state)``.

:func:`~langgraph_games.graphs.expver.graph.create_expver_graph` binds one
:class:`~langgraph_games.graphs.expver.context.ExpVerContext` to each of them
(``functools.partial``) and wires them; LangGraph passes the rest (``runtime``,
``config``) by name. Every node first looks for its record (ledger or store), so a rerun
after a crash walks through the finished work without playing or calling a model.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping
from typing import Literal

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from langgraph_games.graphs.common.llm import model_identity, reply_text
from langgraph_games.graphs.common.prompt_agent import to_messages
from langgraph_games.graphs.expver.contests import ReplayArbiter
from langgraph_games.graphs.expver.context import ExpVerContext, ExpVerState, RoundWork
from langgraph_games.graphs.expver.lessons import (
    REFLECTION_SCHEMA,
    read_typed_reflection,
    type_items,
)
from langgraph_games.graphs.expver.parts import (
    ExpVerError,
    Level,
    candidate_fates,
    numbers,
    reverted_lessons,
    round_refusals,
    round_truth_counts,
)
from langgraph_games.graphs.expver.prompts import (
    experience_lessons,
    parse_reflection,
    reflection_messages,
)
from langgraph_games.graphs.expver.records import (
    LedgerEpisode,
    PlanEvent,
    PlayEvent,
    PromoteEvent,
    ReflectEvent,
    RoundEvent,
    weave_counts,
)
from langgraph_games.graphs.expver.steps import (
    claim_store,
    ensure_reverted,
    evaluate_tests,
    last_evaluated,
    ledger_episode,
    ledger_test_round,
    lessons_of,
    mean,
    play_level,
    test_record,
    train_record,
    weave,
)
from langgraph_games.graphs.expver.verdicts import ReplayVerdict, judge_replay
from langgraph_games.memory.records import (
    Experience,
    ExperienceStatus,
    asave_experience,
    experiences_namespace,
    parse_record,
)
from langgraph_games.models.structured import json_schema_model
from langgraph_games.models.usage import ainvoke_measured

__all__ = [
    "after_plan",
    "after_promote",
    "begin",
    "evaluate",
    "judge",
    "plan",
    "play",
    "promote",
    "reflect",
    "replay",
]


async def begin(ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None]) -> ExpVerState:
    """Claim the store and evaluate the starting policy on the test levels (round 0)."""
    offset = await claim_store(ctx)
    baseline = ctx.ledger.get("round/0/test")
    if baseline is None:
        results, count = await evaluate_tests(ctx, 0)
        scores = {k: ctx.score(m) for k, m in results.items()}
        baseline = test_record(
            ctx,
            0,
            results,
            scores,
            {
                "decision": "baseline",
                "evaluated": True,
                "truths_active": count,
                "accepted_scores": scores,
                "reverted": False,
            },
        )
        ctx.ledger.add(baseline)
    else:
        baseline = ledger_test_round(baseline, "round/0/test")
    runtime.stream_writer(RoundEvent(event="baseline", record=baseline))
    return {
        "offset": offset,
        "round": 1,
        "cursor": 0,
        "retry": 0,
        "accepted": dict(baseline["accepted_scores"]),
        "rounds": [baseline],
    }


async def plan(ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None]) -> ExpVerState:
    """Pick the round's training levels, or replay the decision of a round judged before."""
    round_ = state["round"]
    if round_ > ctx.options.rounds:
        return {"ready": False}
    found = ctx.ledger.get(f"round/{round_}/test")
    if found is not None:  # decided by an earlier run: apply it again (idempotent)
        judged = ledger_test_round(found, f"round/{round_}/test")
        if judged["reverted"]:
            await ensure_reverted(ctx, state["offset"] + round_)
        runtime.stream_writer(RoundEvent(event="round", record=judged, cached=True))
        if "next_cursor" not in judged:
            raise ExpVerError(f"the ledger's round/{round_}/test has no next_cursor")
        return {
            "ready": False,
            "round": round_ + 1,
            "cursor": judged["next_cursor"],
            # Files written before retries existed have no next_retry: no retry pending.
            "retry": judged.get("next_retry", 0),
            "accepted": dict(judged["accepted_scores"]),
            "rounds": [judged],
        }
    pool = ctx.pool
    count = min(ctx.options.levels_per_round, len(pool))
    levels = [pool[(state["cursor"] + j) % len(pool)] for j in range(count)]
    ids = [str(lv["id"]) for lv in levels]
    runtime.stream_writer(PlanEvent(event="plan", round=round_, levels=ids))
    return {"ready": True, "levels": levels, "index": 0, "verdicts": {}}


async def play(ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None]) -> ExpVerState:
    """GeoLink plays the current training level with the current truths."""
    round_ = state["round"]
    level = Level.model_validate(state["levels"][state["index"]])
    truths = list(await ctx.truths.get())
    record, cached = await play_level(
        ctx, f"r{round_}/train/{level.id}", level, truths, round_, "train"
    )
    runtime.stream_writer(
        PlayEvent(
            event="play",
            round=round_,
            level=level.id,
            cached=cached,
            metrics=record["metrics"],
            truths=len(truths),
        )
    )
    return {
        "current": {"level": level.id, "play": record["id"], "truths": truths, "fresh": not cached}
    }


async def _new_experience(
    ctx: ExpVerContext, exp_id: str, round_: int, state: ExpVerState, config: RunnableConfig
) -> Experience:
    """InsightForce reads the play's metrics and reasoning and writes an experience."""
    current = state["current"]
    found = ctx.ledger.get(current["play"])
    if found is None:
        raise ExpVerError(f"the ledger lost the record {current['play']!r}")
    played = ledger_episode(found, current["play"])
    opts = ctx.options
    messages = reflection_messages(
        ctx.engine.name,
        played["metrics"],
        played["trajectory"],
        truths=current["truths"],
        reverted=reverted_lessons(await ctx.truths.all(), opts.reverted_shown),
        first=opts.reflect_first,
        last=opts.reflect_last,
        chars=opts.reflect_chars,
    )
    held = json_schema_model(ctx.thinker, REFLECTION_SCHEMA, "reflection")
    reply, usage = await ainvoke_measured(held, to_messages(messages), config)
    text = reply_text(reply)
    parsed = read_typed_reflection(text) or parse_reflection(text)
    tokens = _tokens(usage)
    typing = "by the reflection" if parsed.typed else ""
    if not parsed.typed and parsed.usable:
        items = [("strength", x) for x in parsed.strengths]
        items += [("weakness", x) for x in parsed.weaknesses]
        lessons, more = await type_items(ctx.thinker, ctx.engine.name, items, config)
        tokens += _tokens(more)
        if lessons is None:
            typing = "untyped: the typing reply could not be read (items not promoted)"
        else:
            parsed.lessons = lessons
            typing = "by a second call" if items else ""
    provenance = {
        "run": ctx.run_id,
        "model": model_identity(ctx.thinker),
        "prompt_sha256": hashlib.sha256(repr(messages).encode()).hexdigest()[:16],
        "reply": text[:2000],
        "tokens": str(tokens),
    }
    if typing:
        provenance["typed"] = typing
    if parsed.problem:
        provenance["verdict"] = f"unusable reflection: {parsed.problem}"
    return Experience(
        id=exp_id,
        game=ctx.game_id,
        level=current["level"],
        episode=current["play"],
        round=round_,
        text=parsed.summary,
        strengths=parsed.strengths,
        weaknesses=parsed.weaknesses,
        lessons=parsed.lessons,
        metrics=numbers(played["metrics"]),
        status=ExperienceStatus.PENDING if parsed.usable else ExperienceStatus.REJECTED,
        provenance=provenance,
    )


def _tokens(usage: Mapping[str, float]) -> int:
    return int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))


async def reflect(
    ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None], config: RunnableConfig
) -> ExpVerState:
    """InsightForce's experience of the play, saved as ``pending`` (or found in the store).

    A play this run just played has no experience yet, so the store is looked up only for
    a play found in the ledger (a resumed run). The experience and its verdict go on in
    the state.
    """
    round_, current = state["round"], state["current"]
    exp_id = f"{ctx.run_id}/r{round_}/{current['level']}"
    item = None
    if not current.get("fresh", False):
        item = await ctx.store.aget(experiences_namespace(ctx.game_id), exp_id)
    if item is not None:
        experience = parse_record(Experience, item.value, exp_id)
        verdict = _recorded_verdict(ctx, experience)
    else:
        experience = await _new_experience(ctx, exp_id, round_, state, config)
        await asave_experience(ctx.store, experience)
        usable = experience.status == ExperienceStatus.PENDING
        verdict = ReplayVerdict.PENDING if usable else ReplayVerdict.UNUSABLE
    runtime.stream_writer(
        ReflectEvent(
            event="reflect",
            round=round_,
            level=current["level"],
            cached=item is not None,
            experience=experience.model_dump(mode="json"),
        )
    )
    return {"current": {**current, "experience": experience, "verdict": verdict}}


def _recorded_verdict(ctx: ExpVerContext, experience: Experience) -> ReplayVerdict:
    """The verdict of an experience found in the store (a resumed run)."""
    if experience.status == ExperienceStatus.PENDING:
        return ReplayVerdict.PENDING
    if experience.status == ExperienceStatus.PROMOTED:
        return ReplayVerdict.PROMOTED
    after = experience.replay_metrics
    if after is None:
        return ReplayVerdict.UNUSABLE
    gain = ctx.score(after) - ctx.score(experience.metrics)
    judged = judge_replay(ctx.options, gain, ctx.success(after))
    # Rejected it stays, whatever this run's options say: its status is the record.
    return judged if judged is not ReplayVerdict.PROMOTED else ReplayVerdict.NO_GAIN


async def replay(ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None]) -> ExpVerState:
    """Play the level again (same options and seed) with the truths plus the experience."""
    round_, current = state["round"], state["current"]
    experience = current["experience"]
    if current["verdict"] is ReplayVerdict.UNUSABLE:  # nothing usable to verify
        return {"current": {**current, "replay": None}}
    level = Level.model_validate(state["levels"][state["index"]])
    lessons = experience_lessons(experience.text, experience.strengths, experience.weaknesses)
    record, cached = await play_level(
        ctx,
        f"r{round_}/replay/{level.id}",
        level,
        [*current["truths"], *lessons],
        round_,
        "replay",
    )
    runtime.stream_writer(
        PlayEvent(
            event="replay", round=round_, level=level.id, cached=cached, metrics=record["metrics"]
        )
    )
    return {"current": {**current, "replay": record["id"]}}


def _decide(
    ctx: ExpVerContext, experience: Experience, play_id: str, replay_id: str, stamp: int
) -> tuple[Experience, ReplayVerdict]:
    """Promote or reject a pending experience by its replay (not saved here)."""
    found, refound = ctx.ledger.get(play_id), ctx.ledger.get(replay_id)
    if found is None or refound is None:
        raise ExpVerError("the ledger lost the play or replay of " + experience.id)
    played, replayed = ledger_episode(found, play_id), ledger_episode(refound, replay_id)
    after = replayed["metrics"]
    gain = ctx.score(after) - ctx.score(played["metrics"])
    verdict = judge_replay(ctx.options, gain, ctx.success(after))
    words = verdict.describe(gain, ctx.options.min_score_gain)
    provenance = {**experience.provenance, "verdict": words, "replay": replayed["id"]}
    if verdict is ReplayVerdict.PROMOTED:
        _, skipped = lessons_of(ctx, experience, stamp)
        if skipped:
            provenance["not_promoted"] = f"not promoted: {', '.join(skipped)}"
    decided = experience.model_copy(
        update={
            "status": verdict.status,
            "replay_metrics": numbers(after),
            "provenance": provenance,
        }
    )
    return decided, verdict


async def promote(
    ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None], config: RunnableConfig
) -> ExpVerState:
    """Promote a verified experience's lessons into the truth base (TruthWeaver), or reject it.

    The decided experience (its verdict, and what became of its lessons) is written once,
    after the weave; a crash before that decides it again from the ledger on the rerun,
    and the weave (idempotent by candidate id) adds nothing twice.
    """
    round_, current = state["round"], state["current"]
    stamp = state["offset"] + round_
    experience, verdict = current["experience"], current["verdict"]
    stored = experience
    replay_id = current.get("replay")
    if verdict is ReplayVerdict.PENDING and replay_id:
        experience, verdict = _decide(ctx, experience, current["play"], replay_id, stamp)
    report = None
    if verdict is ReplayVerdict.PROMOTED:
        candidates, _ = lessons_of(ctx, experience, stamp)
        arbiter = ReplayArbiter(ctx, round_, asyncio.get_running_loop())
        report = await weave(ctx, candidates, config, arbiter)
        fates = candidate_fates(await ctx.truths.all(), [c.id for c in candidates])
        woven = "; ".join(
            f"{cid.removeprefix(experience.id + '/')}: {what}" for cid, what in fates.items()
        )
        if woven and experience.provenance.get("weave") != woven:
            experience = experience.model_copy(
                update={"provenance": {**experience.provenance, "weave": woven}}
            )
    if experience != stored:
        await asave_experience(ctx.store, experience)
    runtime.stream_writer(
        PromoteEvent(
            event="promote",
            round=round_,
            level=current["level"],
            status=experience.status.value,
            verdict=experience.provenance.get("verdict", ""),
            not_promoted=experience.provenance.get("not_promoted", ""),
            weave=None if report is None else weave_counts(report),
        )
    )
    verdicts = {**state.get("verdicts", {}), current["level"]: verdict}
    return {
        "index": state["index"] + 1,
        "current": {**current, "experience": experience, "verdict": verdict},
        "verdicts": verdicts,
    }


async def evaluate(ctx: ExpVerContext, state: ExpVerState) -> ExpVerState:
    """Play the test levels with the round's truths, unless the prompt did not change."""
    round_ = state["round"]
    stamp = state["offset"] + round_
    everything = await ctx.truths.all()
    counts = round_truth_counts(everything, stamp)
    last = last_evaluated(state["rounds"])
    accepted_prompt = _test_play(ctx, f"r{last}/test/{ctx.tests[0].id}")
    accepted_truths = None if accepted_prompt is None else accepted_prompt["truths"]
    # A duplicate adds support only, but under truth_limit that can change the prompt.
    moved = ("truths_added", "truths_merged", "refined", "superseded", "restored")
    changed = sum(counts[k] for k in moved) > 0 or (
        accepted_truths is not None and list(await ctx.truths.get()) != accepted_truths
    )
    if changed or ctx.options.reevaluate_unchanged:
        results, _ = await evaluate_tests(ctx, round_)
        evaluated = True
    else:  # same prompt as the accepted policy: its scores stand
        plays = {level.id: _test_play(ctx, f"r{last}/test/{level.id}") for level in ctx.tests}
        results = {k: {} if p is None else p["metrics"] for k, p in plays.items()}
        evaluated = False
    work: RoundWork = {
        "results": results,
        "evaluated": evaluated,
        "counts": counts,
        "changed": changed,
        "refusals": round_refusals(everything, stamp),
    }
    return {"evaluation": work}


async def judge(ctx: ExpVerContext, state: ExpVerState, runtime: Runtime[None]) -> ExpVerState:
    """Eq. 6: keep the round's truths, or revert them when the test score dropped."""
    round_, work, accepted = state["round"], state["evaluation"], state["accepted"]
    stamp = state["offset"] + round_
    results, counts = work["results"], work["counts"]
    scores = {k: ctx.score(m) for k, m in results.items()} if work["evaluated"] else accepted
    delta = mean([scores[k] - accepted[k] for k in accepted])
    opts = ctx.options
    changed = bool(work["changed"])
    reverted = opts.revert and changed and delta < -opts.revert_tolerance
    decision = "reverted" if reverted else ("kept" if changed else "unchanged")
    cursor, retry = state["cursor"], int(state.get("retry", 0))
    again = reverted and opts.retry_reverted and retry < opts.revert_retries
    if not again:
        cursor += len(state["levels"])
    if ctx.ledger.get(f"round/{round_}/train") is None:
        refusals = work.get("refusals") or []
        verdicts = state.get("verdicts", {})
        ctx.ledger.add(
            train_record(ctx, round_, state["levels"], counts, reverted, verdicts, refusals)
        )
    record = test_record(
        ctx,
        round_,
        results,
        scores,
        {
            "decision": decision,
            "reverted": reverted,
            "evaluated": work["evaluated"],
            "baseline": mean(list(accepted.values())),
            "delta": delta,
            "accepted_scores": accepted if reverted else scores,
            "next_cursor": cursor,
            "retry": retry,
            "next_retry": retry + 1 if again else 0,
            "revert_retries": opts.revert_retries,
            "weave_round": stamp,
            "truths_active": counts["truths_active"],
            "truths_reverted": (
                counts["truths_added"] + counts["truths_merged"] + counts["restored"]
                if reverted
                else 0
            ),
        },
    )
    ctx.ledger.add(record)  # the round's decision is durable before the revert is applied
    if reverted:
        await ensure_reverted(ctx, stamp)
    runtime.stream_writer(RoundEvent(event="round", record=record, cached=False))
    return {
        "round": round_ + 1,
        "cursor": cursor,
        "retry": record["next_retry"],
        "accepted": record["accepted_scores"],
        "rounds": [record],
    }


def _test_play(ctx: ExpVerContext, record_id: str) -> LedgerEpisode | None:
    found = ctx.ledger.get(record_id)
    return None if found is None else ledger_episode(found, record_id)


def after_plan(ctx: ExpVerContext, state: ExpVerState) -> Literal["play", "plan", "__end__"]:
    """After ``plan``: play the chosen levels, plan the next round, or stop."""
    if state["round"] > ctx.options.rounds:
        return "__end__"
    return "play" if state.get("ready") else "plan"


def after_promote(state: ExpVerState) -> Literal["play", "evaluate"]:
    """After ``promote``: the round's next level, or the test levels."""
    return "play" if state["index"] < len(state["levels"]) else "evaluate"
