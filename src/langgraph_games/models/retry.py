"""Calling a chat model with retries and exponential backoff on transient failures."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games.models.errors import ModelCallError, ModelError

__all__ = ["ainvoke_with_retry", "is_transient"]

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


async def ainvoke_with_retry(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    config: RunnableConfig | None = None,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    name: str | None = None,
) -> AIMessage:
    """``model.ainvoke(messages)``, retried with jittered exponential backoff.

    Transient failures (connection errors, timeouts, rate limits, server errors) are
    retried up to ``attempts`` times in all; anything else fails at once.

    Raises:
        ModelCallError: The call failed (after retries if the error was transient).
    """
    label = name or getattr(model, "model_name", None) or type(model).__name__
    for attempt in range(attempts):
        try:
            reply: AIMessage = await model.ainvoke(list(messages), config=config)
        except ModelError:
            raise
        except Exception as exc:
            if attempt + 1 < attempts and is_transient(exc):
                delay = base_delay_s * (2**attempt) * (1 + random.random() / 2)
                await asyncio.sleep(delay)
                continue
            raise ModelCallError(str(label), f"{type(exc).__name__}: {exc}") from exc
        return reply
    raise ModelCallError(str(label), "no attempts were made")  # pragma: no cover
