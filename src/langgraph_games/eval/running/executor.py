"""The shared executor of arenas and evaluation runs.

Jobs (one episode each) run concurrently under a bound on one asyncio loop. Each finished
episode becomes one record appended to the results file at once (its metrics, encoding
and ``fsync`` run in a worker thread, so nothing slow and synchronous holds up the loop);
a job whose players fail (e.g. a model endpoint that stays down after retries) is
recorded with ``status: "error"`` and the others go on. On Ctrl-C or any failure the jobs
still running are cancelled, so what is on disk is exactly what finished (a finished
episode whose append had started is written whole), and a rerun skips it. A run holds
its results file's writer lock while it plays (:meth:`ResultsFile.writing
<langgraph_games.eval.running.results.ResultsFile.writing>`): a second run of the same
command, in another process, is refused at once and names the process that writes.

An LLM strategy's player (and its compiled graph) is built once per run for each spec,
game and settings, and serves all of the run's episodes, also at once (see
:mod:`~langgraph_games.eval.running.jobs`). With more than one worker (or on Ray) the
episodes run over worker processes or Ray actors, each with its own event loop, and this
process stays the one writer (see :mod:`~langgraph_games.eval.running.workers_dispatch`).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from langgraph_games._files import write_atomic
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.eval.running.group_append import GroupAppend
from langgraph_games.eval.running.jobs import (
    START_SPACING_S,
    Job,
    PlayerCache,
    finish_record,
    play_job,
)
from langgraph_games.eval.running.players import ModelPool, check_models
from langgraph_games.eval.running.provenance import provenance
from langgraph_games.eval.running.records import PlayedRecord, RunFields
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.workers import default_workers
from langgraph_games.eval.running.workers_dispatch import run_on_workers, slots_for
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.models.factory import describe_model
from langgraph_games.models.limiter import CallLimiter
from langgraph_games.players.base import Decision
from langgraph_games.players.entry import PlayerRecipe

__all__ = ["Job", "preflight", "run_jobs", "write_manifest"]


def preflight(players: Sequence[PlayerRecipe], game: Game[GameState]) -> list[dict[str, object]]:
    """Build every player once and check every model before any episode starts.

    Returns:
        Each seat's player description (``Player.describe()``: the strategy's settings
        as it will play them, e.g. the SmartPlay history window), for the manifest.

    Raises:
        PlayerSettingError: The settings do not fit together.
        ValueError: A player cannot play ``game``, or asks a person (an unattended run
            cannot wait for one: ``langgraph-games play`` and ``run_episode`` can).
        ModelUnavailableError: A model cannot be reached or loaded.
    """
    built = [(recipe, recipe.build(game)) for recipe in players]
    people = [recipe.spec.label for recipe, player in built if player.interactive]
    if people:
        raise ValueError(
            f"{', '.join(repr(p) for p in people)} asks a person at every move, and arenas and "
            "evaluation runs play unattended; play against it with 'langgraph-games play "
            "<game> --players human <opponent>' (or run_episode in your own code)"
        )
    described: list[dict[str, object]] = [
        {"spec": recipe.spec.label, **player.describe()} for recipe, player in built
    ]
    check_models(players)
    return described


def write_manifest(path: Path, data: Mapping[str, object], models: ModelPool) -> None:
    """Write ``<results>.manifest.json`` atomically: the resolved spec and what ran it.

    Beside ``data`` (the run's resolved spec, every field, defaults included): the
    package and dependency versions, the source's git commit when there is one, the host,
    the start time (:func:`~langgraph_games.eval.running.provenance.provenance`) and the
    models used. :func:`~langgraph_games.eval.running.provenance.finish_manifest` adds the
    end time.
    """
    manifest = {
        **data,
        **provenance(),
        "models": {name: describe_model(model) for name, model in models.models.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest, indent=2, sort_keys=True, default=str)
    write_atomic(path.with_suffix(".manifest.json"), text)


async def run_jobs(
    jobs: Sequence[Job],
    *,
    base: RunFields,
    results: ResultsFile,
    options: EpisodeOptions,
    concurrency: int,
    progress: bool,
    total: int,
    finish: Callable[[PlayedRecord, Game[GameState]], None] | None = None,
    on_record: Callable[[PlayedRecord], None] | None = None,
    truths: Mapping[int, Sequence[str]] | None = None,
    workers: int | Literal["auto"] = 1,
    models: ModelPool | None = None,
    executor: Literal["local", "ray"] = "local",
    ray_address: str | None = None,
) -> tuple[int, int]:
    """Play ``jobs`` and append one record each; returns ``(played, errors)``.

    Args:
        jobs: The episodes still to play.
        base: Fields every record starts with (``kind``, ``spec_hash``, the id key ...).
        results: Where records go.
        options: Episode options.
        concurrency: Episodes at once (a :class:`~langgraph_games.models.limiter.
            CallLimiter`, the class that bounds model calls per endpoint).
        progress: Show progress bars on stderr: episodes, and decisions with the model
            calls and tokens so far (LLM episodes are long: this one moves every step).
        total: Size of the whole run (for the bar; finished ones count as done).
        finish: Adds fields to a record before it is written (e.g. family metrics); it
            gets the record and the job's game. With workers it runs in the worker, so
            it must be picklable (a module-level function). One that fails makes that
            episode's error record.
        on_record: Called with each record after it is written.
        truths: Lessons per seat, read once by the caller and given to every episode
            (evaluation runs give the agent's seat the truth store's lessons).
        workers: Worker processes (``auto``: ``min(cores, len(jobs), concurrency)``);
            ``1`` plays every episode on this process's loop. With more,
            ``concurrency`` bounds the episodes in flight across them all, and an
            endpoint's call bound is split between them (see
            :mod:`~langgraph_games.eval.running.workers_dispatch`).
        models: The run's models: a worker loads each model of the pool again by its
            spec, with the pool's settings (other model objects are sent pickled).
        executor: ``local`` (this process, or worker processes per ``workers``) or
            ``ray`` (``workers`` Ray actors; ``auto``: one per CPU of the cluster).
        ray_address: The Ray cluster (default: ``RAY_ADDRESS``, else a local one).

    Raises:
        ResultsFileBusyError: Another run is writing ``results`` (its process is named),
            or wrote to it after the caller read what was done; nothing is played.
        WorkerStartError: A worker process could not start (the message says why).
    """
    with results.writing():  # one run writes a file at a time: a second is refused
        bar = _progress(total=total, initial=total - len(jobs), enabled=progress)
        steps = _decisions_bar(jobs, options, enabled=progress)
        episodes_at_once = CallLimiter(concurrency, name="episodes")
        built = PlayerCache()
        appender = GroupAppend(results)  # records waiting together share one fsync
        counts = {"played": 0, "errors": 0}
        used = {"calls": 0, "tokens": 0}

        def on_usage(usage: Mapping[str, float]) -> None:
            used["calls"] += int(usage.get("calls", 0))
            used["tokens"] += int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))
            steps.update(1)
            if used["calls"]:
                steps.set_postfix(calls=used["calls"], tokens=used["tokens"], refresh=False)

        def on_decision(decision: Decision) -> None:
            on_usage(decision.usage)

        def written(record: PlayedRecord) -> None:
            counts["played"] += 1
            counts["errors"] += record["status"] == "error"
            bar.update(1)
            if on_record is not None:
                on_record(record)

        def write(came: list[tuple[int, PlayedRecord]]) -> None:
            # The workers' records, finished there (``finish`` ran in the worker), arrive on
            # a loop that plays no episode itself: those that came together share one fsync.
            records = [record for _, record in came]
            results.extend(records)
            for record in records:
                written(record)

        async def one(job: Job, position: int) -> None:
            async with episodes_at_once.slot():  # taken in job order: nothing awaited before
                if 0 < position < concurrency:  # the first batch; later ones start as others end
                    await asyncio.sleep(position * START_SPACING_S)
                record = await play_job(
                    job,
                    base,
                    options,
                    built,
                    on_decision if progress else None,
                    truths=truths,
                )
                # Metrics replay the episode, and the append encodes and fsyncs the record:
                # slow synchronous work, done in worker threads so the other episodes go on.
                if finish is not None and record["status"] != "error":
                    record = await asyncio.to_thread(finish_record, job, base, record, finish)
                await appender.append(record)
                written(record)

        tasks: list[asyncio.Future[None]] = []
        try:
            if (
                executor == "ray"
                or slots_for(workers, len(jobs), default_workers(), concurrency) > 1
            ):
                await run_on_workers(
                    jobs,
                    workers=workers,
                    executor=executor,
                    ray_address=ray_address,
                    concurrency=concurrency,
                    setup_fields={
                        "base": base,
                        "options": options,
                        "truths": {k: list(v) for k, v in truths.items()} if truths else None,
                        "progress": progress,
                        "finish": finish,
                    },
                    pool=models,
                    deliver=write,
                    on_decision=on_usage,
                )
            else:
                with steady_gc():  # see gc_tuning: a third of the CPU per call, untuned
                    tasks = [asyncio.ensure_future(one(job, i)) for i, job in enumerate(jobs)]
                    await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await appender.drain()  # the records of cancelled episodes' appends, too
            steps.close()
            bar.close()
        return counts["played"], counts["errors"]


class _NoBar:
    def update(self, n: int) -> None:
        """Ignore progress."""

    def set_postfix(self, **kwargs: Any) -> None:
        """Ignore progress."""

    def close(self) -> None:
        """Nothing to close."""


def _progress(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc="episodes", unit="ep", file=sys.stderr)


def _decisions_bar(jobs: Sequence[Job], options: EpisodeOptions, enabled: bool) -> Any:
    """A bar over decisions; its total is known for one-seat games with a step limit."""
    if not enabled or not jobs:
        return _NoBar()
    from tqdm import tqdm

    single = all(job.game.num_players == 1 for job in jobs)
    total = len(jobs) * options.max_steps if single and options.max_steps else None
    return tqdm(total=total, desc="decisions", unit="dec", file=sys.stderr, position=1)
