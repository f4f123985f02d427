"""Episodes over worker processes: each worker runs its own asyncio loop, the parent writes.

:func:`~langgraph_games.eval.running.executor.run_jobs` with ``workers > 1`` hands its jobs to
this module. The parent starts ``workers`` processes (``spawn`` context, so nothing of the
parent's state leaks in but what is sent), and stays the one writer: every finished episode
comes back as its record and the parent appends it (one atomic line, as with one process),
runs ``finish`` and ``on_record`` and moves the progress bars.

What crosses to a worker is picklable descriptions, never live players: per seat its parsed
spec, validated settings and where its chat model comes from (a model loaded from a spec is
named by that spec and loaded again, once, in each worker with the run's model settings; a
model object given directly, such as a scripted fake, is pickled). Each worker resolves every
seat once and builds an LLM strategy's player once per game, as the one-process executor does.

Bounds:

- ``concurrency`` bounds the episodes in flight across all workers: the parent sends a job
  only while fewer than ``concurrency`` are out, to the worker with the fewest.
- An endpoint's bound on concurrent model calls (``limiter_for(model).set_limit(n)`` in the
  parent) is split between the workers so that the shares sum to ``n`` (worker ``i`` gets
  ``n // W`` plus one for the first ``n % W``); with fewer slots than workers, only ``n``
  workers start. The calls in flight to an endpoint from all workers together therefore
  never exceed its bound, with no round trip to the parent per call. Its requests per
  second (``--rate-limit``) are split evenly the same way, and its longest
  ``Retry-After`` wait is kept. (A split, not a semaphore held by the parent: a
  ``multiprocessing.Manager`` semaphore would cost a round trip to another process per
  model call, the very per-call work the workers are there to spread; the price is that
  a worker cannot borrow another's idle slots.)

A worker that dies (killed, out of memory) loses only its episodes in flight: they are sent
again, to a fresh worker, at most :data:`MAX_ATTEMPTS` times in all, then recorded with
``status: "error"``. Nothing is written for an episode until its record is back, so nothing
is lost or written twice. Ctrl-C (or any failure in the parent) stops the workers at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import queue
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.eval.running.jobs import Job, PlayerCache, job_record, play_job
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.running.records import JobFields, PlayedRecord, RunFields
from langgraph_games.games.base import Game
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.models.limiter import limiter_for
from langgraph_games.models.ratelimit import (
    max_retry_wait_of,
    rate_limit_of,
    set_max_retry_wait,
    set_rate_limit,
)
from langgraph_games.players import registry
from langgraph_games.players.base import Decision
from langgraph_games.players.entry import PlayerRecipe
from langgraph_games.players.spec import PlayerSettings, PlayerSpec

__all__ = [
    "MAX_ATTEMPTS",
    "EndpointShare",
    "PortableSeat",
    "default_workers",
    "endpoint_shares",
    "portable",
    "run_on_workers",
    "split_limit",
]

MAX_ATTEMPTS = 3
"""How many times an episode is sent to a worker before a lost worker counts as its error."""


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def split_limit(limit: int, workers: int) -> list[int]:
    """Shares of an endpoint's ``limit`` for ``workers`` workers: they sum to ``limit``.

    Example:
        >>> split_limit(5, 2), split_limit(8, 4), split_limit(2, 3)
        ([3, 2], [2, 2, 2, 2], [1, 1])
    """
    used = min(workers, limit)
    return [limit // used + (1 if i < limit % used else 0) for i in range(used)]


@dataclass(frozen=True)
class PortableSeat:
    """A seat's resolved spec as a worker gets it: spec, settings and model source.

    Attributes:
        spec: The parsed spec.
        settings: The validated settings.
        model: ``None`` (no model), a model spec to load in the worker, or a model object.
    """

    spec: PlayerSpec
    settings: PlayerSettings
    model: str | BaseChatModel | None

    def recipe(self, pool: ModelPool) -> PlayerRecipe:
        """The recipe again, in a worker, with its model from ``pool`` (or as sent)."""
        model = pool.get(self.model) if isinstance(self.model, str) else self.model
        return PlayerRecipe(
            spec=self.spec,
            entry=registry.player_entry(self.spec.name),
            settings=self.settings,
            model=model,
        )


@dataclass(frozen=True)
class _Setup:
    """What every worker gets once, at start."""

    base: RunFields
    options: EpisodeOptions
    model_settings: dict[str, Any]
    endpoints: dict[str, EndpointShare]
    truths: dict[int, list[str]] | None
    progress: bool


@dataclass(frozen=True)
class _Task:
    index: int
    job_id: str
    seats: list[PortableSeat]
    seed: int
    extra: JobFields
    game: Game[Any]


def _worker_main(number: int, setup: _Setup, inbox: Any, outbox: Any) -> None:
    """A worker process: play the tasks of ``inbox`` on one asyncio loop until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    asyncio.run(_serve(number, setup, inbox, outbox))


async def _serve(number: int, setup: _Setup, inbox: Any, outbox: Any) -> None:
    pool = ModelPool(**setup.model_settings)
    recipes: dict[tuple[str, str, str], PlayerRecipe] = {}
    built = PlayerCache()
    loop = asyncio.get_running_loop()

    def recipe_of(seat: PortableSeat) -> PlayerRecipe:
        key = (seat.spec.label, repr(seat.settings), repr(seat.model))
        if key not in recipes:
            recipe = recipes[key] = seat.recipe(pool)
            share = setup.endpoints.get(seat.model) if isinstance(seat.model, str) else None
            if recipe.model is not None and share is not None:
                share.apply(recipe.model, number)
        return recipes[key]

    def on_decision(decision: Decision) -> None:
        outbox.put(("decision", number, dict(decision.usage)))

    async def play(task: _Task) -> None:
        try:
            seats = [recipe_of(seat) for seat in task.seats]
        except Exception as exc:  # noqa: BLE001 - recorded on this episode
            record = job_record(
                setup.base,
                task.extra,
                game=task.game.versioned_id,
                seed=task.seed,
                seats=[seat.spec.label for seat in task.seats],
                error=f"{type(exc).__name__}: {exc}",
            )
        else:
            job = Job(task.job_id, seats, task.seed, task.extra, task.game)
            record = await play_job(
                job,
                setup.base,
                setup.options,
                built,
                on_decision if setup.progress else None,
                truths=setup.truths,
            )
        outbox.put(("record", number, task.index, record))

    running: set[asyncio.Task[None]] = set()
    while True:
        task = await loop.run_in_executor(None, inbox.get)
        if task is None:
            break
        handle = asyncio.ensure_future(play(task))
        running.add(handle)
        handle.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)


@dataclass
class _Worker:
    number: int
    process: BaseProcess
    inbox: Any
    out: set[int] = field(default_factory=set)


def portable(recipe: PlayerRecipe, pool: ModelPool | None) -> PortableSeat:
    """The seat description of ``recipe`` to send to workers.

    A model the pool loaded is named by its spec; any other model object is sent itself.
    """
    named = {id(model): spec for spec, model in (pool.models.items() if pool else [])}
    model: str | BaseChatModel | None = recipe.model
    if recipe.model is not None and id(recipe.model) in named:
        model = named[id(recipe.model)]
    return PortableSeat(recipe.spec, recipe.settings, model)


def _checked(seat: PortableSeat) -> PortableSeat:
    """``seat`` if it can be sent to a worker process (a queue would fail silently later)."""
    try:
        pickle.dumps(seat)
    except Exception as exc:
        raise TypeError(
            f"player {seat.spec.label!r} cannot be sent to a worker process ({exc}): its "
            "model object cannot be pickled; name the model by a spec (the run's model "
            "pool loads it again in each worker) or run with one worker"
        ) from exc
    return seat


@dataclass(frozen=True)
class EndpointShare:
    """An endpoint's bounds as this run's workers share them.

    Attributes:
        calls: Each worker's share of the endpoint's concurrent calls (``None``: unbounded).
        rate: Requests per second of each worker (the endpoint's rate over the workers).
        max_retry_wait: The endpoint's longest ``Retry-After`` wait, as in the parent.
    """

    calls: list[int] | None
    rate: float | None
    max_retry_wait: float

    def apply(self, model: BaseChatModel, number: int) -> None:
        """Give worker ``number``'s model its share of the endpoint."""
        if self.calls is not None:
            limiter_for(model).set_limit(self.calls[number])
        set_rate_limit(model, self.rate)
        set_max_retry_wait(model, self.max_retry_wait)


def endpoint_shares(
    seats: Sequence[PortableSeat], recipes: Sequence[PlayerRecipe], workers: int
) -> dict[str, EndpointShare]:
    """Each named model's bounds in this process, split over ``workers``.

    Returns:
        Shares by model spec; ``len(calls)`` of a bounded endpoint may be below
        ``workers`` (fewer slots than workers), and then only that many workers start.
    """
    shares: dict[str, EndpointShare] = {}
    for seat, recipe in zip(seats, recipes, strict=True):
        if isinstance(seat.model, str) and recipe.model is not None:
            bound = limiter_for(recipe.model).stats().limit
            calls = split_limit(bound, workers) if bound is not None else None
            used = len(calls) if calls else workers
            rate = rate_limit_of(recipe.model)
            shares[seat.model] = EndpointShare(
                calls=calls,
                rate=rate / used if rate else None,
                max_retry_wait=max_retry_wait_of(recipe.model),
            )
    return shares


async def run_on_workers(
    jobs: Sequence[Job],
    *,
    workers: int,
    concurrency: int,
    setup_fields: Mapping[str, Any],
    pool: ModelPool | None,
    deliver: Callable[[int, PlayedRecord], None],
    on_decision: Callable[[dict[str, Any]], None],
) -> None:
    """Play ``jobs`` on worker processes; see the module docstring.

    Args:
        jobs: The episodes to play.
        workers: Worker processes (fewer start when an endpoint has fewer slots).
        concurrency: Episodes in flight across all workers.
        setup_fields: ``base``, ``options``, ``truths`` and ``progress`` for the workers.
        pool: The run's models (named models are loaded again in each worker).
        deliver: Called in this process with each job's index and finished record.
        on_decision: Called with each decision's usage (for the progress bar).
    """
    if not jobs:
        return
    recipes: dict[int, PlayerRecipe] = {}
    seats: dict[int, PortableSeat] = {}
    for job in jobs:
        for recipe in job.seats:
            if id(recipe) not in seats:
                recipes[id(recipe)] = recipe
                seats[id(recipe)] = _checked(portable(recipe, pool))
    endpoints = endpoint_shares(list(seats.values()), list(recipes.values()), workers)
    count = min([workers, len(jobs), *(len(e.calls) for e in endpoints.values() if e.calls)])
    setup = _Setup(
        base=setup_fields["base"].copy(),
        options=setup_fields["options"],
        model_settings=dict(pool.settings) if pool else {},
        endpoints=endpoints,
        truths=setup_fields.get("truths"),
        progress=bool(setup_fields.get("progress")),
    )
    tasks = [
        _Task(i, job.job_id, [seats[id(r)] for r in job.seats], job.seed, job.extra, job.game)
        for i, job in enumerate(jobs)
    ]
    await _Dispatch(setup, count, concurrency, tasks, deliver, on_decision).run()


class _Dispatch:
    """The parent's side: start workers, hand out tasks, collect records, replace the dead."""

    def __init__(
        self,
        setup: _Setup,
        count: int,
        concurrency: int,
        tasks: list[_Task],
        deliver: Callable[[int, PlayedRecord], None],
        on_decision: Callable[[dict[str, Any]], None],
    ) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.setup = setup
        self.count = count
        self.bound = concurrency
        self.pending = list(reversed(tasks))
        self.tasks = {task.index: task for task in tasks}
        self.attempts = {task.index: 0 for task in tasks}
        self.left = len(tasks)
        self.deliver = deliver
        self.on_decision = on_decision
        self.outbox: Any = self.ctx.Queue()
        self.workers: list[_Worker] = []

    def _start(self, number: int) -> _Worker:
        inbox = self.ctx.Queue()
        process = self.ctx.Process(
            target=_worker_main,
            args=(number, self.setup, inbox, self.outbox),
            daemon=True,
            name=f"langgraph-games-worker-{number}",
        )
        process.start()
        return _Worker(number, process, inbox)

    def _send(self) -> None:
        in_flight = sum(len(w.out) for w in self.workers)
        while self.pending and in_flight < self.bound:
            task = self.pending.pop()
            worker = min(self.workers, key=lambda w: len(w.out))
            worker.out.add(task.index)
            self.attempts[task.index] += 1
            worker.inbox.put(task)
            in_flight += 1

    def _replace_dead(self) -> None:
        for slot, worker in enumerate(self.workers):
            if worker.process.is_alive():
                continue
            for index in sorted(worker.out, reverse=True):
                if self.attempts[index] >= MAX_ATTEMPTS:
                    self._finish(index, self._lost(index, worker))
                else:
                    self.pending.append(self.tasks[index])
            worker.out.clear()
            self.workers[slot] = self._start(worker.number)

    def _lost(self, index: int, worker: _Worker) -> PlayedRecord:
        task = self.tasks[index]
        return job_record(
            self.setup.base,
            task.extra,
            game=task.game.versioned_id,
            seed=task.seed,
            seats=[seat.spec.label for seat in task.seats],
            error=(
                f"WorkerLost: worker process {worker.number} ended (exit code "
                f"{worker.process.exitcode}) while playing this episode, {self.attempts[index]} "
                "time(s)"
            ),
        )

    def _finish(self, index: int, record: PlayedRecord) -> None:
        self.left -= 1
        self.deliver(index, record)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self.workers = [self._start(number) for number in range(self.count)]
        try:
            while self.left:
                self._send()
                message = await loop.run_in_executor(None, _get, self.outbox, 0.2)
                if message is None:
                    self._replace_dead()
                    continue
                if message[0] == "decision":
                    self.on_decision(message[2])
                    continue
                _, number, index, record = message
                worker = next(w for w in self.workers if w.number == number)
                if index in worker.out:  # not already given up on and sent elsewhere
                    worker.out.discard(index)
                    self._finish(index, record)
            for worker in self.workers:
                worker.inbox.put(None)
            for worker in self.workers:
                await loop.run_in_executor(None, worker.process.join, 10)
        finally:
            for worker in self.workers:
                if worker.process.is_alive():
                    worker.process.terminate()
                    worker.process.join(5)


def _get(source: Any, timeout: float) -> Any:
    try:
        return source.get(timeout=timeout)
    except queue.Empty:
        return None
