"""The call limiter: bounds, children, caps, cancellation, threads, and model calls."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage

from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.limiter import CallLimiter, endpoint_key, limiter_for
from langgraph_games.models.retry import ainvoke_with_retry, invoke_with_retry


class InFlight:
    """Counts calls running at once."""

    def __init__(self) -> None:
        self.now = 0
        self.peak = 0
        self.lock = threading.Lock()

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


class TrackingModel(ScriptedChatModel):
    """A scripted model that records how many of its calls overlap."""

    tracker: Any = None

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.tracker.enter()
        try:
            return await super()._agenerate(messages, *args, **kwargs)
        finally:
            self.tracker.leave()

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.tracker.enter()
        try:
            return super()._generate(messages, *args, **kwargs)
        finally:
            self.tracker.leave()


async def _hold(limiter: CallLimiter, tracker: InFlight, order: list[int], i: int) -> None:
    async with limiter.slot():
        tracker.enter()
        order.append(i)
        await asyncio.sleep(0.01)
        tracker.leave()


def test_async_bound_and_first_come_first_served() -> None:
    limiter, tracker, order = CallLimiter(3), InFlight(), []

    async def main() -> None:
        await asyncio.gather(*(_hold(limiter, tracker, order, i) for i in range(12)))

    asyncio.run(main())
    assert tracker.peak == 3
    assert order == list(range(12))
    stats = limiter.stats()
    assert (stats.limit, stats.active, stats.waiting, stats.peak, stats.entered) == (3, 0, 0, 3, 12)


def test_one_limiter_serves_several_event_loops() -> None:
    limiter, tracker = CallLimiter(2), InFlight()

    async def main() -> None:
        await asyncio.gather(*(_hold(limiter, tracker, [], i) for i in range(6)))

    asyncio.run(main())
    asyncio.run(main())  # a second loop: no "bound to a different event loop"
    assert tracker.peak == 2 and limiter.stats().entered == 12


def test_threads_are_bounded_too() -> None:
    limiter, tracker = CallLimiter(2), InFlight()

    def work() -> None:
        with limiter.slot_sync():
            tracker.enter()
            time.sleep(0.01)
            tracker.leave()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert tracker.peak == 2 and limiter.stats().active == 0


def test_a_child_is_bounded_by_its_parent() -> None:
    parent = CallLimiter(2)
    children = [parent.child(5), parent.child(5)]
    tracker = InFlight()

    async def main() -> None:
        await asyncio.gather(
            *(_hold(children[i % 2], tracker, [], i) for i in range(10)),
        )

    asyncio.run(main())
    assert tracker.peak == 2
    assert parent.stats().entered == 10 and parent.stats().active == 0
    assert [c.stats().active for c in children] == [0, 0]


def test_capped_lowers_the_bound_for_a_block_only() -> None:
    limiter = CallLimiter(None)
    with limiter.capped(4):
        assert limiter.limit == 4
        with limiter.capped(2):
            assert limiter.limit == 2
        assert limiter.limit == 4
    assert limiter.limit is None
    limiter.set_limit(3)
    with limiter.capped(5):
        assert limiter.limit == 3


def test_raising_the_limit_lets_waiters_in() -> None:
    limiter = CallLimiter(1)

    async def main() -> list[str]:
        events: list[str] = []
        await limiter.acquire()
        waiter = asyncio.ensure_future(limiter.acquire())
        await asyncio.sleep(0.01)
        events.append(f"waiting={limiter.stats().waiting}")
        limiter.set_limit(2)
        await asyncio.wait_for(waiter, 1)
        events.append(f"active={limiter.stats().active}")
        limiter.release()
        limiter.release()
        return events

    assert asyncio.run(main()) == ["waiting=1", "active=2"]


def test_a_cancelled_waiter_takes_no_slot() -> None:
    limiter = CallLimiter(1)

    async def main() -> int:
        await limiter.acquire()
        waiter = asyncio.ensure_future(limiter.acquire())
        await asyncio.sleep(0.01)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        limiter.release()
        async with limiter.slot():  # the slot is free again, not leaked to the cancelled one
            return limiter.stats().active

    assert asyncio.run(main()) == 1
    assert limiter.stats().active == 0 and limiter.stats().waiting == 0


def test_a_waiter_cancelled_as_it_is_granted_passes_the_slot_on() -> None:
    limiter = CallLimiter(1)

    async def main() -> None:
        await limiter.acquire()
        first = asyncio.ensure_future(limiter.acquire())
        second = asyncio.ensure_future(limiter.acquire())
        await asyncio.sleep(0.01)
        limiter.release()  # grants `first` ...
        first.cancel()  # ... which is cancelled before it runs: `second` must get the slot
        await asyncio.wait_for(second, 1)
        limiter.release()

    asyncio.run(main())
    assert limiter.stats().active == 0


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "4"])
def test_bad_limits_are_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="whole number >= 1"):
        CallLimiter(bad)


def test_release_without_a_slot_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="without a slot"):
        CallLimiter(2).release()


def test_one_limiter_per_endpoint() -> None:
    a, b = ScriptedChatModel(name_="ep-a"), ScriptedChatModel(name_="ep-a")
    assert endpoint_key(a) == endpoint_key(b) == "ScriptedChatModel::ep-a"
    assert limiter_for(a) is limiter_for(b)
    assert limiter_for(ScriptedChatModel(name_="ep-b")) is not limiter_for(a)


def test_model_calls_go_through_the_endpoint_limiter() -> None:
    tracker = InFlight()
    model = TrackingModel(responses=["ok"], latency_s=0.01, name_="ep-calls", tracker=tracker)
    messages: Sequence[BaseMessage] = [HumanMessage("hi")]

    async def main() -> None:
        await asyncio.gather(*(ainvoke_with_retry(model, messages) for _ in range(10)))

    with limiter_for(model).capped(2):
        asyncio.run(main())
    assert tracker.peak == 2
    tracker.peak = 0
    asyncio.run(main())  # the cap is gone with its block
    assert tracker.peak == 10


def test_a_given_limiter_bounds_sync_calls() -> None:
    tracker = InFlight()
    model = TrackingModel(responses=["ok"], latency_s=0.01, name_="ep-sync", tracker=tracker)
    limiter = CallLimiter(1)
    threads = [
        threading.Thread(target=invoke_with_retry, args=(model, [HumanMessage("x")]),
                         kwargs={"limiter": limiter})
        for _ in range(4)
    ]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert tracker.peak == 1 and limiter.stats().entered == 4


def test_the_backoff_between_attempts_holds_no_slot() -> None:
    class Flaky(TrackingModel):
        failures: int = 1

        async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> Any:
            if self.failures:
                self.failures -= 1
                raise TimeoutError("slow endpoint")
            return await super()._agenerate(messages, *args, **kw)

    limiter = CallLimiter(1)
    model = Flaky(responses=["ok"], name_="ep-flaky", tracker=InFlight())

    async def main() -> list[int]:
        seen: list[int] = []
        call = asyncio.ensure_future(
            ainvoke_with_retry(model, [HumanMessage("x")], limiter=limiter, base_delay_s=0.05)
        )
        await asyncio.sleep(0.02)  # the first attempt failed; the call sleeps before retrying
        seen.append(limiter.stats().active)
        await call
        seen.append(limiter.stats().active)
        return seen

    assert asyncio.run(main()) == [0, 0]
    assert limiter.stats().entered == 2  # one slot per attempt


def test_a_waiter_whose_event_loop_is_gone_does_not_keep_a_slot() -> None:
    limiter = CallLimiter(1)
    limiter.acquire_sync()
    loop = asyncio.new_event_loop()
    task = loop.create_task(limiter.acquire())
    task._log_destroy_pending = False  # type: ignore[attr-defined]  # abandoned on purpose
    loop.run_until_complete(asyncio.sleep(0.01))  # the task now waits for the slot
    assert limiter.stats().waiting == 1
    loop.close()  # closed under the waiting task (a crashed or abandoned loop)
    limiter.release()
    assert (limiter.stats().active, limiter.stats().waiting) == (0, 0)
    limiter.acquire_sync()  # the slot is free for the living
    limiter.release()
