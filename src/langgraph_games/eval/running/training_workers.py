"""Training episodes over worker processes or Ray actors: ``langgraph-games train --workers N``.

The Agent-ExpVer loop hands its episodes to an
:class:`~langgraph_games.graphs.expver.episodes.EpisodeRunner`. With more than one worker
slot (or on Ray), :func:`training_episodes` gives it a :class:`WorkerEpisodes`, which sends
every batch of more than one episode (a round's test levels) to the executor's
:class:`~langgraph_games.eval.running.workers_dispatch.WorkerPool`, the same pool, backends,
resend of a lost worker's episodes and endpoint shares as ``arena``/``eval`` (see
:mod:`~langgraph_games.eval.running.workers`). A single episode (a training play, its
replay) plays in this process, as it would with one worker: it waits for no other, and
here it has all the cores (the embedded model's threads are split per worker).

What crosses to a worker is a description, never a live player: GeoLink's strategy
recipe (spec and validated settings) and its model *spec*, loaded again once in each
worker with the run's model settings (a model object given to the run in code, such as a
scripted fake, is sent pickled instead), and per episode the level's engine, seed and the
truths of its prompt. Each record comes back to this process, which computes its metrics
and appends it to the ledger (one writer, one atomic line each), so the results, the
resume and the per-round table are those of a run in one process.

An endpoint's bounds are split over the workers (``endpoint_shares``); this process's own
calls (InsightForce, TruthWeaver) never overlap the workers' (the loop waits for each
batch), so the endpoint never sees more than its bound. The pool starts at the first
batch, once per run, and stops at the end of the run, at once on an error or Ctrl-C.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Literal, cast

from langgraph_games.eval.running.jobs import Job
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.running.records import PlayedRecord, RunFields
from langgraph_games.eval.running.workers import (
    Backend,
    PortableSeat,
    Task,
    default_workers,
    prepare,
)
from langgraph_games.eval.running.workers_dispatch import WorkerPool, make_backend, slots_for
from langgraph_games.games.registry import make
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.episodes import (
    Delivered,
    EpisodeRequest,
    EpisodeRunner,
    InProcessEpisodes,
    PlayedEpisode,
)
from langgraph_games.graphs.expver.parts import Level
from langgraph_games.players.entry import PlayerRecipe

__all__ = ["EpisodeFailedError", "WorkerEpisodes", "training_episodes", "uses_workers"]

Executor = Literal["local", "ray"]


class EpisodeFailedError(RuntimeError):
    """An episode of a training run failed in a worker (its error, or its worker lost)."""


def uses_workers(
    workers: int | Literal["auto"], executor: Executor, episodes_at_once: int, concurrency: int
) -> bool:
    """Whether a run plays over worker slots: on Ray, or more than one local slot.

    ``episodes_at_once``: the widest batch of the run (a training run: its test levels).
    """
    if executor == "ray":
        return True
    return slots_for(workers, episodes_at_once, default_workers(), concurrency) > 1


class WorkerEpisodes:
    """An episode runner on a :class:`WorkerPool` (see the module docstring).

    Args:
        here: Plays single episodes in this process.
        agent: GeoLink's resolved recipe.
        models: The pool the agent's model came from (``None``: the model is an object
            given in code, sent pickled).
        backend: Worker processes or Ray.
        stack: Owns the started pool (closed with the run).
        workers: Worker slots asked for (``auto``: ``min(cores, widest batch,
            concurrency)``).
        concurrency: Episodes in flight across all slots.
        options: Episode options.
        probe: Levels of the widest batch (the test levels): they size the pool.
        game: The game id.
    """

    def __init__(
        self,
        here: InProcessEpisodes,
        agent: PlayerRecipe,
        models: ModelPool | None,
        backend: Backend,
        stack: AsyncExitStack,
        *,
        workers: int | Literal["auto"],
        concurrency: int,
        options: EpisodeOptions,
        probe: Sequence[Level],
        game: str,
    ) -> None:
        self.here = here
        self.agent = agent
        self.models = models
        self.backend = backend
        self.stack = stack
        self.workers = workers
        self.concurrency = concurrency
        self.options = options
        self.probe = list(probe)
        self.game = game
        self.pool: WorkerPool | None = None
        self.seat: PortableSeat | None = None
        self.batches = 0

    async def __call__(self, requests: Sequence[EpisodeRequest], done: Delivered) -> None:
        """Play one episode here, a batch of more on the workers; ``done`` as each ends."""
        if len(requests) <= 1:
            await self.here(requests, done)
            return
        pool, seat = await self._started()
        self.batches += 1
        tasks = [
            Task(
                index,
                f"b{self.batches}/{request.level.id}",
                [seat],
                request.level.seed,
                {},
                request.engine,
                truths={0: list(request.truths)},
            )
            for index, request in enumerate(requests)
        ]

        def deliver(came: list[tuple[int, PlayedRecord]]) -> None:
            for index, record in came:
                done(index, played_of(record, requests[index].level.id))

        await pool.run(tasks, deliver, _no_usage)

    async def _started(self) -> tuple[WorkerPool, PortableSeat]:
        """The pool, started at the first batch."""
        if self.pool is None or self.seat is None:
            loop = asyncio.get_running_loop()
            cores = await loop.run_in_executor(None, self.backend.cores)  # Ray: joins
            jobs = [
                Job(level.id, [self.agent], level.seed, {}, make(self.game, **level.options))
                for level in self.probe
            ]
            base = cast("RunFields", {"kind": "episode", "spec_hash": ""})
            setup, tasks, count = prepare(
                jobs,
                slots=slots_for(self.workers, len(jobs), cores, self.concurrency),
                setup_fields={"base": base, "options": self.options, "progress": False},
                pool=self.models,
                cores=cores,
            )
            pool = WorkerPool(self.backend, setup, count, self.concurrency)
            self.pool = await self.stack.enter_async_context(pool)
            self.seat = tasks[0].seats[0]
        return self.pool, self.seat


def played_of(record: PlayedRecord, level: str) -> PlayedEpisode:
    """A worker's record as the loop's :class:`PlayedEpisode`.

    Raises:
        EpisodeFailedError: The episode failed there (or its worker was lost too often).
    """
    if "error" in record or "result" not in record or "trajectory" not in record:
        raise EpisodeFailedError(
            f"the episode of level {level!r} failed in a worker: "
            f"{record.get('error', 'no result came back')}"
        )
    return PlayedEpisode(
        result=record["result"],
        trajectory=list(record["trajectory"]),
        started_at=float(record.get("started_at", time.time())),
        duration_s=float(record.get("duration_s", 0.0)),
    )


def _no_usage(usage: dict[str, float]) -> None:
    """Training shows no decisions bar."""


@asynccontextmanager
async def training_episodes(
    here: InProcessEpisodes,
    agent: PlayerRecipe,
    models: ModelPool | None,
    *,
    workers: int | Literal["auto"],
    executor: Executor,
    ray_address: str | None,
    concurrency: int,
    options: EpisodeOptions,
    tests: Sequence[Level],
    game: str,
) -> AsyncIterator[EpisodeRunner]:
    """The run's episode runner: ``here``, or one on worker slots (stopped on leaving).

    Raises:
        ValueError: ``executor`` is ``ray`` and Ray is not installed.
    """
    if not uses_workers(workers, executor, len(tests), concurrency):
        yield here
        return
    backend = make_backend(executor, ray_address)
    async with AsyncExitStack() as stack:
        stack.callback(backend.close, at_once=True)  # last: a pool never started, Ray joined
        yield WorkerEpisodes(
            here,
            agent,
            models,
            backend,
            stack,
            workers=workers,
            concurrency=concurrency,
            options=options,
            probe=tests,
            game=game,
        )
