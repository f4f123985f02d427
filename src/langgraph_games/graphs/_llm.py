"""Small helpers shared by the strategy graphs: reply text, usage sums, model identity.

Model calls themselves go through :func:`langgraph_games.models.usage.ainvoke_measured`
(retries with backoff, usage accounting, the caller's callbacks kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph_games.models.usage import USAGE_KEYS, message_usage

__all__ = [
    "USAGE_KEYS",
    "add_usage",
    "merge_dicts",
    "model_identity",
    "reply_text",
    "reply_usage",
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
