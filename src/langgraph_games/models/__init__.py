"""Chat models: the embedded local model and OpenAI-compatible endpoints, with usage accounting."""

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
from langgraph_games.models.local import LocalChatModel, bundled_model_path
from langgraph_games.models.retry import ainvoke_with_retry, is_transient
from langgraph_games.models.usage import CallRecord, UsageRecorder, ainvoke_measured

__all__ = [
    "ACCEPTED_FORMS",
    "CallRecord",
    "LocalChatModel",
    "ModelCallError",
    "ModelError",
    "ModelSpecError",
    "ModelUnavailableError",
    "ScriptedChatModel",
    "UsageRecorder",
    "ainvoke_measured",
    "ainvoke_with_retry",
    "bundled_model_path",
    "check_model",
    "describe_model",
    "is_transient",
    "load_chat_model",
]
