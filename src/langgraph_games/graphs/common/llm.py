"""Small helpers shared by the strategy graphs: reply text, usage sums, model identity.

Model calls themselves go through :func:`langgraph_games.models.usage.ainvoke_measured`
(retries with backoff, usage accounting, the caller's callbacks kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from langgraph_games.models.messages import reply_text
from langgraph_games.models.usage import USAGE_KEYS, message_usage

__all__ = [
    "USAGE_KEYS",
    "add_usage",
    "merge_dicts",
    "model_identity",
    "reply_text",
    "reply_usage",
]

K = TypeVar("K")
V = TypeVar("V")

reply_usage = message_usage
"""Token counts reported with a reply (zeros when the model reports none)."""


def add_usage(
    left: Mapping[str, float] | None, right: Mapping[str, float] | None
) -> dict[str, float]:
    """Reducer summing counts key by key (integers stay integers, seconds stay floats)."""
    out: dict[str, float] = dict(left or {})
    for key, value in (right or {}).items():
        out[key] = out.get(key, 0) + value
    return out


def merge_dicts(left: Mapping[K, V] | None, right: Mapping[K, V] | None) -> dict[K, V]:
    """Reducer merging dictionaries written by parallel nodes (right wins on a clash)."""
    return {**(left or {}), **(right or {})}


def model_identity(model: object) -> str:
    """A stable label for a chat model: provider and model name where LangChain knows them.

    Example:
        >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
        >>> model_identity(FakeListChatModel(responses=["x"]))
        'fakelistchatmodel:FakeListChatModel'
    """
    params: Mapping[str, object] = {}
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
