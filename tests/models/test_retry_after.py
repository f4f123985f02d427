"""Retry-After from providers' errors, the endpoint rate limiter and its pause (fake clocks)."""

from __future__ import annotations

import asyncio
import itertools
from datetime import datetime, timezone
from email.utils import format_datetime
from types import SimpleNamespace
from typing import Any

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage

from langgraph_games.models import (
    EndpointRateLimiter,
    ModelCallError,
    ScriptedChatModel,
    is_transient,
    rate_limiter_for,
    set_max_retry_wait,
    set_rate_limit,
)
from langgraph_games.models import ratelimit as ratelimit_module
from langgraph_games.models.retry import (
    RetryWait,
    ainvoke_with_retry,
    invoke_with_retry,
    retry_after_s,
)
from langgraph_games.models.usage import ainvoke_measured

PROMPT = [HumanMessage("hi")]
NOW = 1_750_000_000.0
_names = itertools.count()


class RateLimitError(Exception):
    """Like an SDK's 429 error: an HTTP response with headers."""

    def __init__(self, headers: dict[str, str], status: int = 429) -> None:
        super().__init__(f"{status} slow down")
        self.response = SimpleNamespace(status_code=status, headers=headers)


class StatusError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"status {status}")
        self.status_code = status


def model(*responses: Any) -> ScriptedChatModel:
    return ScriptedChatModel(responses=list(responses), name_=f"retry-{next(_names)}")


def test_retry_after_is_read_in_seconds_milliseconds_and_http_dates() -> None:
    assert retry_after_s(RateLimitError({"Retry-After": "7"})) == 7.0
    assert retry_after_s(RateLimitError({"retry-after": "2.5"})) == 2.5
    assert retry_after_s(RateLimitError({"retry-after-ms": "1500", "retry-after": "9"})) == 1.5
    date = format_datetime(datetime.fromtimestamp(NOW + 30, tz=timezone.utc), usegmt=True)
    assert retry_after_s(RateLimitError({"Retry-After": date}), now=NOW) == pytest.approx(30)
    past = format_datetime(datetime.fromtimestamp(NOW - 30, tz=timezone.utc), usegmt=True)
    assert retry_after_s(RateLimitError({"Retry-After": past}), now=NOW) == 0.0
    for unusable in ("soon", "-3", "nan", ""):
        assert retry_after_s(RateLimitError({"Retry-After": unusable})) is None
    assert retry_after_s(RateLimitError({})) is None
    # Wrapped errors: the header of the error it was raised from counts.
    try:
        try:
            raise RateLimitError({"Retry-After": "4"})
        except RateLimitError as inner:
            raise RuntimeError("wrapper") from inner
    except RuntimeError as outer:
        assert retry_after_s(outer) == 4.0


def test_real_sdk_and_httpx_errors_carry_their_headers() -> None:
    request = httpx.Request("POST", "https://api.example/v1/chat/completions")
    response = httpx.Response(429, headers={"Retry-After": "3"}, request=request)
    sdk = openai.RateLimitError("rate limited", response=response, body=None)
    assert is_transient(sdk) and retry_after_s(sdk) == 3.0
    status = httpx.HTTPStatusError("busy", request=request, response=response)
    assert is_transient(status) and retry_after_s(status) == 3.0
    refused = httpx.Response(400, request=request)
    assert not is_transient(httpx.HTTPStatusError("bad", request=request, response=refused))


def test_transient_statuses() -> None:
    for status in (408, 429, 500, 502, 503, 504, 529):
        assert is_transient(StatusError(status)), status
    for status in (400, 401, 403, 404, 422):
        assert not is_transient(StatusError(status)), status


def test_sync_retry_waits_as_long_as_the_provider_says(slept: list[float]) -> None:
    scripted = model(RateLimitError({"Retry-After": "7"}), "fine")
    waits: list[RetryWait] = []
    reply = invoke_with_retry(scripted, PROMPT, waits=waits, base_delay_s=0.001)
    assert reply.content == "fine" and slept == [7.0]
    assert waits == [RetryWait(1, "RateLimitError: 429 slow down", 7.0, "retry-after", 7.0)]
    assert "waited 7s as the provider's Retry-After said" in waits[0].describe()


async def test_async_retry_waits_are_capped_and_pause_the_endpoint(slept: list[float]) -> None:
    scripted = model(RateLimitError({"Retry-After": "600"}), "fine")
    set_max_retry_wait(scripted, 0.2)
    waits: list[RetryWait] = []
    reply = await ainvoke_with_retry(scripted, PROMPT, waits=waits)
    assert reply.content == "fine" and slept == [0.2]
    assert waits[0].capped and waits[0].retry_after_s == 600.0
    assert "asked to retry after 600s, waited the maximum 0.2s" in waits[0].describe()
    # The endpoint's other callers are held for the same time.
    assert 0 < rate_limiter_for(scripted).paused_for() <= 0.2
    # An explicit cap wins over the endpoint's.
    again = model(RateLimitError({"Retry-After": "600"}), "fine")
    await ainvoke_with_retry(again, PROMPT, max_retry_wait_s=1.5)
    assert slept[-1] == 1.5


def test_without_a_header_the_backoff_applies(slept: list[float]) -> None:
    scripted = model(TimeoutError("slow"), StatusError(503), "fine")
    waits: list[RetryWait] = []
    invoke_with_retry(scripted, PROMPT, waits=waits, base_delay_s=1.0)
    assert [w.reason for w in waits] == ["backoff", "backoff"]
    assert 1.0 <= slept[0] <= 1.5 and 2.0 <= slept[1] <= 3.0


async def test_the_last_error_says_how_the_attempts_waited(slept: list[float]) -> None:
    scripted = model(RateLimitError({"Retry-After": "2"}), RateLimitError({"Retry-After": "3"}))
    with pytest.raises(ModelCallError) as caught:
        await ainvoke_with_retry(scripted, PROMPT, attempts=2)
    assert [w.wait_s for w in caught.value.waits] == [2.0]
    assert "waited 2s as the provider's Retry-After said" in str(caught.value)
    assert slept == [2.0]


async def test_measured_calls_record_the_waits_in_their_usage(slept: list[float]) -> None:
    scripted = model(RateLimitError({"Retry-After": "2"}), TimeoutError("x"), "done")
    _, usage = await ainvoke_measured(scripted, PROMPT, base_delay_s=0.25)
    assert usage["calls"] == 3
    assert usage["call_retries"] == 2 and usage["retry_after_waits"] == 1
    assert usage["retry_wait_ms"] == round(sum(slept) * 1000)
    _, plain = await ainvoke_measured(model("done"), PROMPT)
    assert "call_retries" not in plain  # a call without retries keeps the usual keys


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket_spreads_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(ratelimit_module, "_monotonic", clock)
    limiter = EndpointRateLimiter(2.0)
    assert limiter.acquire(blocking=False)  # the first request goes at once
    assert not limiter.acquire(blocking=False)  # no burst
    clock.now += 0.4
    assert not limiter.acquire(blocking=False)  # 0.8 of a request earned
    clock.now += 0.1
    assert limiter.acquire(blocking=False)
    clock.now += 10
    assert limiter.acquire(blocking=False) and not limiter.acquire(blocking=False)
    limiter.pause(5)
    clock.now += 4.9
    assert not limiter.acquire(blocking=False)  # paused, although a token is due
    clock.now += 0.2
    assert limiter.acquire(blocking=False)
    assert limiter.granted == 4
    open_ = EndpointRateLimiter(None)  # no rate: only pauses hold requests
    assert all(open_.acquire(blocking=False) for _ in range(100))
    open_.pause(1)
    assert not open_.acquire(blocking=False)
    with pytest.raises(ValueError, match="requests per second"):
        EndpointRateLimiter(0)


def test_every_attempt_goes_through_the_endpoint_rate_limiter(slept: list[float]) -> None:
    scripted = model(TimeoutError("slow"), ConnectionError("reset"), "fine")
    set_rate_limit(scripted, 1000.0)
    limiter = rate_limiter_for(scripted)
    before = limiter.granted
    invoke_with_retry(scripted, PROMPT, base_delay_s=0.001)
    assert limiter.granted - before == 3  # the two failed attempts and the good one
    # A second model object of the same endpoint shares the limiter (and its rate).
    twin = ScriptedChatModel(responses=["x"], name_=scripted.name_)
    assert set_rate_limit(twin, 1000.0).rate_limiter is limiter


async def test_a_pause_holds_other_callers_of_the_endpoint() -> None:
    first = model("a")
    set_rate_limit(first, None)
    limiter = rate_limiter_for(first)
    limiter.pause(0.15)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await first.ainvoke("x")
    assert loop.time() - started >= 0.1
