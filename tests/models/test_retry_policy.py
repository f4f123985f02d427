"""The retry policy run by tenacity: attempts counted, give-up message, one policy, two paths."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from langgraph_games.models import ModelCallError, ModelError, ScriptedChatModel, rate_limiter_for
from langgraph_games.models.retry import RetryWait, ainvoke_with_retry, invoke_with_retry

PROMPT = [HumanMessage("hi")]
_names = itertools.count()


class Limited(Exception):
    """A 429 with a ``Retry-After`` header."""

    def __init__(self, seconds: str) -> None:
        super().__init__("429 slow down")
        self.response = SimpleNamespace(status_code=429, headers={"Retry-After": seconds})


def model(*responses: Any) -> ScriptedChatModel:
    return ScriptedChatModel(responses=list(responses), name_=f"policy-{next(_names)}")


def test_every_attempt_is_made_and_the_give_up_error_counts_them(slept: list[float]) -> None:
    scripted = model(TimeoutError("one"), TimeoutError("two"), TimeoutError("three"), "late")
    waits: list[RetryWait] = []
    with pytest.raises(ModelCallError) as caught:
        invoke_with_retry(scripted, PROMPT, attempts=3, base_delay_s=0.01, waits=waits)
    assert len(scripted.calls) == 3  # the fourth reply is never asked for
    message = str(caught.value)
    assert message.startswith("Call to model 'policy-")
    assert "failed: TimeoutError: three (gave up after 3 attempts: attempt 1 failed" in message
    assert [w.attempt for w in waits] == [1, 2] and len(slept) == 2
    assert caught.value.waits == waits  # the error and the caller's list hold the same waits
    assert isinstance(caught.value.__cause__, TimeoutError)


def test_a_single_attempt_gives_up_without_waiting(slept: list[float]) -> None:
    scripted = model(TimeoutError("slow"), "never")
    with pytest.raises(ModelCallError) as caught:
        invoke_with_retry(scripted, PROMPT, attempts=1)
    assert str(caught.value).endswith("failed: TimeoutError: slow")  # no attempt list
    assert slept == [] and caught.value.waits == []


async def test_the_last_attempt_neither_waits_nor_pauses_the_endpoint(slept: list[float]) -> None:
    scripted = model(Limited("5"), Limited("40"))
    with pytest.raises(ModelCallError) as caught:
        await ainvoke_with_retry(scripted, PROMPT, attempts=2, max_retry_wait_s=60)
    assert slept == [5.0]  # the second Retry-After (40 s) came with the last attempt
    assert [w.wait_s for w in caught.value.waits] == [5.0]
    assert rate_limiter_for(scripted).paused_for() <= 5.0


async def test_sync_and_async_follow_the_same_policy(slept: list[float]) -> None:
    script = [Limited("3"), Limited("4"), "fine"]
    sync_waits: list[RetryWait] = []
    async_waits: list[RetryWait] = []
    invoke_with_retry(model(*script), PROMPT, waits=sync_waits)
    await ainvoke_with_retry(model(*script), PROMPT, waits=async_waits)
    assert sync_waits == async_waits
    assert [(w.attempt, w.wait_s, w.reason) for w in sync_waits] == [
        (1, 3.0, "retry-after"),
        (2, 4.0, "retry-after"),
    ]
    assert slept == [3.0, 4.0, 3.0, 4.0]


def test_the_callers_list_keeps_its_earlier_waits(slept: list[float]) -> None:
    earlier = RetryWait(9, "TimeoutError: before", 1.0, "backoff")
    waits = [earlier]
    with pytest.raises(ModelCallError) as caught:
        invoke_with_retry(model(Limited("2"), Limited("2")), PROMPT, attempts=2, waits=waits)
    assert waits[0] is earlier and len(waits) == 2
    assert caught.value.waits == waits[1:]  # the error lists this call's waits only


async def test_the_packages_own_errors_are_not_retried_or_wrapped(slept: list[float]) -> None:
    scripted = model(ModelError("no endpoint"), "fine")
    with pytest.raises(ModelError, match="no endpoint") as caught:
        await ainvoke_with_retry(scripted, PROMPT)
    assert type(caught.value) is ModelError and len(scripted.calls) == 1 and slept == []


def test_attempts_below_one_are_refused() -> None:
    scripted = model("fine")
    with pytest.raises(ValueError, match=r"attempts must be at least 1 \(1: no retry\); got 0"):
        invoke_with_retry(scripted, PROMPT, attempts=0)
    assert scripted.calls == []
