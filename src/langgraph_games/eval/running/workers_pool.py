"""Worker processes on this machine (``--workers N``): the process backend of a run.

Each slot is one process started with the ``spawn`` context (so nothing of the parent's
state leaks in but what is sent), with its own asyncio loop playing every task it gets at
once (:class:`~langgraph_games.eval.running.workers.SlotPlayer`). Tasks go to a slot on a
pipe of its own that only the parent writes (:class:`_Inbox` reads it in the worker).
Records and decisions' usage come back on the slot's own pipe, written by the worker's
event loop itself, without blocking it (:class:`_Outbox`): a ``multiprocessing.Queue``
hands each message to a feeder thread, which waits for the GIL while the loop plays
episodes (up to the 5 ms switch interval, several times per message), and a record then
reached the parent 10-20 ms after its episode ended. The parent reads them on its own
event loop, which watches each pipe and process sentinel (:meth:`ProcessBackend.next_events`;
in a thread on Windows, where pipes cannot be watched so). A slot whose process has ended is
reported lost (after every message it sent before dying has been read), and the
dispatcher starts a fresh process in it
(:mod:`~langgraph_games.eval.running.workers_dispatch`).

**A worker never outlives its parent.** The thread that reads a worker's task pipe is its
watchdog: only the parent holds the pipe's write end, so the pipe ends when the parent
ends however it ends (an exit, a crash, ``SIGKILL``), and the worker then exits at once,
whatever its event loop is doing. The ``multiprocessing`` resource tracker the parent
started ends with them: it runs until every process holding its pipe (the parent and
each worker) is gone. (Tasks used to come on a ``multiprocessing.Queue``: a worker held
both of its ends, so nothing told it that its parent had died; it waited in
``inbox.get()`` for ever, and kept the tracker alive with it.)

**Ctrl-C is the parent's.** The terminal sends it to every process of the group; a worker
starts with it blocked (:func:`~langgraph_games._processes.sigint_blocked`, inherited
before Python even starts) and ignores it, so nothing is printed there, during its
imports included, and the parent stops the workers.

**A worker that cannot start stops the run.** A worker says it is ready once it has
imported what it needs (the package, and the script that started the parent, which
``spawn`` imports again in each worker) and unpickled its setup. One that exits before
that could not start, and would fail again in the same way: the run stops with
:class:`~langgraph_games.eval.running.workers.WorkerStartError`, saying why (a script
that runs the command again when it is imported, with no ``if __name__ == "__main__":``
guard, is named as such) and how to fix it, instead of starting it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import signal
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from langgraph_games._processes import REIMPORT_EXIT, reimporting_main, sigint_blocked
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
    WorkerStartError,
    default_workers,
)

__all__ = ["ProcessBackend"]


_HEADER = 4
"""Bytes of a message's length before its pickle on a worker's pipe (big-endian)."""

_PIPE_TRANSPORT = os.name == "posix"
"""Whether a worker's pipes are written without blocking (POSIX pipes: the worker's through
its event loop, the parent's with a buffer); elsewhere each message is sent with
``Connection.send_bytes``, which may wait for the other side to read."""

_PARENT_GONE_EXIT = 1
"""Exit code of a worker whose parent has gone (nobody reads it: the parent is dead)."""

_SEND_WAIT_S = 0.01
"""How long the parent waits for the workers at most while tasks wait to be written."""

_STOP_WAIT_S = 10.0
"""How long a stop waits for workers to take their last message and finish."""


def _worker_main(number: int, setup: Setup, inbox: Connection, outbox: Connection) -> None:
    """A worker process: play the tasks of ``inbox`` on one asyncio loop until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    tasks = _Inbox(inbox)  # from here on the worker ends with its parent
    run_loop(_serve(number, setup, tasks, outbox))


class _Inbox:
    """A worker's tasks, read from its pipe by a thread that is also its parent watchdog.

    The thread takes each burst of tasks waiting in the pipe (one hop to the event loop
    per burst, not per task: a hop back to a loop busy playing episodes waits for the
    GIL, and a hop per task cost a worker about a third more CPU per model call than one
    process) and hands it to the loop. The parent alone holds the pipe's write end, so the
    end of the pipe means the parent has gone: the thread ends the process there and then
    (its records could no longer be delivered), even while the loop is busy or stuck.
    """

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._lock = threading.Lock()
        self._early: list[list[Task | None] | Exception] = []  # before the loop asked
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bursts: asyncio.Queue[list[Task | None] | Exception] | None = None
        threading.Thread(target=self._read, name="langgraph-games-inbox", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                burst = take_waiting(self.connection)
            except (EOFError, OSError):
                os._exit(_PARENT_GONE_EXIT)  # the parent has gone: nothing to play for
            except Exception as exc:  # noqa: BLE001 - a task that cannot be read ends the worker
                self._hand(exc)
                return
            self._hand(burst)

    def _hand(self, item: list[Task | None] | Exception) -> None:
        with self._lock:
            if self._loop is None or self._bursts is None:
                self._early.append(item)
                return
            loop, bursts = self._loop, self._bursts
        with contextlib.suppress(RuntimeError):  # the loop has closed: the worker is ending
            loop.call_soon_threadsafe(bursts.put_nowait, item)

    async def burst(self) -> list[Task | None]:
        """The next tasks that came together (waiting for them); ``None`` says stop."""
        with self._lock:
            if self._bursts is None:
                self._loop = asyncio.get_running_loop()
                self._bursts = asyncio.Queue()
                for early in self._early:
                    self._bursts.put_nowait(early)
                self._early.clear()
            bursts = self._bursts
        item = await bursts.get()
        if isinstance(item, Exception):
            raise item
        return item


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


async def _serve(number: int, setup: Setup, inbox: _Inbox, connection: Connection) -> None:
    outbox = await _Outbox.open(connection)
    outbox.put(("ready", number))  # started: a worker that ends from now on is lost, not failed
    player = SlotPlayer(number, setup)
    tune_worker_process()

    def on_usage(usage: dict[str, float]) -> None:
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
        for position, task in enumerate(await inbox.burst()):
            if task is None:
                stopped = True
                break
            handle = asyncio.ensure_future(play(task, position * START_SPACING_S))
            running.add(handle)
            handle.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)
    await outbox.close()


def _wake(waiter: asyncio.Future[None] | None) -> None:
    """End ``waiter``'s wait (if it is still waiting)."""
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


def take_waiting(inbox: Connection) -> list[Task | None]:
    """The next task (waiting for it), then every task already waiting behind it.

    A burst stops at ``None`` (stop), which is the last thing a parent sends.

    Raises:
        EOFError: The pipe has ended (its writer, the parent, is gone).
    """
    tasks: list[Task | None] = [pickle.loads(inbox.recv_bytes())]
    while tasks[-1] is not None and inbox.poll():
        tasks.append(pickle.loads(inbox.recv_bytes()))
    return tasks


def _framed(data: bytes) -> bytes:
    """``data`` as ``Connection.recv_bytes`` reads a message: its length, then itself."""
    if len(data) > 0x7FFFFFFF:
        return struct.pack("!i", -1) + struct.pack("!Q", len(data)) + data
    return struct.pack("!i", len(data)) + data


@dataclass
class _Worker:
    """The parent's side of one slot's process: the pipe of its tasks, the pipe it writes.

    Attributes:
        process: The worker process.
        inbox: The write end of its task pipe (the parent holds the only one).
        pipe: The read end of the pipe it writes its messages on.
        unread: Bytes read from ``pipe`` that are not a whole message yet.
        ended: ``pipe`` is at its end: the process exited or is exiting.
        ready: It said it started (a worker that ends before that could not start).
        outgoing: Tasks not written to ``inbox`` yet (the pipe was full).
    """

    process: BaseProcess
    inbox: Connection | None
    pipe: Connection
    unread: bytearray = field(default_factory=bytearray)
    ended: bool = False
    ready: bool = False
    outgoing: bytearray = field(default_factory=bytearray)

    def put(self, data: bytes) -> None:
        """Send one pickled message on the task pipe; never blocks on POSIX pipes."""
        assert self.inbox is not None
        if not _PIPE_TRANSPORT:
            with contextlib.suppress(OSError):  # the worker has ended: its sentinel says so
                self.inbox.send_bytes(data)
            return
        self.outgoing += _framed(data)
        self.flush()

    def flush(self) -> None:
        """Write what the task pipe takes now of the tasks waiting to be sent."""
        while self.outgoing and self.inbox is not None:
            try:
                written = os.write(self.inbox.fileno(), self.outgoing)
            except BlockingIOError:
                return
            except OSError:  # the worker has ended: its sentinel reports it
                self.outgoing.clear()
                return
            del self.outgoing[:written]

    def close(self) -> None:
        """Close both pipes (the worker, if still running, sees its parent gone)."""
        self.pipe.close()
        if self.inbox is not None:
            self.inbox.close()

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
        messages: list[tuple[Any, ...]] = []
        start = 0
        while len(self.unread) - start >= _HEADER:
            size = int.from_bytes(self.unread[start : start + _HEADER], "big")
            end = start + _HEADER + size
            if len(self.unread) < end:
                break  # the rest is on its way (or died with its writer)
            messages.append(pickle.loads(self.unread[start + _HEADER : end]))
            start = end
        del self.unread[:start]
        return self._events(messages)

    def _received(self) -> list[Event]:
        """The messages sent with ``Connection.send_bytes`` (where pipes have no transport)."""
        messages: list[tuple[Any, ...]] = []
        try:
            while not self.ended and self.pipe.poll():
                messages.append(pickle.loads(self.pipe.recv_bytes()))
        except (EOFError, OSError):
            self.ended = True
        return self._events(messages)

    def _events(self, messages: list[tuple[Any, ...]]) -> list[Event]:
        found: list[Event] = []
        for message in messages:
            if message[0] == "ready":
                self.ready = True
            elif message[0] == "decision":
                found.append(Usage(message[1], message[2]))
            else:
                found.append(Finished(message[1], message[2], message[3]))
        return found


class ProcessBackend:
    """Spawned worker processes, one per slot (see the module docstring).

    The parent learns what its workers sent either from :meth:`events` (any thread: it
    waits in ``select``) or, on POSIX, from :meth:`next_events` on its event loop, which
    watches every worker's pipe and process sentinel with ``loop.add_reader`` and reads a
    worker's messages as they arrive: no thread, and no hop from one to the loop per batch
    of records (that hop and the ``select`` set up for each wait were a third of the
    parent's CPU per record). :meth:`unwatch` must be called on that loop before
    :meth:`close` (the dispatcher does).
    """

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.workers: dict[int, _Worker] = {}
        self.failed: str | None = None  # why a worker could not start, once one could not
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watched: dict[int, _Worker] = {}  # slot: the worker the loop watches there
        self._found: list[Event] = []  # read by the loop's callbacks, not returned yet
        self._waiter: asyncio.Future[None] | None = None
        self._error: Exception | None = None  # raised in a callback, for next_events

    @property
    def watchable(self) -> bool:
        """Whether :meth:`next_events` can watch the pipes on an event loop (POSIX)."""
        return _PIPE_TRANSPORT

    def cores(self) -> int:
        """This machine's cores (those this process may use)."""
        return default_workers()

    def start(self, slot: int, setup: Setup) -> None:
        """Start a process for ``slot`` (the old one, if any, has ended).

        In a worker that is still importing its parent's script (a script that starts a
        run when imported), this ends that worker with ``REIMPORT_EXIT`` instead: its
        parent names the cause.
        """
        if reimporting_main():
            os._exit(REIMPORT_EXIT)
        old = self.workers.pop(slot, None)
        if old is not None:
            old.close()
        tasks, inbox = self.ctx.Pipe(duplex=False)  # the worker reads tasks, the parent writes
        pipe, writer = self.ctx.Pipe(duplex=False)  # and the other way for its messages
        process = self.ctx.Process(
            target=_worker_main,
            args=(slot, setup, tasks, writer),
            daemon=True,
            name=f"langgraph-games-worker-{slot}",
        )
        if _PIPE_TRANSPORT:
            # Started first (once): starting it ends with Ctrl-C unblocked in this thread.
            resource_tracker.ensure_running()
        try:
            with sigint_blocked():  # the worker starts with Ctrl-C blocked, imports included
                process.start()
        except BaseException:
            inbox.close()
            pipe.close()
            raise
        finally:
            tasks.close()  # the worker's ends are its own: a pipe ends with its one holder
            writer.close()
        if _PIPE_TRANSPORT:
            os.set_blocking(pipe.fileno(), False)
            os.set_blocking(inbox.fileno(), False)
        self.workers[slot] = _Worker(process, inbox, pipe)

    def send(self, slot: int, task: Task) -> None:
        """Write ``task`` to the slot's task pipe (what it cannot take yet goes on later)."""
        self.workers[slot].put(pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL))

    def events(self, timeout: float) -> list[Event]:
        """The messages waiting (up to ``timeout`` s for the first), then any slot lost.

        A slot is lost once its process has ended, after every message it sent before.

        Raises:
            WorkerStartError: A worker ended before it was ready (raised once the events
                that came with it have been returned).
        """
        if self.failed is not None:
            raise WorkerStartError(self.failed)
        watched: list[Any] = []
        sending = False
        for worker in self.workers.values():
            watched.append(worker.process.sentinel)
            if not worker.ended:
                watched.append(worker.pipe)
            sending = sending or bool(worker.outgoing)
        ready = set(wait(watched, min(timeout, _SEND_WAIT_S) if sending else timeout))
        found: list[Event] = []
        failed = None
        for slot, worker in self.workers.items():
            worker.flush()
            if worker.pipe in ready or worker.process.sentinel in ready:
                found += worker.read()
            if worker.process.sentinel in ready:
                failed = self._ended(slot) or failed
        found += self._found
        self._found = []
        if failed is not None and not found:
            raise WorkerStartError(failed)
        return found

    async def next_events(self, timeout: float) -> list[Event]:
        """:meth:`events`, waiting on the running event loop instead of in ``select``.

        The loop watches each worker's pipe and process sentinel from the first call on
        (a worker started since is watched from the next call), and its callbacks read
        messages as they come; this returns what they read, waiting up to ``timeout`` s
        (10 ms while tasks wait to be written) for something.

        Raises:
            WorkerStartError: As :meth:`events`.
            Exception: What reading a worker's messages raised (a message that does not
                unpickle here, say).
        """
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._watch(loop)
        self._flush()
        if not self._found and self.failed is None and self._error is None:
            sending = any(worker.outgoing for worker in self.workers.values())
            waiter = self._waiter = loop.create_future()
            wait = min(timeout, _SEND_WAIT_S) if sending else timeout
            later = loop.call_later(wait, _wake, waiter)
            try:
                await waiter
            finally:
                later.cancel()
                self._waiter = None
            self._flush()
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        found, self._found = self._found, []
        if self.failed is not None and not found:
            raise WorkerStartError(self.failed)
        return found

    def unwatch(self) -> None:
        """Stop watching the workers' pipes (on the loop that watches them; idempotent)."""
        for slot, worker in list(self._watched.items()):
            self._forget(slot, worker)

    def _flush(self) -> None:
        for worker in self.workers.values():
            worker.flush()

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        for slot, worker in list(self.workers.items()):
            old = self._watched.get(slot)
            if old is worker:
                continue
            if old is not None:
                self._forget(slot, old)
            self._watched[slot] = worker
            if not worker.ended:
                loop.add_reader(worker.pipe.fileno(), self._on_message, worker)
            loop.add_reader(worker.process.sentinel, self._on_end, slot, worker)

    def _forget(self, slot: int, worker: _Worker) -> None:
        if self._watched.get(slot) is not worker or self._loop is None:
            return
        del self._watched[slot]
        if self._loop.is_closed():
            return
        self._loop.remove_reader(worker.process.sentinel)
        if not worker.pipe.closed:
            self._loop.remove_reader(worker.pipe.fileno())

    def _on_message(self, worker: _Worker) -> None:
        try:
            self._found += worker.read()
            if worker.ended and self._loop is not None:  # its sentinel says what became of it
                self._loop.remove_reader(worker.pipe.fileno())
        except Exception as exc:  # noqa: BLE001 - raised by next_events, not lost in the loop
            self._error = exc
        _wake(self._waiter)

    def _on_end(self, slot: int, worker: _Worker) -> None:
        try:
            self._found += worker.read()  # everything it sent before it ended
            self._forget(slot, worker)
            self._ended(slot)
        except Exception as exc:  # noqa: BLE001 - raised by next_events, not lost in the loop
            self._error = exc
        _wake(self._waiter)

    def _ended(self, slot: int) -> str | None:
        """Report the ended worker of ``slot`` lost, or why it failed (never ready)."""
        failed = None if self.workers[slot].ready else self._start_failure(slot)
        if failed is None:
            self._found.append(self._lost(slot))
        else:
            self.failed = failed
        return failed

    def close(self, *, at_once: bool) -> None:
        """Stop the processes: let them finish (``None`` on each task pipe) or terminate."""
        if not at_once:
            stop = pickle.dumps(None, protocol=pickle.HIGHEST_PROTOCOL)
            for worker in self.workers.values():
                worker.put(stop)
            deadline = time.monotonic() + _STOP_WAIT_S
            while any(w.outgoing for w in self.workers.values()) and time.monotonic() < deadline:
                time.sleep(_SEND_WAIT_S)
                for worker in self.workers.values():
                    worker.flush()
            for worker in self.workers.values():
                worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in self.workers.values():
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(5)
            worker.close()

    def _lost(self, slot: int) -> Event:
        process = self.workers[slot].process
        process.join(1)  # ended: this reaps it and reads its exit code
        return Lost(slot, f"worker process {slot} ended (exit code {process.exitcode})")

    def _start_failure(self, slot: int) -> str | None:
        """Why the ended worker of ``slot`` (never ready) could not start, if it failed.

        A worker killed by a signal before it was ready (the OOM killer, say) is lost like
        any other (``None``); one that exited by itself would exit again when restarted.
        """
        process = self.workers[slot].process
        process.join(1)
        code = process.exitcode
        if code is None or code < 0:
            return None
        script = getattr(sys.modules.get("__main__"), "__file__", None)
        if code == REIMPORT_EXIT:
            return (
                f"worker process {slot} could not start: every worker process imports the "
                f"script that started this run ({script}), and that script runs the command "
                "again when it is imported. Put that call under "
                '`if __name__ == "__main__":`, or play in this process with --workers 1 '
                "(workers=1 in code)"
            )
        imported = f" and the script that started this run ({script})" if script else ""
        return (
            f"worker process {slot} could not start (exit code {code}; its error is printed "
            f"above): each worker imports the package{imported} again; fix that, or play in "
            "this process with --workers 1 (workers=1 in code)"
        )
