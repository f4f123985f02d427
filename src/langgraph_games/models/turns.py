"""Turns: episodes on one event loop work one at a time, in the order their replies came.

Many episodes share an event loop, and each decision is a chain of short steps (graph
tasks, callbacks) between two model calls. Left alone, the loop runs the ready steps of
every episode in turn, so when several replies land close together their decisions
advance side by side and all finish late: with 32 six-move matches against a 100 ms
model, a reply waited a median 3.5-5.8 ms (up to 15 ms) before its episode asked its next
question, although a decision is about 1.3 ms of CPU.

With turns, one episode at a time *holds the turn*: it works while it holds it, gives it
up while it waits, and queues for it again when the wait is over. Decisions then run
one after another in the order their replies came, each about as long as its own CPU,
and the whole batch ends sooner (see ``docs/performance.md``).

Every model call of the package
(:func:`~langgraph_games.models.retry.ainvoke_with_retry`) waits in
:func:`turn_given_up`: for a slot of its endpoint, for the reply, and between attempts.
Any other wait can go in it too. (Giving the turn up later, as the chat model starts,
and taking it as the reply comes, through a callback handler, was measured too: no
better, and about 0.05 ms more CPU per call.)

Turns are advisory: a holder that keeps the turn longer than :data:`TURN_LEASE_S` (an
episode waiting on something other than a model: a store, a person) loses it to the next
in line and goes on without it, so nothing waits for more than that on anyone else. An
episode that never took a turn (code outside :func:`taking_turns`) is not held up at all.
The executor plays every episode inside :func:`taking_turns`; code that runs many
episodes at once itself can do the same::

    async with taking_turns():
        await run_episode(...)
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

__all__ = ["TURN_LEASE_S", "taking_turns", "turn_given_up"]

TURN_LEASE_S = 0.05
"""The longest an episode keeps the turn while others wait for it (seconds).

A decision's own work takes about 1-2 ms; an episode holding the turn for this long is
waiting on something else, and the next in line goes ahead.
"""


class _Runner:
    """One episode (all its tasks): whether it holds its loop's turn."""

    __slots__ = ("holding", "turns")

    def __init__(self, turns: _Turns) -> None:
        self.turns = turns
        self.holding = False


class _Turns:
    """One event loop's turn: its holder, the queue (first come, first served), the lease.

    One timer at most watches the lease, and only while someone waits: it fires at the
    holder's deadline and moves on to the next holder's, so handing the turn over costs
    no timer.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.holder: _Runner | None = None
        self.granted_at = 0.0
        self.waiting: deque[tuple[_Runner, asyncio.Future[None]]] = deque()
        self.timer: asyncio.TimerHandle | None = None

    def _grant(self, runner: _Runner) -> None:
        self.holder = runner
        self.granted_at = self.loop.time()
        runner.holding = True

    def _next(self) -> None:
        while self.waiting:
            runner, waiter = self.waiting.popleft()
            if not waiter.done():  # cancelled, its task not yet told: skipped
                self._grant(runner)
                waiter.set_result(None)
                return

    def _watch(self) -> None:
        if self.timer is None and self.holder is not None and self.waiting:
            self.timer = self.loop.call_at(self.granted_at + TURN_LEASE_S, self._expire)

    def _expire(self) -> None:
        self.timer = None
        holder = self.holder
        if holder is not None and self.loop.time() >= self.granted_at + TURN_LEASE_S:
            holder.holding = False  # it goes on without the turn
            self.holder = None
            self._next()
        self._watch()

    async def take(self, runner: _Runner) -> None:
        if self.holder is runner:
            return
        if self.holder is None and not self.waiting:
            self._grant(runner)
            return
        waiter: asyncio.Future[None] = self.loop.create_future()
        entry = (runner, waiter)
        self.waiting.append(entry)
        self._watch()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.cancelled():
                if entry in self.waiting:
                    self.waiting.remove(entry)
            else:  # granted as the wait was cancelled: pass it on
                self.give_up(runner)
            raise

    def give_up(self, runner: _Runner) -> None:
        if self.holder is not runner:
            return
        runner.holding = False
        self.holder = None
        self._next()


_LOOPS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turns] = weakref.WeakKeyDictionary()
_RUNNER: ContextVar[_Runner | None] = ContextVar("langgraph_games_turn_runner", default=None)


def _turns() -> _Turns:
    loop = asyncio.get_running_loop()
    turns = _LOOPS.get(loop)
    if turns is None:
        turns = _LOOPS[loop] = _Turns(loop)
    return turns


@asynccontextmanager
async def taking_turns() -> AsyncIterator[None]:
    """Run the block as one episode that takes turns with the others on this loop.

    The block starts once it holds the turn and gives it up when it ends (also on an
    error or cancellation). Tasks the block starts belong to the same episode. Inside an
    episode that already takes turns, it does nothing.

    Example:
        >>> import asyncio
        >>> order = []
        >>> async def episode(name):
        ...     async with taking_turns():
        ...         order.append(name + " asks")
        ...         async with turn_given_up():
        ...             await asyncio.sleep(0.01)  # a model call
        ...         order.append(name + " decides")
        ...         await asyncio.sleep(0)  # a step of its graph
        ...         order.append(name + " decided")
        >>> async def both():
        ...     await asyncio.gather(episode("a"), episode("b"))
        >>> asyncio.run(both())
        >>> order
        ['a asks', 'b asks', 'a decides', 'a decided', 'b decides', 'b decided']
    """
    if _RUNNER.get() is not None:
        yield
        return
    turns = _turns()
    runner = _Runner(turns)
    token = _RUNNER.set(runner)
    try:
        await turns.take(runner)
        yield
    finally:
        turns.give_up(runner)
        _RUNNER.reset(token)


@asynccontextmanager
async def turn_given_up() -> AsyncIterator[None]:
    """Wait in the block without the turn (a model call); take it again after.

    Outside :func:`taking_turns` it does nothing.
    """
    runner = _RUNNER.get()
    if runner is None:
        yield
        return
    runner.turns.give_up(runner)
    try:
        yield
    except asyncio.CancelledError:
        raise  # the episode is being stopped: no need to queue
    except BaseException:
        await runner.turns.take(runner)  # the episode handles the error in its turn
        raise
    await runner.turns.take(runner)
