"""Worker processes on this machine (``--workers N``): the process backend of a run.

Each slot is one process started with the ``spawn`` context (so nothing of the parent's
state leaks in but what is sent), with its own asyncio loop playing every task it gets at
once (:class:`~langgraph_games.eval.running.workers.SlotPlayer`). Tasks go to a slot's own
queue; records and decisions' usage come back on one queue shared by all slots. A slot
whose process has ended is reported lost (after every message it sent before dying has
been read), and the dispatcher starts a fresh process in it
(:mod:`~langgraph_games.eval.running.workers_dispatch`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue
import signal
import time
from multiprocessing.process import BaseProcess
from typing import Any

from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.gc_tuning import tune_worker_process
from langgraph_games.eval.running.jobs import START_SPACING_S
from langgraph_games.eval.running.workers import (
    Event,
    Finished,
    Lost,
    Setup,
    SlotPlayer,
    Task,
    Usage,
    default_workers,
)

__all__ = ["ProcessBackend"]

_LIVENESS_EVERY_S = 1.0
"""How often a busy parent still looks for dead workers (an idle one looks at every pause)."""


def _worker_main(number: int, setup: Setup, inbox: Any, outbox: Any) -> None:
    """A worker process: play the tasks of ``inbox`` on one asyncio loop until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    run_loop(_serve(number, setup, inbox, outbox))


async def _serve(number: int, setup: Setup, inbox: Any, outbox: Any) -> None:
    player = SlotPlayer(number, setup)
    tune_worker_process()
    loop = asyncio.get_running_loop()

    def on_usage(usage: dict[str, Any]) -> None:
        outbox.put(("decision", number, usage))

    async def play(task: Task, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        record = await player.play(task, on_usage)
        outbox.put(("record", number, task.index, record))

    running: set[asyncio.Task[None]] = set()
    stopped = False
    while not stopped:
        for position, task in enumerate(await loop.run_in_executor(None, take_waiting, inbox)):
            if task is None:
                stopped = True
                break
            handle = asyncio.ensure_future(play(task, position * START_SPACING_S))
            running.add(handle)
            handle.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)


def take_waiting(inbox: Any) -> list[Task | None]:
    """The next task (waiting for it), then every task already waiting behind it.

    One thread hop per burst, not per task: a hop back to a loop that is busy playing
    episodes waits for the GIL (up to the 5 ms switch interval), and a hop per task
    cost a worker about a third more CPU per model call than one process.
    """
    tasks: list[Task | None] = [inbox.get()]
    while tasks[-1] is not None:
        try:
            tasks.append(inbox.get_nowait())
        except queue.Empty:
            break
    return tasks


class ProcessBackend:
    """Spawned worker processes, one per slot (see the module docstring)."""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.outbox: Any = self.ctx.Queue()
        self.workers: dict[int, tuple[BaseProcess, Any]] = {}
        self.looked = time.monotonic()

    def cores(self) -> int:
        """This machine's cores (those this process may use)."""
        return default_workers()

    def start(self, slot: int, setup: Setup) -> None:
        """Start a process for ``slot`` (the old one, if any, has ended)."""
        inbox = self.ctx.Queue()
        process = self.ctx.Process(
            target=_worker_main,
            args=(slot, setup, inbox, self.outbox),
            daemon=True,
            name=f"langgraph-games-worker-{slot}",
        )
        process.start()
        self.workers[slot] = (process, inbox)

    def send(self, slot: int, task: Task) -> None:
        """Put ``task`` on the slot's queue."""
        self.workers[slot][1].put(task)

    def events(self, timeout: float) -> list[Event]:
        """The messages waiting (up to ``timeout`` s for the first), then any slot lost."""
        from_workers = self._drain(timeout)
        now = time.monotonic()
        if not from_workers or now - self.looked >= _LIVENESS_EVERY_S:
            self.looked = now
            dead = [slot for slot, (p, _) in self.workers.items() if not p.is_alive()]
            if dead:
                # What a dead worker sent before it died is in the pipe: read it first.
                from_workers += self._drain(0.05)
                from_workers += [self._lost(slot) for slot in dead]
        return from_workers

    def close(self, *, at_once: bool) -> None:
        """Stop the processes: let them finish (``None`` on each queue) or terminate."""
        if not at_once:
            for _, inbox in self.workers.values():
                inbox.put(None)
            for process, _ in self.workers.values():
                process.join(10)
        for process, _ in self.workers.values():
            if process.is_alive():
                process.terminate()
                process.join(5)

    def _drain(self, timeout: float) -> list[Event]:
        found: list[Event] = []
        wait: float | None = timeout
        while True:
            try:
                message = self.outbox.get(timeout=wait) if wait else self.outbox.get_nowait()
            except queue.Empty:
                return found
            if message[0] == "decision":
                found.append(Usage(message[1], message[2]))
            else:
                found.append(Finished(message[1], message[2], message[3]))
            wait = None

    def _lost(self, slot: int) -> Event:
        process = self.workers[slot][0]
        return Lost(slot, f"worker process {slot} ended (exit code {process.exitcode})")
