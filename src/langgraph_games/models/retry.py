"""Calling a chat model with retries and exponential backoff on transient failures.

Each attempt holds a slot of a :class:`~langgraph_games.models.limiter.CallLimiter` (the
caller's, else the endpoint's from :func:`~langgraph_games.models.limiter.limiter_for`);
the backoff sleep between attempts holds none, so a failing call does not keep others out.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games.models.errors import ModelCallError, ModelError
from langgraph_games.models.limiter import CallLimiter, limiter_for

__all__ = ["ainvoke_with_retry", "invoke_with_retry", "is_transient"]

# Exceptions (by class name, so ``openai`` need not be imported) that a retry may fix.
_TRANSIENT = {
    "APIConnectionError",
    "APITimeoutError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "ConnectError",
    "ReadTimeout",
    "ConnectTimeout",
    "RemoteProtocolError",
    "TimeoutError",
    "ConnectionError",
    "ConnectionResetError",
}


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` (or one of its bases) looks like a passing network/server fault."""
    return any(cls.__name__ in _TRANSIENT for cls in type(error).__mro__)


def _backoff_s(attempt: int, base_delay_s: float) -> float:
    """Jittered exponential backoff before retry number ``attempt + 1``."""
    return float(base_delay_s * 2.0**attempt * (1 + random.random() / 2))


def _label(model: BaseChatModel, name: str | None) -> str:
    return str(name or getattr(model, "model_name", None) or type(model).__name__)


async def ainvoke_with_retry(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    config: RunnableConfig | None = None,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    name: str | None = None,
    limiter: CallLimiter | None = None,
) -> AIMessage:
    """``model.ainvoke(messages)``, retried with jittered exponential backoff.

    Transient failures (connection errors, timeouts, rate limits, server errors) are
    retried up to ``attempts`` times in all; anything else fails at once. Each attempt
    holds a slot of ``limiter`` (default: the endpoint's, :func:`limiter_for`).

    Raises:
        ModelCallError: The call failed (after retries if the error was transient).
    """
    gate = limiter if limiter is not None else limiter_for(model)
    for attempt in range(attempts):
        try:
            async with gate.slot():
                reply: AIMessage = await model.ainvoke(list(messages), config=config)
        except ModelError:
            raise
        except Exception as exc:
            if attempt + 1 < attempts and is_transient(exc):
                await asyncio.sleep(_backoff_s(attempt, base_delay_s))
                continue
            raise ModelCallError(_label(model, name), f"{type(exc).__name__}: {exc}") from exc
        return reply
    raise ModelCallError(_label(model, name), "no attempts were made")  # pragma: no cover


def invoke_with_retry(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    config: RunnableConfig | None = None,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    name: str | None = None,
    limiter: CallLimiter | None = None,
) -> AIMessage:
    """The synchronous twin of :func:`ainvoke_with_retry` (same retries, errors and slots).

    Raises:
        ModelCallError: The call failed (after retries if the error was transient).
    """
    gate = limiter if limiter is not None else limiter_for(model)
    for attempt in range(attempts):
        try:
            with gate.slot_sync():
                reply: AIMessage = model.invoke(list(messages), config=config)
        except ModelError:
            raise
        except Exception as exc:
            if attempt + 1 < attempts and is_transient(exc):
                time.sleep(_backoff_s(attempt, base_delay_s))
                continue
            raise ModelCallError(_label(model, name), f"{type(exc).__name__}: {exc}") from exc
        return reply
    raise ModelCallError(_label(model, name), "no attempts were made")  # pragma: no cover
