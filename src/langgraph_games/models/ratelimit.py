"""Request-rate limits and ``Retry-After`` pauses, one per model endpoint.

Every chat model that :func:`~langgraph_games.models.load_chat_model` builds gets its
endpoint's :class:`EndpointRateLimiter` as LangChain's ``rate_limiter``, so every request
of every caller goes through it: strategy graphs, retries, tool-calling agents
(``create_agent``), streaming. Models built for the same endpoint (same key as
:func:`~langgraph_games.models.limiter.limiter_for`: class, base URL and model name) share
one limiter, so a process never sends an endpoint more than its rate, however many
workers it runs.

The limiter does two things:

- a **rate** (requests per second, ``None``: none), langchain-core's token bucket
  (:class:`~langchain_core.rate_limiters.InMemoryRateLimiter`) with room for one request,
  so requests are spread out, never sent in bursts; the first request goes at once;
- a **pause**: when a provider answers a request with ``Retry-After``, the retry path
  (:mod:`langgraph_games.models.retry`) pauses the endpoint for that long, so the other
  callers wait too instead of running into the same refusal; with
  :func:`~langgraph_games.models.shared_pause.share_pauses` (the CLI calls it), the
  pause is shared with the run's worker processes.

It also carries the endpoint's longest ``Retry-After`` wait (``max_retry_wait_s``): a
longer one is cut to it.

Example:
    >>> from langgraph_games.models.fake import ScriptedChatModel
    >>> model = set_rate_limit(ScriptedChatModel(name_="doc-rate"), 2.0)
    >>> rate_limit_of(model), model.rate_limiter is rate_limiter_for(model)
    (2.0, True)
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping
from typing import Any, TypeAlias

from langchain_core.rate_limiters import InMemoryRateLimiter

from langgraph_games.models.limiter import endpoint_key
from langgraph_games.models.shared_pause import SharedPause

__all__ = [
    "DEFAULT_MAX_RETRY_WAIT_S",
    "EndpointRateLimiter",
    "attach_rate_limiter",
    "check_rate",
    "default_limits",
    "max_retry_wait_of",
    "rate_limit_of",
    "rate_limiter_for",
    "set_default_limits",
    "set_max_retry_wait",
    "set_rate_limit",
]

DEFAULT_MAX_RETRY_WAIT_S = 60.0
"""The longest ``Retry-After`` wait honoured unless an endpoint sets its own."""

_monotonic = time.monotonic  # module-level so tests can run the bucket on a fake clock


def check_rate(rps: float | None, what: str = "a rate limit") -> float | None:
    """``rps`` as a float, or ``None``.

    Raises:
        ValueError: Not a positive finite number (requests per second).
    """
    if rps is None:
        return None
    if isinstance(rps, bool) or not isinstance(rps, (int, float)):
        raise ValueError(f"{what} is a number of requests per second > 0, got {rps!r}")
    value = float(rps)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} is a number of requests per second > 0, got {rps!r}")
    return value


def _check_wait(seconds: float) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise ValueError(f"a maximum retry wait is a number of seconds >= 0, got {seconds!r}")
    value = float(seconds)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"a maximum retry wait is a number of seconds >= 0, got {seconds!r}")
    return value


class EndpointRateLimiter(InMemoryRateLimiter):
    """langchain-core's token bucket, with an optional rate and a shared pause.

    Args:
        requests_per_second: The rate; ``None`` for none (only pauses hold requests).
        name: The endpoint it guards (for messages).
        max_retry_wait_s: The longest ``Retry-After`` wait honoured for this endpoint.

    Attributes:
        rate: The rate now (``None``: none).
        granted: Requests let through so far.

    Raises:
        ValueError: A rate that is not a positive number, or a negative wait.
    """

    def __init__(
        self,
        requests_per_second: float | None = None,
        *,
        name: str = "",
        max_retry_wait_s: float = DEFAULT_MAX_RETRY_WAIT_S,
    ) -> None:
        super().__init__(requests_per_second=1.0, max_bucket_size=1)
        self.name = name
        self.rate: float | None = None
        self.max_retry_wait_s = _check_wait(max_retry_wait_s)
        self.granted = 0
        self._resume_at = 0.0
        self._shared = SharedPause(name)
        self.set_rate(requests_per_second)

    def set_rate(self, requests_per_second: float | None) -> None:
        """Change the rate (``None``: no rate); the next request may go at once.

        Raises:
            ValueError: Not a positive number or ``None``.
        """
        rate = check_rate(requests_per_second)
        with self._consume_lock:
            self.rate = rate
            if rate is not None:
                self.requests_per_second = rate
                # Poll often enough that a fast rate is not slowed by the polling.
                self.check_every_n_seconds = min(0.1, 0.5 / rate)
            else:
                self.check_every_n_seconds = 0.1
            self.available_tokens = float(self.max_bucket_size)
            self.last = None

    def pause(self, seconds: float) -> None:
        """Hold every request of the endpoint for ``seconds`` from now (pauses never shorten).

        Shared with the run's other processes when pauses are shared.
        """
        with self._consume_lock:
            self._resume_at = max(self._resume_at, _monotonic() + max(0.0, seconds))
            self._shared.extend(seconds)

    def paused_for(self) -> float:
        """Seconds the endpoint stays paused, here or by another process (0 when not)."""
        with self._consume_lock:
            return max(0.0, self._resume_at - _monotonic(), self._shared.remaining())

    def _consume(self) -> bool:
        with self._consume_lock:
            now = _monotonic()
            if now < self._resume_at or self._shared.remaining() > 0:
                return False
            if self.rate is None:
                self.granted += 1
                return True
            if self.last is None:
                self.last = now
            self.available_tokens = min(
                self.available_tokens + (now - self.last) * self.requests_per_second,
                self.max_bucket_size,
            )
            self.last = now
            if self.available_tokens >= 1:
                self.available_tokens -= 1
                self.granted += 1
                return True
            return False

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return (
            f"EndpointRateLimiter({label}rate={self.rate}, "
            f"max_retry_wait_s={self.max_retry_wait_s})"
        )


_REGISTRY: dict[str, EndpointRateLimiter] = {}
_REGISTRY_LOCK = threading.Lock()


def rate_limiter_for(model: Any) -> EndpointRateLimiter:
    """The process-wide rate limiter of ``model``'s endpoint (created with no rate)."""
    key = endpoint_key(model)
    with _REGISTRY_LOCK:
        limiter = _REGISTRY.get(key)
        if limiter is None:
            limiter = _REGISTRY[key] = EndpointRateLimiter(name=key)
        return limiter


def attach_rate_limiter(model: Any) -> Any:
    """Give ``model`` its endpoint's limiter as ``rate_limiter`` (kept if it has another).

    Returns:
        ``model`` itself.
    """
    if getattr(model, "rate_limiter", None) is None and hasattr(model, "rate_limiter"):
        model.rate_limiter = rate_limiter_for(model)
    return model


def set_rate_limit(model: Any, requests_per_second: float | None) -> Any:
    """Set the rate of ``model``'s endpoint (for every model of it) and attach the limiter.

    The latest setting applies to the endpoint: one rate per endpoint in a process.

    Returns:
        ``model`` itself.

    Raises:
        ValueError: Not a positive number or ``None``.
    """
    limiter = rate_limiter_for(model)
    limiter.set_rate(requests_per_second)
    model.rate_limiter = limiter
    return model


def set_max_retry_wait(model: Any, seconds: float) -> None:
    """Set the longest ``Retry-After`` wait honoured for ``model``'s endpoint.

    Raises:
        ValueError: Not a number of seconds >= 0.
    """
    rate_limiter_for(model).max_retry_wait_s = _check_wait(seconds)


def rate_limit_of(model: Any) -> float | None:
    """The requests-per-second limit ``model``'s calls go through, or ``None``.

    Reads the model's own ``rate_limiter`` (ours, or any langchain-core token bucket).
    """
    limiter = getattr(model, "rate_limiter", None)
    if isinstance(limiter, EndpointRateLimiter):
        return limiter.rate
    if isinstance(limiter, InMemoryRateLimiter):
        return float(limiter.requests_per_second)
    return None


def max_retry_wait_of(model: Any) -> float:
    """The longest ``Retry-After`` wait honoured for ``model``'s endpoint, in seconds."""
    return rate_limiter_for(model).max_retry_wait_s


RateSetting: TypeAlias = "float | Mapping[str, float] | None"
"""A rate limit setting: one rate, or rates by model spec (``"*"``: every other spec)."""

_defaults: tuple[RateSetting, float | None] = (None, None)


def set_default_limits(rate_limit: RateSetting = None, max_retry_wait: float | None = None) -> None:
    """Process-wide endpoint settings for models built without their own.

    :func:`~langgraph_games.models.load_chat_model` applies them when its ``rate_limit``
    or ``max_retry_wait`` setting is not given; the CLI's ``--rate-limit`` and
    ``--max-retry-wait`` set them. They are not model settings of a run's spec: like the
    concurrency, they change how fast a run goes, not what it computes.

    Args:
        rate_limit: Requests per second for every endpoint, or by model spec with
            ``"*"`` for the others; ``None`` for none.
        max_retry_wait: The longest ``Retry-After`` wait in seconds; ``None``: 60.

    Raises:
        ValueError: A rate that is not a positive number, or a negative wait.
    """
    global _defaults
    if isinstance(rate_limit, Mapping):
        for spec, rps in rate_limit.items():
            check_rate(rps, f"the rate limit of {spec!r}")
        rate_limit = dict(rate_limit)
    else:
        rate_limit = check_rate(rate_limit)
    wait = None if max_retry_wait is None else _check_wait(max_retry_wait)
    _defaults = (rate_limit, wait)


def default_limits() -> tuple[RateSetting, float | None]:
    """The process-wide ``(rate_limit, max_retry_wait)`` (see :func:`set_default_limits`)."""
    return _defaults
