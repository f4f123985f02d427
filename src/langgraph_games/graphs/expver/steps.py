"""The units of work of the Agent-ExpVer nodes: episodes, test runs, records, store writes.

Each is a function of the loop's :class:`~langgraph_games.graphs.expver.context.
ExpVerContext`. Episodes and round records go to the ledger under stable ids and are
looked up there first, so a rerun after a crash redoes nothing; every store call uses the
store's async API. Whatever writes the truth base (a weave, a revert) tells the context's
:class:`~langgraph_games.graphs.expver.truths.RunTruths` so (a weave with what it wrote).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Literal

from langchain_core.runnables import RunnableConfig

from langgraph_games._json import JsonObject
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.graphs.expver.context import ExpVerContext, marker_namespace
from langgraph_games.graphs.expver.episodes import EpisodeRequest, PlayedEpisode
from langgraph_games.graphs.expver.parts import (
    ExpVerError,
    Level,
    round_touched,
)
from langgraph_games.graphs.expver.records import (
    Judged,
    LedgerEpisode,
    LedgerRecord,
    TestRound,
    TrainRound,
    is_episode,
    is_test_round,
)
from langgraph_games.graphs.expver.verdicts import ReplayVerdict
from langgraph_games.memory.contest import Arbiter
from langgraph_games.memory.records import (
    Candidate,
    Evidence,
    Experience,
    ExperienceStatus,
    candidates_from_experience,
    experiences_namespace,
)
from langgraph_games.memory.truth_weaver import WeaveReport

__all__ = [
    "claim_store",
    "ensure_reverted",
    "episode_record",
    "evaluate_tests",
    "last_evaluated",
    "ledger_episode",
    "ledger_test_round",
    "lessons_of",
    "mean",
    "play_level",
    "play_levels",
    "test_record",
    "train_record",
    "weave",
]


def mean(values: Sequence[float]) -> float:
    """The mean, 0 for none."""
    return fmean(values) if values else 0.0


async def play_level(
    ctx: ExpVerContext,
    record_id: str,
    level: Level,
    truths: Sequence[str],
    round_: int,
    split: Literal["train", "replay", "test", "contest"],
) -> tuple[LedgerEpisode, bool]:
    """Play ``level`` with ``truths`` in GeoLink's prompt, or find the ledger's record.

    Returns:
        The episode record and whether it came from the ledger.

    Raises:
        ExpVerError: The ledger holds another kind of record under ``record_id``.
    """
    found = ctx.ledger.get(record_id)
    if found is not None:
        return ledger_episode(found, record_id), True
    [record] = await play_levels(ctx, [(record_id, level)], truths, round_, split)
    return record, False


async def play_levels(
    ctx: ExpVerContext,
    work: Sequence[tuple[str, Level]],
    truths: Sequence[str],
    round_: int,
    split: Literal["train", "replay", "test", "contest"],
) -> list[LedgerEpisode]:
    """Play each ``(record id, level)`` of ``work`` with the context's episode runner.

    Each episode's record goes to the ledger as soon as it comes back (in this process),
    so a crash in the middle keeps those finished.

    Returns:
        The records, in the order of ``work``.
    """
    requests = [
        EpisodeRequest(level, make(ctx.game, **level.options), tuple(truths)) for _, level in work
    ]
    records: dict[int, LedgerEpisode] = {}

    def done(index: int, played: PlayedEpisode) -> None:
        record = episode_record(ctx, work[index][0], requests[index], played, round_, split)
        ctx.ledger.add(record)
        records[index] = record

    if requests:
        await ctx.episodes(requests, done)
    missing = [work[i][0] for i in range(len(work)) if i not in records]
    if missing:
        raise ExpVerError(f"the episode runner did not play {', '.join(missing)}")
    return [records[i] for i in range(len(work))]


def episode_record(
    ctx: ExpVerContext,
    record_id: str,
    request: EpisodeRequest,
    played: PlayedEpisode,
    round_: int,
    split: Literal["train", "replay", "test", "contest"],
) -> LedgerEpisode:
    """The ledger record of a finished episode (its metrics computed here)."""
    engine, result, trajectory = request.engine, played.result, played.trajectory
    session = GameSession.from_dict(result["record"])
    return {
        "kind": "episode",
        "id": record_id,
        "episode_id": record_id,
        "round": round_,
        "split": split,
        "level": request.level.id,
        "game": engine.versioned_id,
        "options": engine.options_dict(),
        "seed": request.level.seed,
        "truths": list(request.truths),
        "started_at": played.started_at,
        "status": result["status"],
        "result": {**result, "players": [dict(seat) for seat in result["players"]]},
        "trajectory": trajectory,
        "metrics": ctx.metrics(session, result, trajectory),
        "duration_s": played.duration_s,
    }


async def evaluate_tests(ctx: ExpVerContext, round_: int) -> tuple[dict[str, JsonObject], int]:
    """Play every test level with the current truths, all in one batch for the runner.

    Levels the ledger already holds (a resumed run) are not played again; the runner
    plays the rest (``concurrency`` at once by default, or over worker processes).

    Returns:
        The metrics per level id and how many truths the prompt held.
    """
    truths = await ctx.truths.get()
    found: dict[str, LedgerEpisode] = {}
    work: list[tuple[str, Level]] = []
    for level in ctx.tests:
        record_id = f"r{round_}/test/{level.id}"
        recorded = ctx.ledger.get(record_id)
        if recorded is not None:
            found[level.id] = ledger_episode(recorded, record_id)
        else:
            work.append((record_id, level))
    played = await play_levels(ctx, work, truths, round_, "test")
    found.update({level.id: record for (_, level), record in zip(work, played, strict=True)})
    return {level.id: found[level.id]["metrics"] for level in ctx.tests}, len(truths)


def test_record(
    ctx: ExpVerContext,
    round_: int,
    results: Mapping[str, Mapping[str, object]],
    scores: Mapping[str, float],
    judged: Judged,
) -> TestRound:
    """A round's test record (``round/<r>/test``): success, score and steps over the levels.

    ``judged`` holds eq. 6's decision and the judge's bookkeeping (see :class:`TestRound`).
    """
    # Family metrics name the step count differently (maze/Match-2: steps_used).
    steps = [_steps(m) for m in results.values()]
    return {
        "kind": "round",
        "id": f"round/{round_}/test",
        "round": round_,
        "split": "test",
        "game": ctx.game_id,
        "success_rate": mean([float(ctx.success(m)) for m in results.values()]),
        "score": mean(list(scores.values())),
        "steps": mean(steps),
        "scores": dict(scores),
        # mypy asks for the optional spec_hash and label among the ** items: a ledger adds them.
        **judged,  # type: ignore[typeddict-item]
    }


def _steps(metrics: Mapping[str, object]) -> float:
    value = metrics.get("steps", metrics.get("steps_used", 0))
    return float(value) if isinstance(value, int | float) else 0.0


def train_record(
    ctx: ExpVerContext,
    round_: int,
    levels: Sequence[JsonObject],
    counts: Mapping[str, int],
    reverted: bool,
    verdicts: Mapping[str, ReplayVerdict],
    refusals: Sequence[str] = (),
) -> TrainRound:
    """A round's training record (``round/<r>/train``): its plays and what was promoted.

    ``verdicts`` holds the verdict of each level's experience (by level id), from the state.

    Raises:
        ExpVerError: The ledger lost a play of the round.
    """
    ids = [str(lv["id"]) for lv in levels]
    plays = [_play_of(ctx, f"r{round_}/train/{level_id}") for level_id in ids]
    found = [verdicts.get(level_id) for level_id in ids]
    statuses = [v.status for v in found if v is not None]
    metrics = [p["metrics"] for p in plays]
    return {
        "kind": "round",
        "id": f"round/{round_}/train",
        "round": round_,
        "split": "train",
        "game": ctx.game_id,
        "levels": ids,
        "success_rate": mean([float(ctx.success(m)) for m in metrics]),
        "score": mean([ctx.score(m) for m in metrics]),
        "steps": mean([float(p["result"]["steps"]) for p in plays]),
        "promoted": statuses.count(ExperienceStatus.PROMOTED),
        "rejected": statuses.count(ExperienceStatus.REJECTED),
        "reverted": reverted,
        "truths_added": counts["truths_added"],
        "truths_merged": counts["truths_merged"],
        "duplicates": counts["duplicates"],
        "same_meaning": counts["same_meaning"],
        "supported": counts["supported"],
        "refined": counts["refined"],
        "superseded": counts["superseded"],
        "restored": counts["restored"],
        "refused": counts["refused"],
        "contests": counts["contests"],
        "refusals": list(refusals),
    }


def ledger_episode(record: LedgerRecord, record_id: str) -> LedgerEpisode:
    """``record`` as the episode it must be.

    Raises:
        ExpVerError: It is a round record.
    """
    if not is_episode(record):
        raise ExpVerError(f"the ledger holds a {record['kind']} record under {record_id!r}")
    return record


def ledger_test_round(record: LedgerRecord, record_id: str) -> TestRound:
    """``record`` as the round test record it must be.

    Raises:
        ExpVerError: It is another kind of record.
    """
    if not is_test_round(record):
        raise ExpVerError(f"the ledger holds no round test record under {record_id!r}")
    return record


def _play_of(ctx: ExpVerContext, record_id: str) -> LedgerEpisode:
    found = ctx.ledger.get(record_id)
    if found is None:
        raise ExpVerError(f"the ledger lost the record {record_id!r}")
    return ledger_episode(found, record_id)


async def claim_store(ctx: ExpVerContext) -> int:
    """Mark the store as this run's (or check it is); returns the weave-round offset.

    Raises:
        ExpVerError: The store belongs to another run, or the store and the ledger do not
            belong together.
    """
    namespace = marker_namespace(ctx.game_id)
    key = "run" if ctx.exclusive else f"run:{ctx.run_id}"
    marker = await ctx.store.aget(namespace, key)
    if marker is not None and marker.value.get("run_id") != ctx.run_id:
        raise ExpVerError(
            f"this store holds the {ctx.game_id} training run {marker.value.get('run_id')!r}, "
            f"not {ctx.run_id!r}: give each training run its own store (another --store or --out)"
        )
    if marker is None and ctx.ledger.get("round/1/test") is not None:
        raise ExpVerError(
            f"the ledger records finished rounds of this {ctx.game_id} run but the store has "
            "never seen it: open the store that was trained with these results"
        )
    if marker is not None:
        mine = await ctx.store.asearch(experiences_namespace(ctx.game_id), limit=1)
        if mine and ctx.ledger.get("round/0/test") is None:
            raise ExpVerError(
                f"the store holds experiences of the {ctx.game_id} run {ctx.run_id!r} but the "
                "ledger has none of its records: use the results file written with it"
            )
        return int(marker.value.get("round_offset", 0))
    # Truths already there (from elsewhere) keep their rounds; ours come after them.
    offset = max((t.round for t in await ctx.truths.all()), default=0)
    await ctx.store.aput(
        namespace, key, {"run_id": ctx.run_id, "round_offset": offset}, index=False
    )
    return offset


async def ensure_reverted(ctx: ExpVerContext, stamp: int) -> None:
    """Revert weave round ``stamp`` unless nothing live holds a change of it (idempotent)."""
    if any(round_touched(t, stamp) for t in await ctx.truths.all()):
        await ctx.weaver.arevert_round(stamp)
        ctx.truths.changed()


async def weave(
    ctx: ExpVerContext, candidates: Sequence[Candidate], config: RunnableConfig, arbiter: Arbiter
) -> WeaveReport:
    """Give promoted candidates to TruthWeaver (idempotent by candidate id).

    ``arbiter`` settles contradictions (the loop's replays, :class:`~langgraph_games.graphs.
    expver.contests.ReplayArbiter`). Any insert may change the prompt, even one that only
    adds support to an entry (the truth limit keeps the strongest), so the prompt's truths
    are chosen again afterwards, from the truth base the weaver wrote (read again only when
    the insert failed).
    """
    try:
        return await ctx.weaver.ainsert_many(candidates, config=config, arbiter=arbiter)
    finally:
        ctx.truths.changed(ctx.weaver.written())


def lessons_of(
    ctx: ExpVerContext, experience: Experience, stamp: int
) -> tuple[list[Candidate], list[str]]:
    """The candidates a promoted experience gives, and the items kept out.

    Each candidate carries the verification as evidence: the replay (with the experience)
    against the play (without it) on the experience's level. With ``require_advice`` only
    the summary and the lessons the model typed as advice are candidates; observations
    and untyped items are kept out (named ``observation: lesson/0``, ``untyped:
    strength/1``).
    """
    before = ctx.score(experience.metrics)
    after = ctx.score(experience.replay_metrics or experience.metrics)
    proof = Evidence(
        round=stamp,
        kind="verified",
        levels=[experience.level],
        score=after,
        baseline=before,
        won=after > before,
        candidate=experience.id,
    )
    candidates = candidates_from_experience(experience, round=stamp, evidence=[proof])
    if ctx.options.promote == "summary":
        candidates = [c for c in candidates if c.kind == "summary"]
    if not ctx.options.require_advice:
        return candidates, []
    kept = [c for c in candidates if c.kind in ("summary", "advice")]
    skipped = [
        f"{'observation' if c.kind == 'observation' else 'untyped'}: "
        f"{c.id.removeprefix(experience.id + '/')}"
        for c in candidates
        if c not in kept
    ]
    return kept, skipped


def last_evaluated(rounds: Sequence[TestRound]) -> int:
    """The latest round whose accepted policy was actually played on the test levels."""
    for record in reversed(rounds):
        if record["evaluated"] and not record["reverted"]:
            return int(record["round"])
    return 0
