"""Chat models: the embedded local model, OpenAI-compatible endpoints and any LangChain provider.

With usage accounting, retries that honour ``Retry-After``, and per-endpoint concurrency
and rate limits.
"""

from __future__ import annotations

from langgraph_games.models.errors import (
    ModelCallError,
    ModelError,
    ModelSpecError,
    ModelUnavailableError,
)
from langgraph_games.models.factory import (
    ACCEPTED_FORMS,
    check_model,
    describe_model,
    load_chat_model,
)
from langgraph_games.models.fake import ScriptedChatModel
from langgraph_games.models.limiter import CallLimiter, LimiterStats, limiter_for
from langgraph_games.models.local import LocalChatModel, bundled_model_path
from langgraph_games.models.ratelimit import (
    EndpointRateLimiter,
    rate_limiter_for,
    set_max_retry_wait,
    set_rate_limit,
)
from langgraph_games.models.retry import RetryWait, ainvoke_with_retry, is_transient
from langgraph_games.models.usage import CallRecord, UsageRecorder, ainvoke_measured

__all__ = [
    "ACCEPTED_FORMS",
    "CallLimiter",
    "CallRecord",
    "EndpointRateLimiter",
    "LimiterStats",
    "LocalChatModel",
    "ModelCallError",
    "ModelError",
    "ModelSpecError",
    "ModelUnavailableError",
    "RetryWait",
    "ScriptedChatModel",
    "UsageRecorder",
    "ainvoke_measured",
    "ainvoke_with_retry",
    "bundled_model_path",
    "check_model",
    "describe_model",
    "is_transient",
    "limiter_for",
    "load_chat_model",
    "rate_limiter_for",
    "set_max_retry_wait",
    "set_rate_limit",
]
