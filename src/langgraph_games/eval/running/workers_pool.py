"""Worker processes on this machine (``--workers N``): the process backend of a run.

Each slot is one process started with the ``spawn`` context (so nothing of the parent's
state leaks in but what is sent), with its own asyncio loop playing every task it gets at
once (:class:`~langgraph_games.eval.running.workers.SlotPlayer`). Tasks go to a slot's own
queue. Records and decisions' usage come back on the slot's own pipe, written by the
worker's event loop itself, without blocking it (:class:`_Outbox`): a
``multiprocessing.Queue`` hands each message to a feeder thread, which waits for the GIL
while the loop plays episodes (up to the 5 ms switch interval, several times per message),
and a record then reached the parent 10-20 ms after its episode ended. A slot whose
process has ended is reported lost (after every message it sent before dying has been
read), and the dispatcher starts a fresh process in it
(:mod:`~langgraph_games.eval.running.workers_dispatch`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import queue
import signal
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
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


_HEADER = 4
"""Bytes of a message's length before its pickle on a worker's pipe (big-endian)."""

_PIPE_TRANSPORT = os.name == "posix"
"""Whether a worker's pipe is written through the event loop (POSIX pipes); elsewhere each
message is sent with ``Connection.send_bytes``, which may wait for the parent to read."""


def _worker_main(number: int, setup: Setup, inbox: Any, outbox: Connection) -> None:
    """A worker process: play the tasks of ``inbox`` on one asyncio loop until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    run_loop(_serve(number, setup, inbox, outbox))


class _Outbox:
    """A worker's messages to the parent: length-prefixed pickles on its own pipe.

    The event loop writes each one at once through a pipe transport, which buffers what
    the pipe cannot take yet and writes it as the parent reads, so a parent busy writing
    records never blocks the worker's loop and no thread waits for the GIL.
    """

    def __init__(
        self, transport: asyncio.WriteTransport | None, connection: Connection | None = None
    ) -> None:
        self.transport = transport
        self.connection = connection

    @classmethod
    async def open(cls, connection: Connection) -> _Outbox:
        """The outbox on ``connection``'s pipe (which it takes over and closes)."""
        if not _PIPE_TRANSPORT:
            return cls(None, connection)
        pipe = os.fdopen(os.dup(connection.fileno()), "wb", buffering=0)
        connection.close()
        transport, _ = await asyncio.get_running_loop().connect_write_pipe(
            asyncio.BaseProtocol, pipe
        )
        return cls(transport)

    def put(self, message: tuple[Any, ...]) -> None:
        """Send ``message`` (written now, or as soon as the pipe has room)."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        if self.transport is None:
            assert self.connection is not None
            self.connection.send_bytes(data)
            return
        self.transport.write(len(data).to_bytes(_HEADER, "big") + data)

    async def close(self) -> None:
        """Close after everything put has been written (the parent reads until the end)."""
        if self.transport is None:
            assert self.connection is not None
            self.connection.close()
            return
        while self.transport.get_write_buffer_size() and not self.transport.is_closing():
            await asyncio.sleep(0.005)
        self.transport.close()


async def _serve(number: int, setup: Setup, inbox: Any, connection: Connection) -> None:
    outbox = await _Outbox.open(connection)
    player = SlotPlayer(number, setup)
    tune_worker_process()
    loop = asyncio.get_running_loop()

    def on_usage(usage: dict[str, Any]) -> None:
        outbox.put(("decision", number, usage))

    async def play(task: Task, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        # The parent waits for a record of every task: a failure here is that record.
        try:
            record = await player.play(task, on_usage)
        except Exception as exc:  # noqa: BLE001
            why = f"{type(exc).__name__} in worker {number}: {exc}"
            record = task.lost_record(setup.base, why)
        try:
            outbox.put(("record", number, task.index, record))
        except Exception as exc:  # noqa: BLE001
            why = f"the record could not be sent from worker {number}: {type(exc).__name__}: {exc}"
            outbox.put(("record", number, task.index, task.lost_record(setup.base, why)))

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
    await outbox.close()


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


@dataclass
class _Worker:
    """The parent's side of one slot's process: its task queue and the pipe it writes."""

    process: BaseProcess
    inbox: Any
    pipe: Connection
    unread: bytearray = field(default_factory=bytearray)
    ended: bool = False  # the pipe is at its end: the process exited or is exiting

    def read(self) -> list[Event]:
        """Every whole message in the pipe now (it never blocks)."""
        if not _PIPE_TRANSPORT:
            return self._received()
        while not self.ended:
            try:
                chunk = os.read(self.pipe.fileno(), 1 << 16)
            except BlockingIOError:
                break
            self.unread += chunk
            self.ended = not chunk
        found: list[Event] = []
        start = 0
        while len(self.unread) - start >= _HEADER:
            size = int.from_bytes(self.unread[start : start + _HEADER], "big")
            end = start + _HEADER + size
            if len(self.unread) < end:
                break  # the rest is on its way (or died with its writer)
            found.append(_event(pickle.loads(self.unread[start + _HEADER : end])))
            start = end
        del self.unread[:start]
        return found

    def _received(self) -> list[Event]:
        """The messages sent with ``Connection.send_bytes`` (where pipes have no transport)."""
        found: list[Event] = []
        try:
            while not self.ended and self.pipe.poll():
                found.append(_event(pickle.loads(self.pipe.recv_bytes())))
        except (EOFError, OSError):
            self.ended = True
        return found


def _event(message: tuple[Any, ...]) -> Event:
    if message[0] == "decision":
        return Usage(message[1], message[2])
    return Finished(message[1], message[2], message[3])


class ProcessBackend:
    """Spawned worker processes, one per slot (see the module docstring)."""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.workers: dict[int, _Worker] = {}

    def cores(self) -> int:
        """This machine's cores (those this process may use)."""
        return default_workers()

    def start(self, slot: int, setup: Setup) -> None:
        """Start a process for ``slot`` (the old one, if any, has ended)."""
        old = self.workers.pop(slot, None)
        if old is not None:
            old.pipe.close()
        inbox = self.ctx.Queue()
        pipe, writer = self.ctx.Pipe(duplex=False)
        process = self.ctx.Process(
            target=_worker_main,
            args=(slot, setup, inbox, writer),
            daemon=True,
            name=f"langgraph-games-worker-{slot}",
        )
        try:
            process.start()
        finally:
            writer.close()  # the worker's copy is its own: the pipe ends when it exits
        if _PIPE_TRANSPORT:
            os.set_blocking(pipe.fileno(), False)
        self.workers[slot] = _Worker(process, inbox, pipe)

    def send(self, slot: int, task: Task) -> None:
        """Put ``task`` on the slot's queue."""
        self.workers[slot].inbox.put(task)

    def events(self, timeout: float) -> list[Event]:
        """The messages waiting (up to ``timeout`` s for the first), then any slot lost.

        A slot is lost once its process has ended, after every message it sent before.
        """
        watched: list[Any] = []
        for worker in self.workers.values():
            watched.append(worker.process.sentinel)
            if not worker.ended:
                watched.append(worker.pipe)
        ready = set(wait(watched, timeout))
        found: list[Event] = []
        for slot, worker in self.workers.items():
            if worker.pipe in ready or worker.process.sentinel in ready:
                found += worker.read()
            if worker.process.sentinel in ready:
                found.append(self._lost(slot))
        return found

    def close(self, *, at_once: bool) -> None:
        """Stop the processes: let them finish (``None`` on each queue) or terminate."""
        if not at_once:
            for worker in self.workers.values():
                worker.inbox.put(None)
            for worker in self.workers.values():
                worker.process.join(10)
        for worker in self.workers.values():
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(5)
            worker.pipe.close()

    def _lost(self, slot: int) -> Event:
        process = self.workers[slot].process
        process.join(1)  # ended: this reaps it and reads its exit code
        return Lost(slot, f"worker process {slot} ended (exit code {process.exitcode})")
