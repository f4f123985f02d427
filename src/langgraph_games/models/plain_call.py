"""One-call chat models, and calling them without LangChain's callback layer when nothing watches.

A one-call model (:func:`one_call_per_invoke`: ``ChatOpenAI``, the embedded local model,
the scripted model) makes exactly one request per ``ainvoke``, and its reply carries that
request's usage. Its ``ainvoke`` is LangChain's: set up the callback manager (tracing
from the environment, handlers of the config and the model), start a run for the
callbacks, gather the generation as a task, end the run, flatten the result. Under all
that is ``_agenerate_with_cache``, which asks the model-call cache, takes the model's rate
limiter, calls the provider (streaming if the model is set to stream) and adds the
response metadata: the whole call when no callback would see it. Over HTTP the layer
above it costs about a seventh of what ``ChatOpenAI``'s call costs the client.

:func:`plain_call` is that lower call, and :func:`quiet` says when it may stand in for
``ainvoke``: the model is of a one-call class, holds no callbacks of its own and is not
verbose, LangChain's debug mode is off, and the call's config is the one a caller
declared unwatched with :func:`unwatched_calls` (the episode loop that runs without its
graph, :mod:`~langgraph_games.graphs.episode.unwatched`, after finding that LangChain would
attach no handler to its run). Anything else, a config of one's own included, goes
through ``ainvoke``. The reply is the same either way; a reply without an id gets one of
the form LangChain gives (``lc_run--<uuid>-0``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import cast

from langchain_core.globals import get_debug
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage

__all__ = ["is_one_call", "one_call_per_invoke", "plain_call", "quiet", "unwatched_calls"]

_ONE_CALL: set[type[BaseChatModel]] = set()

_UNWATCHED: ContextVar[object | None] = ContextVar("langgraph_games_unwatched_calls", default=None)

# LangChain's own call, when this LangChain has it (it is not public API): without it,
# every call goes through ``ainvoke``.
_WITH_CACHE = getattr(BaseChatModel, "_agenerate_with_cache", None)


def one_call_per_invoke(cls: type[BaseChatModel]) -> None:
    """Declare that each ``ainvoke`` of a ``cls`` model (exactly that class) is one call.

    For such a model :func:`~langgraph_games.models.usage.ainvoke_measured` reads a call's
    usage from its reply (its ``usage_metadata`` and cache mark) and counts each failed
    attempt before it as a call, instead of watching the call with a
    :class:`~langgraph_games.models.usage.UsageRecorder`: a callback handler makes
    LangChain start and end a traced run for every call, about a third of what a call to an
    instant model costs. A model of any other class (one that may call other models
    inside, a subclass) is watched, so every call it makes is counted. Where nothing
    watches, such a model is called by :func:`plain_call`.
    """
    _ONE_CALL.add(cls)


def is_one_call(model: object) -> bool:
    """Whether ``model``'s class was declared by :func:`one_call_per_invoke`."""
    return type(model) in _ONE_CALL


@contextmanager
def unwatched_calls(config: object) -> Iterator[None]:
    """Declare that model calls given exactly ``config`` are seen by no callback.

    Only a caller that checked it may say so: no handler in ``config`` and none that
    LangChain would add (tracing from the environment or a tracing block).
    """
    token = _UNWATCHED.set(config)
    try:
        yield
    finally:
        _UNWATCHED.reset(token)


def quiet(model: object, config: object) -> bool:
    """Whether a call of ``model`` with ``config`` may skip LangChain's callback layer.

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> one_call_per_invoke(ScriptedChatModel)  # as its module does
        >>> model, config = ScriptedChatModel(responses=["e4"]), {"tags": []}
        >>> quiet(model, config)
        False
        >>> with unwatched_calls(config):
        ...     quiet(model, config), quiet(model, {"tags": []})
        (True, False)
    """
    if config is None or _UNWATCHED.get() is not config or _WITH_CACHE is None:
        return False
    cls = type(model)
    if cls not in _ONE_CALL or getattr(cls, "_agenerate_with_cache", None) is not _WITH_CACHE:
        return False
    if getattr(cls, "ainvoke", None) is not BaseChatModel.ainvoke:  # its own call: kept
        return False
    own_handlers = getattr(model, "callbacks", None) or getattr(model, "verbose", False)
    return not (own_handlers or get_debug())


async def plain_call(model: BaseChatModel, messages: Sequence[BaseMessage]) -> AIMessage:
    """``model``'s reply to ``messages`` without callbacks (check :func:`quiet` first).

    The model-call cache, the model's rate limiter and streaming (if the model is set to
    stream) apply as in ``ainvoke``; errors are the model's own.
    """
    result = await model._agenerate_with_cache(list(messages))
    message = result.generations[0].message
    if message.id is None:
        message.id = f"lc_run--{uuid.uuid4()}-0"
    return cast(AIMessage, message)
