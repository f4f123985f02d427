"""The parent's side of a run over worker slots, whatever runs them: the one-writer loop.

:func:`~langgraph_games.eval.running.executor.run_jobs` hands its jobs here when they run
in other processes: worker processes on this machine (``--workers N``,
:mod:`~langgraph_games.eval.running.workers_pool`) or Ray actors on a cluster
(``--executor ray``, :mod:`~langgraph_games.eval.running.workers_ray`). A backend only
starts a slot's worker, sends it a task and reports what happened (a record, a decision's
usage, a worker lost); this module does the rest, the same for every backend:

- ``concurrency`` bounds the episodes in flight across all slots: a task is sent only while
  fewer than ``concurrency`` are out, to the slot with the fewest.
- The parent stays the one writer: each record is delivered (appended, one atomic line, by
  the caller) as it comes back, those that came back together at once (one ``fsync``),
  and the progress bars move here.
- A worker that dies (killed, out of memory, a Ray node lost) loses only its episodes in
  flight: they are sent again, to a fresh worker in the same slot, at most
  :data:`~langgraph_games.eval.running.workers.MAX_ATTEMPTS` times in all, then recorded
  with ``status: "error"`` (``WorkerLost: ...``). Nothing is written for an episode until
  its record is back, and an episode is out in one slot at a time, so nothing is lost or
  written twice.
- Ctrl-C (or any failure in the parent) stops the workers at once.

A :class:`WorkerPool` may play several batches with the same workers (the benchmark times
a batch on a pool already started); a run plays one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Literal

from langgraph_games.eval.running.jobs import Job
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.running.records import PlayedRecord
from langgraph_games.eval.running.workers import (
    MAX_ATTEMPTS,
    Backend,
    Event,
    Finished,
    Setup,
    SetupFields,
    Task,
    Usage,
    prepare,
)
from langgraph_games.eval.running.workers_pool import ProcessBackend
from langgraph_games.eval.running.workers_ray import RayBackend

__all__ = [
    "WorkerPool",
    "make_backend",
    "run_on_workers",
    "slots_for",
]

Executor = Literal["local", "ray"]

_WAIT_S = 0.2
"""How long the dispatcher waits for a slot's events at most before it looks again."""


def make_backend(executor: Executor, ray_address: str | None = None) -> Backend:
    """The backend of ``executor`` (``local``: worker processes on this machine)."""
    if executor == "ray":
        return RayBackend(ray_address)
    if executor == "local":
        return ProcessBackend()
    raise ValueError(f"executor is 'local' or 'ray', got {executor!r}")


def slots_for(workers: int | Literal["auto"], jobs: int, cores: int, concurrency: int) -> int:
    """Worker slots for ``jobs`` episodes: ``auto`` is ``min(cores, jobs, concurrency)``.

    More workers than episodes in flight (``concurrency``) would only sit idle, so ``auto``
    starts no more than that; it is at least 1 (1: the episodes play in this process).

    Example:
        >>> slots_for("auto", 3, 8, 4), slots_for("auto", 50, 8, 16), slots_for(4, 2, 8, 1)
        (3, 8, 4)
    """
    if workers == "auto":
        return max(1, min(cores, jobs, concurrency))
    return workers


class WorkerPool:
    """Started worker slots and the loop that hands them tasks (see the module docstring).

    ``async with WorkerPool(backend, setup, slots, concurrency) as pool:`` starts the
    workers, ``await pool.run(tasks, deliver, on_usage)`` plays a batch, and leaving the
    block stops them (at once when it is left by an exception, Ctrl-C included).
    """

    def __init__(self, backend: Backend, setup: Setup, slots: int, concurrency: int) -> None:
        self.backend = backend
        self.setup = setup
        self.slots = slots
        self.bound = concurrency
        self.out: list[set[int]] = [set() for _ in range(slots)]

    async def __aenter__(self) -> WorkerPool:
        loop = asyncio.get_running_loop()
        try:
            for slot in range(self.slots):
                await loop.run_in_executor(None, self.backend.start, slot, self.setup)
        except BaseException:
            self.backend.close(at_once=True)
            raise
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        loop = asyncio.get_running_loop()
        if isinstance(self.backend, ProcessBackend):
            self.backend.unwatch()  # on this loop's thread, before the pipes close
        if kind is None:
            await loop.run_in_executor(None, lambda: self.backend.close(at_once=False))
        else:
            self.backend.close(at_once=True)

    async def run(
        self,
        tasks: Sequence[Task],
        deliver: Callable[[list[tuple[int, PlayedRecord]]], None],
        on_usage: Callable[[dict[str, float]], None],
    ) -> None:
        """Play ``tasks``; ``deliver`` in this process gets the records as they come back.

        ``deliver`` is called with ``(index, record)`` of every record that came back
        together, in the order they came, so the writer can append them with one
        ``fsync`` (a record per ``fsync`` made the one writer the bottleneck of a batch).
        """
        loop = asyncio.get_running_loop()
        pending = list(reversed(tasks))
        by_index = {task.index: task for task in tasks}
        attempts = dict.fromkeys(by_index, 0)
        left = len(tasks)

        while left:
            in_flight = sum(len(out) for out in self.out)
            while pending and in_flight < self.bound:
                task = pending.pop()
                slot = min(range(self.slots), key=lambda s: len(self.out[s]))
                self.out[slot].add(task.index)
                attempts[task.index] += 1
                self.backend.send(slot, task)
                in_flight += 1
            came: list[tuple[int, PlayedRecord]] = []
            for event in await self._events(loop):
                if isinstance(event, Usage):
                    on_usage(event.usage)
                elif isinstance(event, Finished):
                    if event.index in self.out[event.slot]:  # not given up on and resent
                        self.out[event.slot].discard(event.index)
                        for usage in event.usages:
                            on_usage(usage)
                        came.append((event.index, event.record))
                else:
                    for index in sorted(self.out[event.slot], reverse=True):
                        if attempts[index] >= MAX_ATTEMPTS:
                            why = (
                                f"WorkerLost: {event.why} while playing this episode, "
                                f"{attempts[index]} time(s)"
                            )
                            came.append((index, by_index[index].lost_record(self.setup.base, why)))
                        else:
                            pending.append(by_index[index])
                    self.out[event.slot].clear()
                    await loop.run_in_executor(None, self.backend.start, event.slot, self.setup)
            if came:
                left -= len(came)
                deliver(came)

    async def _events(self, loop: asyncio.AbstractEventLoop) -> list[Event]:
        """What the slots sent: read on this loop where it can watch their pipes."""
        if isinstance(self.backend, ProcessBackend) and self.backend.watchable:
            return await self.backend.next_events(_WAIT_S)
        return await loop.run_in_executor(None, self.backend.events, _WAIT_S)


async def run_on_workers(
    jobs: Sequence[Job],
    *,
    workers: int | Literal["auto"],
    concurrency: int,
    setup_fields: SetupFields,
    pool: ModelPool | None,
    deliver: Callable[[list[tuple[int, PlayedRecord]]], None],
    on_decision: Callable[[dict[str, float]], None],
    executor: Executor = "local",
    ray_address: str | None = None,
) -> None:
    """Play ``jobs`` on worker slots of ``executor``; see the module docstring.

    Args:
        jobs: The episodes to play.
        workers: Worker slots (``auto``: one per core of the machine, or CPU of the Ray
            cluster, at most one per job and ``concurrency``); fewer start when an
            endpoint has fewer call slots.
        concurrency: Episodes in flight across all slots.
        setup_fields: ``base``, ``options``, ``truths`` and ``progress`` for the workers.
        pool: The run's models (named models are loaded again in each worker).
        deliver: Called in this process with each job's index and finished record, for
            every record that came back together (see :meth:`WorkerPool.run`).
        on_decision: Called with each decision's usage (for the progress bar).
        executor: ``local`` (worker processes on this machine) or ``ray``.
        ray_address: The Ray cluster (default: ``RAY_ADDRESS``, else a local one).
    """
    if not jobs:
        return
    backend = make_backend(executor, ray_address)
    try:
        cores = backend.cores()
        setup, tasks, count = prepare(
            jobs,
            slots=slots_for(workers, len(jobs), cores, concurrency),
            setup_fields=setup_fields,
            pool=pool,
            cores=cores,
        )
    except BaseException:
        backend.close(at_once=True)
        raise
    async with WorkerPool(backend, setup, count, concurrency) as workers_pool:
        await workers_pool.run(tasks, deliver, on_decision)
