"""Calling a chat model with retries: ``Retry-After`` when the provider gives one, else backoff.

A transient failure (connection error, timeout, rate limit, overload, a 5xx or 429 status,
or a successful response that cannot be read as a reply: :func:`is_malformed_reply`) is
retried up to ``attempts`` times in all. Before the next attempt the caller waits:

- as long as the provider's ``Retry-After`` (or ``retry-after-ms``) header says, in seconds
  or as an HTTP date, read from the error's HTTP response (OpenAI's and Anthropic's SDK
  errors, ``httpx.HTTPStatusError``, or any error with ``response.headers`` or
  ``headers``), cut to the endpoint's longest wait
  (:func:`~langgraph_games.models.ratelimit.max_retry_wait_of`, 60 s unless set); the
  endpoint's rate limiter is paused for as long, so other workers of the same endpoint
  wait too;
- otherwise a jittered exponential backoff (``base_delay_s * 2**n``, up to 50 % more).

Every wait is recorded as a :class:`RetryWait` (``waits=``, and in the error after the
last attempt). Each attempt holds a slot of a
:class:`~langgraph_games.models.limiter.CallLimiter` (the caller's, else the endpoint's
from :func:`~langgraph_games.models.limiter.limiter_for`); the wait between attempts holds
none, so a failing call does not keep others out. A call the model-call cache answers
(:mod:`~langgraph_games.models.cache`) holds no slot: it reaches no endpoint.

The first attempt is a plain call (most calls succeed, and a retry loop costs tens of
microseconds per call even when nothing fails); once it fails with an error worth
another attempt, `tenacity <https://tenacity.readthedocs.io>`_ runs the rest under one
retry policy that the synchronous and the asynchronous call share. An attempt that
nothing would see (:func:`~langgraph_games.models.plain_call.quiet`: a one-call model called
by the episode loop that runs without its graph) calls the model below LangChain's callback
layer (:func:`~langgraph_games.models.plain_call.plain_call`), with the same reply.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
)

from langgraph_games._json import JsonObject
from langgraph_games.models.cache import peek
from langgraph_games.models.errors import ModelCallError, ModelError
from langgraph_games.models.limiter import CallLimiter, limiter_for
from langgraph_games.models.plain_call import plain_call, quiet
from langgraph_games.models.ratelimit import max_retry_wait_of, rate_limiter_for

__all__ = [
    "RetryWait",
    "ainvoke_with_retry",
    "invoke_with_retry",
    "is_malformed_reply",
    "is_transient",
    "retry_after_s",
]

logger = logging.getLogger(__name__)

# Exceptions (by class name, so no provider SDK need be imported) that a retry may fix.
_TRANSIENT = {
    "APIConnectionError",
    "APITimeoutError",
    "RateLimitError",
    "InternalServerError",
    "OverloadedError",
    "ServiceUnavailableError",
    "ServiceUnavailable",
    "ResourceExhausted",
    "TooManyRequests",
    "DeadlineExceeded",
    "ConnectError",
    "ReadTimeout",
    "ConnectTimeout",
    "RemoteProtocolError",
    "TimeoutError",
    "ConnectionError",
    "ConnectionResetError",
}
# HTTP statuses a retry may fix: timeout, conflict, too early, rate limit, server trouble.
_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}

# Clock and sleeps, module-level so tests replace them (no real waiting in tests).
_clock = time.time
_sleep = time.sleep
_asleep = asyncio.sleep


@dataclass(frozen=True)
class RetryWait:
    """One wait between attempts of a call.

    Attributes:
        attempt: The attempt that failed (1 for the first).
        error: Its error, ``"ClassName: message"``.
        wait_s: How long the caller waited before the next attempt.
        reason: ``"retry-after"`` (the provider said how long) or ``"backoff"``.
        retry_after_s: What the provider asked for, when it did.
        capped: Whether the provider asked for more than the endpoint's longest wait.
    """

    attempt: int
    error: str
    wait_s: float
    reason: Literal["retry-after", "backoff"]
    retry_after_s: float | None = None
    capped: bool = False

    def describe(self) -> str:
        """One line for logs and error messages."""
        if self.reason == "backoff":
            return f"attempt {self.attempt} failed ({self.error}); backed off {self.wait_s:.3g}s"
        if self.capped:
            return (
                f"attempt {self.attempt} failed ({self.error}); the provider asked to retry "
                f"after {self.retry_after_s:.3g}s, waited the maximum {self.wait_s:.3g}s"
            )
        return (
            f"attempt {self.attempt} failed ({self.error}); waited {self.wait_s:.3g}s as "
            "the provider's Retry-After said"
        )

    def to_dict(self) -> JsonObject:
        """JSON-friendly form."""
        return asdict(self)


def _status(error: BaseException) -> int | None:
    for holder in (error, getattr(error, "response", None)):
        code = getattr(holder, "status_code", None)
        if isinstance(code, int) and not isinstance(code, bool):
            return code
    return None


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` looks like a passing network or server fault.

    By class, by HTTP status, or a malformed successful response (:func:`is_malformed_reply`).

    Example:
        >>> is_transient(TimeoutError()), is_transient(ValueError("bad request"))
        (True, False)
    """
    if any(cls.__name__ in _TRANSIENT for cls in type(error).__mro__):
        return True
    return _status(error) in _TRANSIENT_STATUS or is_malformed_reply(error)


def is_malformed_reply(error: BaseException) -> bool:
    """Whether ``error`` came from a response that could not be made into a reply.

    A server (or a proxy in front of it) that answers 200 with an HTML page, invalid JSON or
    UTF-8, or JSON without ``choices`` makes the client raise a plain ``ValueError``,
    ``TypeError`` or ``IndexError``. The rule, by where it was raised rather than by its
    message: a JSON or Unicode decoding error anywhere in the call; or an error raised
    while LangChain turned the response into a chat result (``_create_chat_result``, or
    the empty list of generations it left). Such a fault is the server's, so it is retried
    like a 5xx.

    Example:
        >>> import json
        >>> is_malformed_reply(json.JSONDecodeError("Expecting value", "<html>", 0))
        True
        >>> is_malformed_reply(ValueError("temperature must be >= 0"))
        False
    """
    for exc in _chain(error):
        if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)):
            return True
        frames = traceback.extract_tb(exc.__traceback__)
        if any(frame.name == "_create_chat_result" for frame in frames):
            return True
        if isinstance(exc, IndexError) and frames:
            last = frames[-1]
            inside = last.filename.replace("\\", "/").endswith("language_models/chat_models.py")
            if inside and last.name in ("invoke", "ainvoke"):  # no generation came back
                return True
    return False


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The error and the errors it was raised from (a few levels, no cycles)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen and len(seen) < 5:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _header(headers: Any, name: str) -> str | None:
    """A header's value, whatever the case of its name (httpx headers or a mapping)."""
    getter = getattr(headers, "get", None)
    if getter is None:
        return None
    value = getter(name)
    if value is None and isinstance(headers, Mapping):
        value = next((v for k, v in headers.items() if str(k).lower() == name), None)
    return None if value is None else str(value).strip()


def _seconds(value: str, now: float) -> float | None:
    """``Retry-After`` as seconds from ``now``: a number of seconds, or an HTTP date."""
    number = _number(value)
    if number is not None:
        return number
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # not a valid HTTP date (those are GMT)
        return None
    return max(0.0, when.timestamp() - now)


def retry_after_s(error: BaseException, now: float | None = None) -> float | None:
    """How long the provider asked to wait before retrying, in seconds, or ``None``.

    Reads ``retry-after-ms`` (milliseconds, OpenAI's) then ``Retry-After`` (seconds or an
    HTTP date) from the headers of the error's HTTP response, or of the errors it was
    raised from. A date in the past gives 0.

    Args:
        error: The failure.
        now: The current time (Unix seconds) for an HTTP date; default the clock.

    Example:
        >>> class Limited(Exception):
        ...     headers = {"Retry-After": "7"}
        >>> retry_after_s(Limited())
        7.0
        >>> retry_after_s(ValueError("no headers")) is None
        True
    """
    current = _clock() if now is None else now
    for exc in _chain(error):
        response = getattr(exc, "response", None)
        for headers in (getattr(response, "headers", None), getattr(exc, "headers", None)):
            if headers is None:
                continue
            millis = _number(_header(headers, "retry-after-ms"))
            if millis is not None:
                return millis / 1000.0
            text = _header(headers, "retry-after")
            if text is not None:
                seconds = _seconds(text, current)
                if seconds is not None:
                    return seconds
    return None


def _number(text: str | None) -> float | None:
    """A finite number >= 0 written in ``text``, else ``None``."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _backoff_s(attempt: int, base_delay_s: float) -> float:
    """Jittered exponential backoff after attempt number ``attempt`` (1 for the first)."""
    return float(base_delay_s * 2.0 ** (attempt - 1) * (1 + random.random() / 2))


def _label(model: BaseChatModel, name: str | None) -> str:
    return str(
        name
        or getattr(model, "model_name", None)
        or getattr(model, "model", None)
        or type(model).__name__
    )


def _retried(error: BaseException) -> bool:
    """Whether a failed attempt is worth another one (never the package's own errors)."""
    return not isinstance(error, ModelError) and is_transient(error)


async def _sleep_async(seconds: float) -> None:
    await _asleep(seconds)  # looked up at each call, so tests can replace it


class _RetryPolicy:
    """The retry policy of one call, used by the sync and the async path alike.

    The caller makes the first attempt itself; when it fails with an error worth another
    attempt, :meth:`first_failed` plans, records and returns the wait, and tenacity runs
    the remaining attempts: it stops after ``attempts`` in all, retries only what
    :func:`_retried` accepts, and waits what :meth:`_wait` plans. tenacity computes the wait
    before it decides whether to stop, so the plan only takes effect (recorded, logged, the
    endpoint paused) in :meth:`_before_sleep`, which runs when another attempt follows.
    """

    def __init__(
        self,
        model: BaseChatModel,
        name: str | None,
        attempts: int,
        base_delay_s: float,
        max_retry_wait_s: float | None,
        waits: list[RetryWait] | None,
    ) -> None:
        if attempts < 1:
            raise ValueError(f"attempts must be at least 1 (1: no retry); got {attempts}")
        self.model = model
        self.label = _label(model, name)
        self.attempts = attempts
        self.base_delay_s = base_delay_s
        self.max_retry_wait_s = max_retry_wait_s
        self.waits: list[RetryWait] = []  # this call's waits
        self._sink = waits
        self._planned: RetryWait | None = None
        self._before = 1  # attempts made before tenacity's first (the caller's own)

    def retries(self, error: BaseException) -> bool:
        """Whether the first attempt's ``error`` is worth another attempt."""
        return self.attempts > 1 and _retried(error)

    def first_failed(self, error: BaseException) -> float:
        """Plan and take the wait after the caller's first attempt failed with ``error``."""
        plan = self._plan(1, error)
        self._take(plan)
        return plan.wait_s

    def _options(self) -> dict[str, Any]:
        return {
            "stop": stop_after_attempt(self.attempts - self._before),
            "retry": retry_if_exception(_retried),
            "wait": self._wait,
            "before_sleep": self._before_sleep,
            "reraise": True,
        }

    def sync(self) -> Retrying:
        """The synchronous runner (sleeps through the module's ``_sleep``)."""
        return Retrying(sleep=lambda seconds: _sleep(seconds), **self._options())

    def asynchronous(self) -> AsyncRetrying:
        """The asynchronous runner (awaits the module's ``_asleep``)."""
        return AsyncRetrying(sleep=_sleep_async, **self._options())

    def _wait(self, state: RetryCallState) -> float:
        """Plan the wait after the attempt that just failed: Retry-After, else backoff."""
        error = state.outcome.exception() if state.outcome is not None else None
        assert error is not None  # tenacity only waits after a failed attempt
        self._planned = self._plan(state.attempt_number + self._before, error)
        return self._planned.wait_s

    def _plan(self, attempt: int, error: BaseException) -> RetryWait:
        """The wait after attempt number ``attempt`` failed: Retry-After, else backoff."""
        text = f"{type(error).__name__}: {error}"
        asked = retry_after_s(error)
        if asked is None:
            plan = RetryWait(attempt, text, _backoff_s(attempt, self.base_delay_s), "backoff")
        else:
            cap = (
                max_retry_wait_of(self.model)
                if self.max_retry_wait_s is None
                else self.max_retry_wait_s
            )
            plan = RetryWait(attempt, text, min(asked, cap), "retry-after", asked, asked > cap)
        return plan

    def _before_sleep(self, state: RetryCallState) -> None:
        """Another attempt follows: record the planned wait, log it, pause the endpoint."""
        plan = self._planned
        assert plan is not None and plan.attempt == state.attempt_number + self._before
        self._take(plan)

    def _take(self, plan: RetryWait) -> None:
        """Record the wait, pause the endpoint for a Retry-After, log it."""
        self.waits.append(plan)
        if self._sink is not None:
            self._sink.append(plan)
        if plan.reason == "retry-after" and plan.wait_s > 0:
            rate_limiter_for(self.model).pause(plan.wait_s)
        logger.info("model %s: %s", self.label, plan.describe())

    @contextmanager
    def giving_up(self) -> Iterator[None]:
        """Turn the last attempt's error into a :class:`ModelCallError` (ours pass through)."""
        try:
            yield
        except ModelError:
            raise
        except Exception as exc:
            reason = f"{type(exc).__name__}: {exc}"
            if self.waits:
                tries = len(self.waits) + 1
                steps = "; ".join(w.describe() for w in self.waits)
                reason += f" (gave up after {tries} attempts: {steps})"
            raise ModelCallError(self.label, reason, waits=self.waits) from exc


async def ainvoke_with_retry(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    config: RunnableConfig | None = None,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    name: str | None = None,
    limiter: CallLimiter | None = None,
    max_retry_wait_s: float | None = None,
    waits: list[RetryWait] | None = None,
) -> AIMessage:
    """``model.ainvoke(messages)``, retried on transient failures (see the module docstring).

    Args:
        model: The chat model.
        messages: The prompt.
        config: The caller's config (callbacks, tags), passed to every attempt.
        attempts: Attempts in all (1: no retry).
        base_delay_s: The first backoff (when the provider gives no ``Retry-After``).
        name: The model's label in errors (default: its model name).
        limiter: Slots to hold per attempt (default: the endpoint's, :func:`limiter_for`).
        max_retry_wait_s: The longest ``Retry-After`` wait (default: the endpoint's).
        waits: A list that receives a :class:`RetryWait` per wait.

    Raises:
        ModelCallError: The call failed (after retries if the error was transient); its
            ``waits`` lists the waits between attempts.
        ValueError: ``attempts`` is below 1.
    """
    policy = _RetryPolicy(model, name, attempts, base_delay_s, max_retry_wait_s, waits)
    gate = limiter if limiter is not None else limiter_for(model)
    prompt = list(messages)
    plain = quiet(model, config)  # nothing would see the call: skip the callback layer

    async def call() -> AIMessage:
        if plain:
            return await plain_call(model, prompt)
        return await model.ainvoke(prompt, config=config)

    async def attempt() -> AIMessage:
        if peek(model, messages):  # served from the cache: no call, so no slot
            return await call()
        async with gate.slot():
            return await call()

    with policy.giving_up():
        try:
            return await attempt()
        except Exception as exc:
            if not policy.retries(exc):
                raise
            wait_s = policy.first_failed(exc)
        await _sleep_async(wait_s)
        return await policy.asynchronous()(attempt)
    raise AssertionError("unreachable")  # pragma: no cover - giving_up raises or returns


def invoke_with_retry(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    config: RunnableConfig | None = None,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    name: str | None = None,
    limiter: CallLimiter | None = None,
    max_retry_wait_s: float | None = None,
    waits: list[RetryWait] | None = None,
) -> AIMessage:
    """The synchronous form of :func:`ainvoke_with_retry` (same policy, waits, errors, slots).

    Raises:
        ModelCallError: The call failed (after retries if the error was transient).
        ValueError: ``attempts`` is below 1.
    """
    policy = _RetryPolicy(model, name, attempts, base_delay_s, max_retry_wait_s, waits)
    gate = limiter if limiter is not None else limiter_for(model)
    prompt = list(messages)

    def attempt() -> AIMessage:
        if peek(model, messages):  # served from the cache: no call, so no slot
            return model.invoke(prompt, config=config)
        with gate.slot_sync():
            return model.invoke(prompt, config=config)

    with policy.giving_up():
        try:
            return attempt()
        except Exception as exc:
            if not policy.retries(exc):
                raise
            wait_s = policy.first_failed(exc)
        _sleep(wait_s)
        return policy.sync()(attempt)
    raise AssertionError("unreachable")  # pragma: no cover - giving_up raises or returns
