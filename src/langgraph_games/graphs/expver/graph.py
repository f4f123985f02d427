"""Agent-ExpVer as a LangGraph graph: play, reflect, verify, promote, weave, evaluate, revert.

``create_expver_graph(model, game, train_levels=..., test_levels=..., store=...)``
compiles (all nodes async)::

    begin -> plan -> play -> reflect -> replay -> promote --> play (next level)
                                                          --> evaluate -> judge -> plan
    plan -> plan (a round an earlier run judged)      plan -> END (after the last round)

- **begin**: claims the store for this run (a marker under ``("expver", game)``) and
  evaluates the starting policy on the test levels (round 0, the baseline of eq. 6).
- **plan**: picks the round's training levels (in turn from the pool; the same levels
  again after a reverted round when ``retry_reverted``, at most ``revert_retries`` times
  in a row).
- **play** (GeoLink): the player plays the level with the current truths in its prompt.
- **reflect** (InsightForce): the model reads the metrics and the reasoning of the
  first, middle and last steps and writes an experience, "Due to ..., ... happened. Next
  time, I should ...", with strengths and weaknesses; saved as ``pending``. The lessons
  reverted earlier in the run are listed in its prompt as lessons not to propose again.
- **replay**: the same level (same options and seed) with the truths plus the experience.
- **promote**: promoted when the replay succeeds and its score beats the play's (the
  paper's rule; ``require_success`` and ``min_score_gain`` are options); its candidates
  (summary and every strength and weakness, or only the summary; only those that read as
  advice, unless ``require_advice=False``) go to TruthWeaver, stamped with the round;
  otherwise ``rejected``.
- **evaluate**: the policy (base prompt + active truths, eq. 5) plays the test levels.
- **judge** (eq. 6): ``ΔP = mean(new test score - previous accepted test score)``; when
  ``ΔP < 0`` the round's truths are reverted (``TruthWeaver.revert_round``).

Resume: each step's work is recorded under a stable id, episodes and round records in the
ledger, experiences and truths in the store (see :mod:`~langgraph_games.graphs.expver.parts`),
and every node first looks for its record. Invoking the graph again after a crash walks
through what is recorded without playing or calling a model, and continues at the first
missing piece; TruthWeaver inserts are idempotent by candidate id, and a round's decision is
written before its revert, so no truth is lost or duplicated. Invoke with ``{}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import operator
import time
from collections.abc import Sequence
from statistics import fmean
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.types import StreamWriter

from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.graphs.common.llm import model_identity, reply_text
from langgraph_games.graphs.common.prompt_agent import to_messages
from langgraph_games.graphs.eeb.graph import eeb_player
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.graphs.expver.advice import advice_candidates
from langgraph_games.graphs.expver.parts import (
    ExpVerError,
    ExpVerOptions,
    Ledger,
    Level,
    MemoryLedger,
    MetricsFn,
    PlayerFactory,
    default_metrics,
    metric,
    numbers,
    reverted_lessons,
    round_touched,
    round_truth_counts,
)
from langgraph_games.graphs.expver.prompts import (
    experience_lessons,
    parse_reflection,
    reflection_messages,
)
from langgraph_games.memory.hooks import load_truths
from langgraph_games.memory.records import (
    Candidate,
    Experience,
    ExperienceStatus,
    candidates_from_experience,
    experiences_namespace,
    parse_record,
    save_experience,
)
from langgraph_games.memory.truth_weaver import TruthWeaver
from langgraph_games.models.usage import ainvoke_measured

__all__ = ["ExpVerState", "create_expver_graph", "marker_namespace"]


def marker_namespace(game: str) -> tuple[str, str]:
    """Where the run marker of a game's training lives: ``("expver", game)``."""
    return ("expver", game)


class ExpVerState(TypedDict, total=False):
    """State of the ExpVer graph (JSON; rebuilt from the ledger and store on a rerun)."""

    offset: int
    round: int
    cursor: int
    retry: int
    ready: bool
    levels: list[dict[str, Any]]
    index: int
    current: dict[str, Any]
    accepted: dict[str, float]
    rounds: Annotated[list[dict[str, Any]], operator.add]


def _mean(values: Sequence[float]) -> float:
    return fmean(values) if values else 0.0


def create_expver_graph(
    model: BaseChatModel,
    game: str,
    *,
    train_levels: Sequence[Level],
    test_levels: Sequence[Level],
    store: BaseStore | None = None,
    options: ExpVerOptions | None = None,
    player_factory: PlayerFactory | None = None,
    reflect_model: BaseChatModel | None = None,
    merge_model: BaseChatModel | None = None,
    embeddings: Embeddings | None = None,
    ledger: Ledger | None = None,
    metrics: MetricsFn | None = None,
    run_id: str = "expver",
) -> CompiledStateGraph[ExpVerState, None, ExpVerState, ExpVerState]:
    """Compile the Agent-ExpVer training loop for one game.

    Args:
        model: GeoLink's chat model (and InsightForce's and TruthWeaver's by default).
        game: Game id; each level's options complete it.
        train_levels: The pool of training levels (taken ``levels_per_round`` at a time).
        test_levels: The levels every round is evaluated on (eq. 6).
        store: Any LangGraph store (e.g. :class:`~langgraph_games.memory.ChromaStore`);
            the graph is compiled with it. Default: a new ``InMemoryStore``.
        options: The loop's options.
        player_factory: ``(model, engine) -> Player`` for GeoLink; default the
            EvoEmpirBench agent (:func:`~langgraph_games.graphs.eeb.graph.eeb_player`).
        reflect_model: InsightForce's model (default ``model``).
        merge_model: TruthWeaver's model (default ``model``).
        embeddings: TruthWeaver's sentence embeddings (default the offline MiniLM).
        ledger: Where records go and are looked up on a rerun (default in memory).
        metrics: ``(session, result, trajectory) -> metrics``; default the paper's.
        run_id: Names this run in the store (experience ids, run marker).

    Returns:
        The compiled graph (recursion limit raised for long runs). Invoke it with ``{}``;
        the final state's ``rounds`` holds each round's test record. Custom stream events
        (``stream_mode="custom"``) report each step.

    Raises:
        ExpVerError: (when run) the store belongs to another run, or the metrics lack
            ``score_key``/``success_key``.
    """
    opts = options or ExpVerOptions()
    if not train_levels or not test_levels:
        raise ExpVerError("the loop needs at least one training level and one test level")
    for group in (train_levels, test_levels):
        ids = [level.id for level in group]
        if len(set(ids)) != len(ids):
            raise ExpVerError(f"level ids must be unique: {ids}")
    base = make(game)
    game_id = base.id
    memory: BaseStore = store if store is not None else InMemoryStore()
    book: Ledger = ledger if ledger is not None else MemoryLedger()
    score_of: MetricsFn = metrics or default_metrics
    build_player: PlayerFactory = player_factory or (lambda m, g: eeb_player(m, g))
    thinker = reflect_model or model
    weaver = TruthWeaver(
        memory,
        game_id,
        model=merge_model or model,
        embeddings=embeddings,
        mode=opts.weave_mode,
        duplicate_threshold=opts.duplicate_threshold,
        merge_threshold=min(opts.merge_threshold, opts.duplicate_threshold),
        game_name=base.name,
    )
    pool = [level.model_dump(mode="json") for level in train_levels]
    tests = list(test_levels)

    def score(m: dict[str, Any]) -> float:
        return metric(m, opts.score_key, game_id)

    def success(m: dict[str, Any]) -> bool:
        return metric(m, opts.success_key, game_id) > 0

    def truths_now() -> list[str]:
        return load_truths(memory, game_id, limit=opts.truth_limit)

    async def episode(
        record_id: str, level: Level, truths: list[str], round_: int, split: str
    ) -> tuple[dict[str, Any], bool]:
        found = book.get(record_id)
        if found is not None:
            return found, True
        engine = make(game, **level.options)
        started = time.time()
        played = await run_episode(
            engine,
            [build_player(model, engine)],
            seed=level.seed,
            options=opts.episode,
            truths={0: truths},
        )
        result, trajectory = played["result"], played["trajectory"]
        session = GameSession.from_dict(result["record"])
        record = {
            "kind": "episode",
            "id": record_id,
            "episode_id": record_id,
            "round": round_,
            "split": split,
            "level": level.id,
            "game": engine.versioned_id,
            "options": engine.options_dict(),
            "seed": level.seed,
            "truths": list(truths),
            "started_at": started,
            "status": result["status"],
            "result": result,
            "trajectory": trajectory,
            "metrics": score_of(session, result, trajectory),
            "duration_s": time.time() - started,
        }
        book.add(record)
        return record, False

    async def evaluate_tests(round_: int) -> tuple[dict[str, dict[str, Any]], int]:
        truths = truths_now()
        gate = asyncio.Semaphore(opts.concurrency)

        async def one(level: Level) -> tuple[str, dict[str, Any]]:
            async with gate:
                record, _ = await episode(
                    f"r{round_}/test/{level.id}", level, truths, round_, "test"
                )
            return level.id, record["metrics"]

        done = await asyncio.gather(*(one(level) for level in tests))
        return dict(done), len(truths)

    def test_record(
        round_: int,
        results: dict[str, dict[str, Any]],
        scores: dict[str, float],
        extra: dict[str, Any],
    ) -> dict[str, Any]:
        steps = [float(m.get("steps", m.get("steps_used", 0)) or 0) for m in results.values()]
        return {
            "kind": "round",
            "id": f"round/{round_}/test",
            "round": round_,
            "split": "test",
            "game": game_id,
            "success_rate": _mean([float(success(m)) for m in results.values()]),
            "score": _mean(list(scores.values())),
            "steps": _mean(steps),
            "scores": scores,
            **extra,
        }

    # -- nodes ---------------------------------------------------------------------------

    def claim_store() -> int:
        """Mark the store as this run's (or check it is); the weave-round offset."""
        namespace = marker_namespace(game_id)
        marker = memory.get(namespace, "run")
        if marker is not None and marker.value.get("run_id") != run_id:
            raise ExpVerError(
                f"this store holds the {game_id} training run {marker.value.get('run_id')!r}, "
                f"not {run_id!r}: give each training run its own store (another --store or --out)"
            )
        if marker is None and book.get("round/1/test") is not None:
            raise ExpVerError(
                f"the ledger records finished rounds of this {game_id} run but the store has "
                "never seen it: open the store that was trained with these results"
            )
        if marker is not None:
            mine = memory.search(experiences_namespace(game_id), limit=1)
            if mine and book.get("round/0/test") is None:
                raise ExpVerError(
                    f"the store holds experiences of the {game_id} run {run_id!r} but the "
                    "ledger has none of its records: use the results file written with it"
                )
            return int(marker.value.get("round_offset", 0))
        # Truths already there (from elsewhere) keep their rounds; ours come after them.
        offset = max((t.round for t in weaver.truths(status=None)), default=0)
        memory.put(namespace, "run", {"run_id": run_id, "round_offset": offset}, index=False)
        return offset

    async def begin(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        offset = claim_store()
        baseline = book.get("round/0/test")
        if baseline is None:
            results, count = await evaluate_tests(0)
            scores = {k: score(m) for k, m in results.items()}
            extra = {"decision": "baseline", "evaluated": True, "truths_active": count}
            baseline = test_record(0, results, scores, {**extra, "accepted_scores": scores})
            baseline["reverted"] = False
            book.add(baseline)
        runtime.stream_writer({"event": "baseline", "record": baseline})
        return {
            "offset": offset,
            "round": 1,
            "cursor": 0,
            "retry": 0,
            "accepted": dict(baseline["accepted_scores"]),
            "rounds": [baseline],
        }

    def ensure_reverted(stamp: int) -> None:
        if any(round_touched(t, stamp) for t in weaver.truths(status=None)):
            weaver.revert_round(stamp)

    async def plan(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        round_ = state["round"]
        if round_ > opts.rounds:
            return {"ready": False}
        judged = book.get(f"round/{round_}/test")
        if judged is not None:  # decided by an earlier run: apply it again (idempotent)
            if judged.get("reverted"):
                ensure_reverted(state["offset"] + round_)
            runtime.stream_writer({"event": "round", "record": judged, "cached": True})
            return {
                "ready": False,
                "round": round_ + 1,
                "cursor": int(judged["next_cursor"]),
                "retry": int(judged.get("next_retry", 0)),
                "accepted": dict(judged["accepted_scores"]),
                "rounds": [judged],
            }
        count = min(opts.levels_per_round, len(pool))
        levels = [pool[(state["cursor"] + j) % len(pool)] for j in range(count)]
        runtime.stream_writer(
            {"event": "plan", "round": round_, "levels": [lv["id"] for lv in levels]}
        )
        return {"ready": True, "levels": levels, "index": 0}

    async def play(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        round_ = state["round"]
        level = Level.model_validate(state["levels"][state["index"]])
        truths = truths_now()
        record, cached = await episode(
            f"r{round_}/train/{level.id}", level, truths, round_, "train"
        )
        runtime.stream_writer(
            {
                "event": "play",
                "round": round_,
                "level": level.id,
                "cached": cached,
                "metrics": record["metrics"],
                "truths": len(truths),
            }
        )
        return {"current": {"level": level.id, "play": record["id"], "truths": truths}}

    async def reflect(
        state: ExpVerState, *, config: RunnableConfig, writer: StreamWriter
    ) -> dict[str, Any]:
        round_, current = state["round"], dict(state["current"])
        exp_id = f"{run_id}/r{round_}/{current['level']}"
        item = memory.get(experiences_namespace(game_id), exp_id)
        cached = item is not None
        if item is not None:
            experience = parse_record(Experience, item.value, exp_id)
        else:
            played = book.get(current["play"])
            if played is None:
                raise ExpVerError(f"the ledger lost the record {current['play']!r}")
            messages = reflection_messages(
                base.name,
                played["metrics"],
                played.get("trajectory") or [],
                truths=current["truths"],
                reverted=reverted_lessons(weaver.truths(status=None), opts.reverted_shown),
                first=opts.reflect_first,
                last=opts.reflect_last,
                chars=opts.reflect_chars,
            )
            reply, usage = await ainvoke_measured(thinker, to_messages(messages), config)
            text = reply_text(reply)
            parsed = parse_reflection(text)
            prompt_hash = hashlib.sha256(repr(messages).encode()).hexdigest()[:16]
            provenance = {
                "run": run_id,
                "model": model_identity(thinker),
                "prompt_sha256": prompt_hash,
                "reply": text[:2000],
                "tokens": str(
                    int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))
                ),
            }
            if parsed.problem:
                provenance["verdict"] = f"unusable reflection: {parsed.problem}"
            experience = Experience(
                id=exp_id,
                game=game_id,
                level=current["level"],
                episode=current["play"],
                round=round_,
                text=parsed.summary,
                strengths=parsed.strengths,
                weaknesses=parsed.weaknesses,
                metrics=numbers(played["metrics"]),
                status=ExperienceStatus.PENDING if parsed.usable else ExperienceStatus.REJECTED,
                provenance=provenance,
            )
            save_experience(memory, experience)
        writer(
            {
                "event": "reflect",
                "round": round_,
                "level": current["level"],
                "cached": cached,
                "experience": experience.model_dump(mode="json"),
            }
        )
        current["experience"] = exp_id
        return {"current": current}

    def load_experience(exp_id: str) -> Experience:
        item = memory.get(experiences_namespace(game_id), exp_id)
        if item is None:
            raise ExpVerError(f"the store lost the experience {exp_id!r}")
        return parse_record(Experience, item.value, exp_id)

    async def replay(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        round_, current = state["round"], dict(state["current"])
        experience = load_experience(current["experience"])
        has_replay = experience.status != ExperienceStatus.REJECTED or experience.replay_metrics
        if not has_replay:  # nothing usable to verify
            current["replay"] = None
            return {"current": current}
        level = Level.model_validate(state["levels"][state["index"]])
        lessons = experience_lessons(experience.text, experience.strengths, experience.weaknesses)
        record, cached = await episode(
            f"r{round_}/replay/{level.id}",
            level,
            [*current["truths"], *lessons],
            round_,
            "replay",
        )
        runtime.stream_writer(
            {
                "event": "replay",
                "round": round_,
                "level": level.id,
                "cached": cached,
                "metrics": record["metrics"],
            }
        )
        current["replay"] = record["id"]
        return {"current": current}

    def lessons_of(experience: Experience, stamp: int) -> tuple[list[Candidate], list[str]]:
        """The candidates a promoted experience gives, and the items kept out (not advice)."""
        candidates = candidates_from_experience(experience, round=stamp)
        if opts.promote == "summary":
            candidates = [c for c in candidates if c.kind == "summary"]
        if not opts.require_advice:
            return candidates, []
        kept, skipped = advice_candidates(candidates)
        return kept, [cid.removeprefix(f"{experience.id}/") for cid in skipped]

    async def promote(
        state: ExpVerState, *, config: RunnableConfig, writer: StreamWriter
    ) -> dict[str, Any]:
        round_, current = state["round"], state["current"]
        stamp = state["offset"] + round_
        experience = load_experience(current["experience"])
        if experience.status == ExperienceStatus.PENDING and current.get("replay"):
            played, replayed = book.get(current["play"]), book.get(current["replay"])
            if played is None or replayed is None:
                raise ExpVerError("the ledger lost the play or replay of " + experience.id)
            before, after = played["metrics"], replayed["metrics"]
            gain = score(after) - score(before)
            if opts.require_success and not success(after):
                verdict = "rejected: the replay did not succeed"
            elif gain <= opts.min_score_gain:
                verdict = (
                    f"rejected: the replay scored {gain:+g} (needs > {opts.min_score_gain:+g})"
                )
            else:
                verdict = f"promoted: the replay succeeded and scored {gain:+g}"
            promoted = verdict.startswith("promoted")
            status = ExperienceStatus.PROMOTED if promoted else ExperienceStatus.REJECTED
            provenance = {**experience.provenance, "verdict": verdict, "replay": replayed["id"]}
            if promoted:
                _, skipped = lessons_of(experience, stamp)
                if skipped:
                    provenance["not_promoted"] = f"not advice: {', '.join(skipped)}"
            experience = experience.model_copy(
                update={
                    "status": status,
                    "replay_metrics": numbers(after),
                    "provenance": provenance,
                }
            )
            save_experience(memory, experience)
        report = None
        if experience.status == ExperienceStatus.PROMOTED:
            candidates, _ = lessons_of(experience, stamp)
            report = await weaver.ainsert_many(candidates, config=config)
        writer(
            {
                "event": "promote",
                "round": round_,
                "level": current["level"],
                "status": experience.status.value,
                "verdict": experience.provenance.get("verdict", ""),
                "not_promoted": experience.provenance.get("not_promoted", ""),
                "weave": None
                if report is None
                else {
                    "added": report.added,
                    "merged": report.merged,
                    "duplicates": report.exact_duplicates + report.near_duplicates,
                    "near_different": report.near_different,
                    "already_present": report.already_present,
                },
            }
        )
        return {"index": state["index"] + 1}

    async def evaluate(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        round_ = state["round"]
        stamp = state["offset"] + round_
        counts = round_truth_counts(weaver.truths(status=None), stamp)
        last = _last_evaluated(state["rounds"])
        accepted_prompt = (book.get(f"r{last}/test/{tests[0].id}") or {}).get("truths")
        # A duplicate adds support only, but under truth_limit that can change the prompt.
        changed = counts["truths_added"] + counts["truths_merged"] > 0 or (
            accepted_prompt is not None and truths_now() != accepted_prompt
        )
        if changed or opts.reevaluate_unchanged:
            results, _ = await evaluate_tests(round_)
            evaluated = True
        else:  # same prompt as the accepted policy: its scores stand
            results = {
                level.id: (book.get(f"r{last}/test/{level.id}") or {}).get("metrics", {})
                for level in tests
            }
            evaluated = False
        current = {
            "results": results,
            "evaluated": evaluated,
            "counts": counts,
            "changed": changed,
        }
        return {"current": current}

    async def judge(state: ExpVerState, runtime: Runtime[None]) -> dict[str, Any]:
        round_, current, accepted = state["round"], state["current"], state["accepted"]
        stamp = state["offset"] + round_
        results, counts = current["results"], current["counts"]
        scores = {k: score(m) for k, m in results.items()} if current["evaluated"] else accepted
        delta = _mean([scores[k] - accepted[k] for k in accepted])
        changed = bool(current["changed"])
        reverted = opts.revert and changed and delta < -opts.revert_tolerance
        decision = "reverted" if reverted else ("kept" if changed else "unchanged")
        cursor, retry = state["cursor"], int(state.get("retry", 0))
        again = reverted and opts.retry_reverted and retry < opts.revert_retries
        if not again:
            cursor += len(state["levels"])
        if book.get(f"round/{round_}/train") is None:
            book.add(train_record(round_, state["levels"], counts, reverted))
        record = test_record(
            round_,
            results,
            scores,
            {
                "decision": decision,
                "reverted": reverted,
                "evaluated": current["evaluated"],
                "baseline": _mean(list(accepted.values())),
                "delta": delta,
                "accepted_scores": accepted if reverted else scores,
                "next_cursor": cursor,
                "retry": retry,
                "next_retry": retry + 1 if again else 0,
                "revert_retries": opts.revert_retries,
                "weave_round": stamp,
                "truths_active": counts["truths_active"],
            },
        )
        book.add(record)  # the round's decision is durable before the revert is applied
        if reverted:
            ensure_reverted(stamp)
        runtime.stream_writer({"event": "round", "record": record, "cached": False})
        return {
            "round": round_ + 1,
            "cursor": cursor,
            "retry": record["next_retry"],
            "accepted": record["accepted_scores"],
            "rounds": [record],
        }

    def train_record(
        round_: int, levels: list[dict[str, Any]], counts: dict[str, int], reverted: bool
    ) -> dict[str, Any]:
        plays = [book.get(f"r{round_}/train/{lv['id']}") or {} for lv in levels]
        found = [
            memory.get(experiences_namespace(game_id), f"{run_id}/r{round_}/{lv['id']}")
            for lv in levels
        ]
        statuses = [str(item.value.get("status")) if item else "missing" for item in found]
        metrics = [p.get("metrics", {}) for p in plays]
        return {
            "kind": "round",
            "id": f"round/{round_}/train",
            "round": round_,
            "split": "train",
            "game": game_id,
            "levels": [lv["id"] for lv in levels],
            "success_rate": _mean([float(success(m)) for m in metrics]),
            "score": _mean([score(m) for m in metrics]),
            "steps": _mean([float((p.get("result") or {}).get("steps", 0)) for p in plays]),
            "promoted": statuses.count(ExperienceStatus.PROMOTED.value),
            "rejected": statuses.count(ExperienceStatus.REJECTED.value),
            "reverted": reverted,
            **{k: v for k, v in counts.items() if k != "truths_active"},
        }

    # -- routing ---------------------------------------------------------------------------

    def after_plan(state: ExpVerState) -> Literal["play", "plan", "__end__"]:
        if state["round"] > opts.rounds:
            return "__end__"
        return "play" if state.get("ready") else "plan"

    def after_promote(state: ExpVerState) -> Literal["play", "evaluate"]:
        return "play" if state["index"] < len(state["levels"]) else "evaluate"

    builder = StateGraph(ExpVerState)
    for name, node in (
        ("begin", begin),
        ("plan", plan),
        ("play", play),
        ("reflect", reflect),
        ("replay", replay),
        ("promote", promote),
        ("evaluate", evaluate),
        ("judge", judge),
    ):
        builder.add_node(name, node)
    builder.add_edge(START, "begin")
    builder.add_edge("begin", "plan")
    builder.add_conditional_edges("plan", after_plan)
    builder.add_edge("play", "reflect")
    builder.add_edge("reflect", "replay")
    builder.add_edge("replay", "promote")
    builder.add_conditional_edges("promote", after_promote)
    builder.add_edge("evaluate", "judge")
    builder.add_edge("judge", "plan")
    compiled = builder.compile(store=memory, name="expver")
    return compiled.with_config(recursion_limit=10**6)


def _last_evaluated(rounds: Sequence[dict[str, Any]]) -> int:
    """The latest round whose accepted policy was actually played on the test levels."""
    for record in reversed(rounds):
        if record.get("evaluated") and not record.get("reverted"):
            return int(record["round"])
    return 0
