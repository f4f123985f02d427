"""Bounding how many model calls run at once: one limiter per endpoint, bounds per job.

Every model call of the package goes through
:func:`~langgraph_games.models.retry.ainvoke_with_retry` (or its sync twin), which holds a
slot of a :class:`CallLimiter` for each attempt (not during the backoff sleep between
attempts). By default that limiter is the endpoint's (:func:`limiter_for`): one per model
endpoint, shared by every caller in the process, unbounded until someone sets a bound.

A job that must not flood an endpoint takes a *child* of the endpoint's limiter
(``limiter_for(model).child(8)``) and passes it to its calls: a slot of the child is also a
slot of the parent, so the job is bounded by its own limit and by whatever bound the
endpoint has. The study graph does this (``concurrency``), and the evaluation executor uses
the same class to bound the episodes it plays at once.

The limiter works for async callers (``async with limiter.slot():``) and threads
(``with limiter.slot_sync():``), on any event loop: it is guarded by a
:class:`threading.Lock` and wakes an async waiter on its own loop, so one limiter may serve
several ``asyncio.run`` calls one after another and sync graphs running nodes in threads.
Waiters are served first come, first served.

Example:
    >>> import asyncio
    >>> limiter = CallLimiter(2)
    >>> async def call(i: int) -> int:
    ...     async with limiter.slot():
    ...         await asyncio.sleep(0.01)
    ...         return i
    >>> async def main() -> list[int]:
    ...     return list(await asyncio.gather(*(call(i) for i in range(5))))
    >>> asyncio.run(main()), limiter.stats().peak
    ([0, 1, 2, 3, 4], 2)
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["CallLimiter", "LimiterStats", "endpoint_key", "limiter_for"]


@dataclass(frozen=True)
class LimiterStats:
    """A limiter's counters at one moment.

    Attributes:
        limit: The bound now in force (``None``: none).
        active: Slots held now.
        waiting: Callers waiting for a slot.
        peak: The most slots held at once since creation.
        entered: Slots granted in all.
    """

    limit: int | None
    active: int
    waiting: int
    peak: int
    entered: int


class _Waiter:
    """One caller waiting for a slot: an async future on its loop, or a thread's event."""

    __slots__ = ("event", "future", "granted", "loop")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop | None = None,
        future: asyncio.Future[None] | None = None,
        event: threading.Event | None = None,
    ) -> None:
        self.loop = loop
        self.future = future
        self.event = event
        self.granted = False

    def wake(self) -> bool:
        """Tell the waiter it holds a slot; ``False`` when it can no longer be told."""
        if self.event is not None:
            self.event.set()
            return True
        if self.loop is None or self.future is None:
            return False
        try:
            self.loop.call_soon_threadsafe(_resolve, self.future)
        except RuntimeError:  # its event loop is closed: nobody is waiting any more
            return False
        return True


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _check_limit(limit: int | None) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"a concurrency limit is a whole number >= 1 or None, got {limit!r}")
    return limit


class CallLimiter:
    """At most ``limit`` holders of a slot at once (``None``: no bound).

    Args:
        limit: The bound; ``None`` for none.
        parent: A limiter whose slot is also taken with each slot of this one (the
            endpoint's, for a job's bound: see :meth:`child`).
        name: A label for messages and stats.

    Raises:
        ValueError: ``limit`` is not a whole number >= 1 or ``None``.
    """

    def __init__(
        self, limit: int | None = None, *, parent: CallLimiter | None = None, name: str = ""
    ) -> None:
        self.name = name
        self.parent = parent
        self._limit = _check_limit(limit)
        self._caps: list[int] = []
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()
        self._active = 0
        self._peak = 0
        self._entered = 0

    # ----- the bound -----------------------------------------------------------------

    @property
    def limit(self) -> int | None:
        """The bound now in force: the set limit, lowered by any active :meth:`capped`."""
        with self._lock:
            return self._effective()

    def set_limit(self, limit: int | None) -> None:
        """Change the bound; raising it lets waiters in at once.

        Raises:
            ValueError: Not a whole number >= 1 or ``None``.
        """
        checked = _check_limit(limit)
        with self._lock:
            self._limit = checked
            self._grant()

    @contextmanager
    def capped(self, limit: int) -> Iterator[CallLimiter]:
        """Lower the bound to at most ``limit`` while the block runs (slots held stay held).

        Raises:
            ValueError: Not a whole number >= 1.
        """
        checked = _check_limit(limit)
        if checked is None:
            raise ValueError("capped() needs a whole number >= 1")
        with self._lock:
            self._caps.append(checked)
        try:
            yield self
        finally:
            with self._lock:
                self._caps.remove(checked)
                self._grant()

    def child(self, limit: int | None, name: str = "") -> CallLimiter:
        """A new limiter bounded by ``limit`` whose slots also hold a slot of this one."""
        return CallLimiter(limit, parent=self, name=name or self.name)

    # ----- async slots ---------------------------------------------------------------

    async def acquire(self) -> None:
        """Wait for a slot (of this limiter, then of its parents)."""
        await self._acquire_own()
        if self.parent is not None:
            try:
                await self.parent.acquire()
            except BaseException:
                self._release_own()
                raise

    def release(self) -> None:
        """Give a slot back (to the parents too)."""
        if self.parent is not None:
            self.parent.release()
        self._release_own()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """``async with limiter.slot():`` holds one slot for the block."""
        await self.acquire()
        try:
            yield
        finally:
            self.release()

    async def _acquire_own(self) -> None:
        with self._lock:
            if not self._waiters and self._has_room():
                self._take()
                return
            loop = asyncio.get_running_loop()
            future: asyncio.Future[None] = loop.create_future()
            waiter = _Waiter(loop=loop, future=future)
            self._waiters.append(waiter)
        try:
            await future
        except BaseException:
            with self._lock:
                if waiter.granted:  # granted while being cancelled: pass the slot on
                    self._active -= 1
                    self._grant()
                else:
                    self._waiters.remove(waiter)
            raise

    # ----- sync slots ----------------------------------------------------------------

    def acquire_sync(self) -> None:
        """Block the calling thread until a slot is free (of this limiter and its parents).

        Never call it on an event loop's thread while async holders run on that loop.
        """
        self._acquire_own_sync()
        if self.parent is not None:
            try:
                self.parent.acquire_sync()
            except BaseException:
                self._release_own()
                raise

    @contextmanager
    def slot_sync(self) -> Iterator[None]:
        """``with limiter.slot_sync():`` holds one slot for the block (threads)."""
        self.acquire_sync()
        try:
            yield
        finally:
            self.release()

    def _acquire_own_sync(self) -> None:
        with self._lock:
            if not self._waiters and self._has_room():
                self._take()
                return
            event = threading.Event()
            waiter = _Waiter(event=event)
            self._waiters.append(waiter)
        try:
            event.wait()
        except BaseException:
            with self._lock:
                if waiter.granted:
                    self._active -= 1
                    self._grant()
                else:
                    self._waiters.remove(waiter)
            raise

    # ----- counters ------------------------------------------------------------------

    def stats(self) -> LimiterStats:
        """The counters now."""
        with self._lock:
            return LimiterStats(
                self._effective(), self._active, len(self._waiters), self._peak, self._entered
            )

    def __repr__(self) -> str:
        stats = self.stats()
        label = f"{self.name!r}, " if self.name else ""
        return f"CallLimiter({label}limit={stats.limit}, active={stats.active})"

    # ----- internals (self._lock held) -------------------------------------------------

    def _effective(self) -> int | None:
        bounds = [b for b in (self._limit, *self._caps) if b is not None]
        return min(bounds) if bounds else None

    def _has_room(self) -> bool:
        limit = self._effective()
        return limit is None or self._active < limit

    def _take(self) -> None:
        self._active += 1
        self._entered += 1
        self._peak = max(self._peak, self._active)

    def _grant(self) -> None:
        while self._waiters and self._has_room():
            waiter = self._waiters.popleft()
            waiter.granted = True
            self._take()
            if not waiter.wake():
                self._active -= 1
                self._entered -= 1

    def _release_own(self) -> None:
        with self._lock:
            if self._active <= 0:
                raise RuntimeError("release() without a slot held")
            self._active -= 1
            self._grant()


# ----- one limiter per endpoint ---------------------------------------------------------

_REGISTRY: dict[str, CallLimiter] = {}
_REGISTRY_LOCK = threading.Lock()


def endpoint_key(model: Any) -> str:
    """What identifies a model's endpoint: its class, base URL (if any) and model name.

    Two model objects built from the same spec share a key, so they share a limiter.

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> endpoint_key(ScriptedChatModel(name_="m"))
        'ScriptedChatModel::m'
    """
    base = getattr(model, "openai_api_base", None) or getattr(model, "base_url", None) or ""
    name = (
        getattr(model, "model_name", None)
        or getattr(model, "model", None)
        or getattr(model, "model_path", None)
        or ""
    )
    return f"{type(model).__name__}:{base}:{name}"


def limiter_for(model: Any) -> CallLimiter:
    """The process-wide limiter of ``model``'s endpoint (created unbounded on first use).

    Every call through :func:`~langgraph_games.models.retry.ainvoke_with_retry` holds one
    of its slots unless the caller passes a child of it. ``limiter_for(m).set_limit(n)``
    bounds every caller of that endpoint; ``limiter_for(m).capped(n)`` does so for a block.
    """
    key = endpoint_key(model)
    with _REGISTRY_LOCK:
        limiter = _REGISTRY.get(key)
        if limiter is None:
            limiter = _REGISTRY[key] = CallLimiter(name=key)
        return limiter
