"""Turns: episodes on one loop work one at a time, in the order their replies came.

Each scripted "episode" below asks a model (through ``ainvoke_with_retry``, as every
player does), then works in several steps that yield to the loop (as a graph's tasks
do). With turns, one episode's steps never interleave with another's; a holder waiting
on something else loses the turn after the lease; cancellation and errors pass it on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from langgraph_games.models import ScriptedChatModel
from langgraph_games.models import turns as turns_module
from langgraph_games.models.errors import ModelCallError
from langgraph_games.models.limiter import CallLimiter
from langgraph_games.models.retry import ainvoke_with_retry
from langgraph_games.models.turns import taking_turns, turn_given_up

STEPS = 4  # loop yields per decision


def _model(latency: float) -> ScriptedChatModel:
    return ScriptedChatModel(responses=["ok"], latency_s=latency)


async def _episode(
    name: str,
    latencies: list[float],
    log: list[str],
    *,
    turns: bool = True,
    limiter: CallLimiter | None = None,
) -> None:
    async def body() -> None:
        for call, latency in enumerate(latencies):
            await ainvoke_with_retry(_model(latency), [HumanMessage("go")], limiter=limiter)
            for step in range(STEPS):
                log.append(f"{name}{call}.{step}")
                await asyncio.sleep(0)

    if turns:
        async with taking_turns():
            await body()
    else:
        await body()


def _runs(log: list[str]) -> list[str]:
    """The log with each unbroken run of one decision's steps collapsed to its name."""
    runs: list[str] = []
    for entry in log:
        decision = entry.split(".")[0]
        if not runs or runs[-1] != decision:
            runs.append(decision)
    return runs


def _run(coroutine: Callable[[], Awaitable[Any]]) -> Any:
    async def warmed() -> Any:
        # LangChain's first call in a process loads what it needs (tens of ms, without
        # yielding), which would shift the replies' order below.
        await ainvoke_with_retry(_model(0), [HumanMessage("warm up")])
        return await coroutine()

    return asyncio.run(warmed())


def test_decisions_run_one_after_another_in_reply_order() -> None:
    log: list[str] = []

    async def main() -> None:
        await asyncio.gather(
            _episode("a", [0.07, 0.02], log),  # replies at 70 and 90 ms
            _episode("b", [0.02, 0.03], log),  # 20 and 50 ms
            _episode("c", [0.04, 0.04], log),  # 40 and 80 ms
        )

    _run(main)
    # Each decision's steps in one unbroken run, in the order the replies came.
    assert _runs(log) == ["b0", "c0", "b1", "a0", "c1", "a1"]


def test_without_turns_decisions_interleave() -> None:
    """The behaviour turns replace (and proof that the test above can fail)."""
    log: list[str] = []

    async def main() -> None:
        await asyncio.gather(
            *(_episode(n, [0.01], log, turns=False) for n in "abc"),
        )

    _run(main)
    assert len(_runs(log)) > 3


def test_a_holder_waiting_on_something_else_loses_the_turn_after_the_lease(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(turns_module, "TURN_LEASE_S", 0.05)
    done: dict[str, float] = {}

    async def main() -> None:
        release = asyncio.Event()
        start = time.perf_counter()

        async def stuck() -> None:
            async with taking_turns():
                await release.wait()  # not a model call: keeps the turn
            done["stuck"] = time.perf_counter() - start

        async def other() -> None:
            await asyncio.sleep(0.005)
            log: list[str] = []
            await _episode("o", [0.001], log)
            done["other"] = time.perf_counter() - start
            release.set()

        await asyncio.wait_for(asyncio.gather(stuck(), other()), timeout=5)

    _run(main)
    assert 0.04 <= done["other"] < 1.0, done  # waited for the lease, not for ever
    assert done["stuck"] >= done["other"]


def test_waiting_without_the_turn_lets_others_work() -> None:
    order: list[str] = []

    async def main() -> None:
        async def waits() -> None:
            async with taking_turns():
                async with turn_given_up():
                    await asyncio.sleep(0.02)
                order.append("waited")

        async def works() -> None:
            await asyncio.sleep(0.001)
            async with taking_turns():
                order.append("worked")

        await asyncio.gather(waits(), works())

    _run(main)
    assert order == ["worked", "waited"]


def test_a_cancelled_waiter_is_skipped_and_a_cancelled_holder_passes_the_turn_on() -> None:
    order: list[str] = []

    async def main() -> None:
        holding = asyncio.Event()

        async def holder() -> None:
            async with taking_turns():
                holding.set()
                await asyncio.sleep(10)  # cancelled while it holds the turn

        async def waiter(name: str) -> None:
            await holding.wait()
            async with taking_turns():
                order.append(name)

        first = asyncio.create_task(holder())
        second = asyncio.create_task(waiter("cancelled"))
        third = asyncio.create_task(waiter("third"))
        await asyncio.sleep(0.01)  # both queue behind the holder
        first.cancel()  # in the same tick: the holder hands on before the waiter learns
        second.cancel()
        await asyncio.wait_for(third, timeout=1)  # well before the lease would end it
        for task in (first, second):
            with pytest.raises(asyncio.CancelledError):
                await task

    _run(main)
    assert order == ["third"]


def test_a_bound_endpoint_with_more_episodes_than_slots_finishes() -> None:
    log: list[str] = []
    limiter = CallLimiter(1)

    async def main() -> None:
        await asyncio.wait_for(
            asyncio.gather(*(_episode(n, [0.005, 0.005], log, limiter=limiter) for n in "abcd")),
            timeout=5,
        )

    _run(main)
    assert len(log) == 4 * 2 * STEPS
    assert limiter.stats().peak == 1
    assert len(_runs(log)) == 8  # still one decision at a time


class Failing(ScriptedChatModel):
    """Fails every call with a non-transient error."""

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.005)
        raise ValueError("bad request")


def test_a_failed_call_returns_the_turn_to_its_episode_and_others_go_on() -> None:
    log: list[str] = []
    errors: list[str] = []

    async def failing() -> None:
        async with taking_turns():
            try:
                await ainvoke_with_retry(Failing(), [HumanMessage("go")], attempts=1)
            except ModelCallError as exc:
                errors.append(str(exc))
            for step in range(STEPS):
                log.append(f"f0.{step}")
                await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.wait_for(
            asyncio.gather(failing(), _episode("a", [0.005], log), _episode("b", [0.005], log)),
            timeout=5,
        )

    _run(main)
    assert errors and "bad request" in errors[0]
    assert len(_runs(log)) == 3  # the failed episode's handling was one unbroken turn too


class Silent(ScriptedChatModel):
    """A model whose ``ainvoke`` skips LangChain's machinery altogether."""

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> AIMessage:
        await asyncio.sleep(0.005)
        return AIMessage("ok")


def test_an_episode_holds_the_turn_again_after_any_model_call() -> None:
    async def main() -> bool:
        async with taking_turns():
            await ainvoke_with_retry(Silent(), [HumanMessage("go")])
            runner = turns_module._RUNNER.get()
            assert runner is not None
            return runner.holding

    assert _run(main) is True


def test_nested_blocks_are_one_episode_and_waits_outside_do_nothing() -> None:
    async def main() -> tuple[bool, bool]:
        async with turn_given_up():  # outside any episode: no effect, no error
            await asyncio.sleep(0)
        async with taking_turns():
            outer = turns_module._RUNNER.get()
            async with taking_turns():
                inner = turns_module._RUNNER.get()
            still = outer is not None and outer.holding
        return outer is inner, still

    assert _run(main) == (True, True)
