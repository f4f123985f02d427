"""Small helpers shared by the strategy graphs: model calls, reply text, usage, identity.

Model calls go through :mod:`langgraph_games.models` (retries with backoff in
:func:`~langgraph_games.models.retry.ainvoke_with_retry`, accounting in
:class:`~langgraph_games.models.usage.UsageRecorder`); :func:`ainvoke_counted` only joins
the two and keeps the caller's callbacks (tracing, streaming) in the config.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games.models.retry import ainvoke_with_retry, invoke_with_retry
from langgraph_games.models.usage import USAGE_KEYS, UsageRecorder, message_usage

__all__ = [
    "USAGE_KEYS",
    "add_usage",
    "ainvoke_counted",
    "invoke_counted",
    "merge_dicts",
    "model_identity",
    "reply_text",
    "reply_usage",
    "with_handler",
]

reply_usage = message_usage
"""Token counts reported with a reply (zeros when the model reports none)."""


def reply_text(reply: Any) -> str:
    """The text of a model reply (a message, a string, or anything else: empty)."""
    if isinstance(reply, str):
        return reply
    text = getattr(reply, "text", None)
    if isinstance(text, str):  # langchain-core 1.x: a property (a callable str subclass)
        return str(text)
    if callable(text):  # older langchain-core exposed text() as a method
        text = text()
        if isinstance(text, str):
            return text
    content = getattr(reply, "content", None)
    return content if isinstance(content, str) else ""


def with_handler(config: RunnableConfig | None, handler: Any) -> RunnableConfig:
    """A copy of ``config`` whose callbacks also include ``handler``.

    The callbacks of a node's config may be a list or a callback manager (inside a
    graph); both keep what they had, so tracing and streaming still see the call.
    """
    merged: RunnableConfig = dict(config or {})  # type: ignore[assignment]
    callbacks = merged.get("callbacks")
    if callbacks is None:
        merged["callbacks"] = [handler]
    elif isinstance(callbacks, list):
        merged["callbacks"] = [*callbacks, handler]
    else:
        manager = callbacks.copy()
        manager.add_handler(handler, inherit=True)
        merged["callbacks"] = manager
    return merged


def _counted(recorder: UsageRecorder, reply: Any, started: float) -> dict[str, Any]:
    totals = recorder.totals()
    usage: dict[str, Any] = {
        "calls": max(1, int(totals["calls"])),
        "input_tokens": int(totals["input_tokens"]),
        "output_tokens": int(totals["output_tokens"]),
    }
    if not usage["input_tokens"] and not usage["output_tokens"]:  # a model skipping callbacks
        reported = message_usage(reply)
        usage["input_tokens"] = reported["input_tokens"]
        usage["output_tokens"] = reported["output_tokens"]
    usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
    usage["latency_s"] = round(time.perf_counter() - started, 6)
    return usage


async def ainvoke_counted(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    config: RunnableConfig | None = None,
    *,
    attempts: int = 3,
    base_delay_s: float = 0.5,
) -> tuple[AIMessage, dict[str, Any]]:
    """Call ``model`` with retries and report ``calls``, tokens and ``latency_s``.

    ``calls`` counts every attempt (a transient failure retried counts too).

    Raises:
        ModelCallError: The call failed (after retries for transient errors).
    """
    recorder = UsageRecorder()
    started = time.perf_counter()
    reply = await ainvoke_with_retry(
        model,
        messages,
        config=with_handler(config, recorder),
        attempts=attempts,
        base_delay_s=base_delay_s,
    )
    return reply, _counted(recorder, reply, started)


def invoke_counted(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    config: RunnableConfig | None = None,
    *,
    attempts: int = 3,
    base_delay_s: float = 0.5,
) -> tuple[AIMessage, dict[str, Any]]:
    """The synchronous twin of :func:`ainvoke_counted`.

    Raises:
        ModelCallError: The call failed (after retries for transient errors).
    """
    recorder = UsageRecorder()
    started = time.perf_counter()
    reply = invoke_with_retry(
        model,
        messages,
        config=with_handler(config, recorder),
        attempts=attempts,
        base_delay_s=base_delay_s,
    )
    return reply, _counted(recorder, reply, started)


def add_usage(left: Mapping[str, Any] | None, right: Mapping[str, Any] | None) -> dict[str, Any]:
    """Reducer summing counts key by key (integers stay integers, seconds stay floats)."""
    out = dict(left or {})
    for key, value in (right or {}).items():
        out[key] = out.get(key, 0) + value
    return out


def merge_dicts(left: Mapping[str, Any] | None, right: Mapping[str, Any] | None) -> dict[str, Any]:
    """Reducer merging dictionaries written by parallel nodes (right wins on a clash)."""
    return {**(left or {}), **(right or {})}


def model_identity(model: Any) -> str:
    """A stable label for a chat model: provider and model name where LangChain knows them.

    Example:
        >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
        >>> model_identity(FakeListChatModel(responses=["x"]))
        'fakelistchatmodel:FakeListChatModel'
    """
    params: Mapping[str, Any] = {}
    get_params = getattr(model, "_get_ls_params", None)
    if callable(get_params):
        try:
            params = get_params() or {}
        except Exception:  # noqa: BLE001 - a model's metadata hook must never break a run
            params = {}
    provider = str(params.get("ls_provider") or type(model).__name__.lower())
    name = (
        params.get("ls_model_name")
        or getattr(model, "model_name", None)
        or getattr(model, "model", None)
        or type(model).__name__
    )
    return f"{provider}:{name}"
