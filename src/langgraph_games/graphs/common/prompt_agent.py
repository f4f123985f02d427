"""Pieces shared by the single-call agents (GAMEBoT, EvoEmpirBench, Minesweeper).

A single-prompt agent builds its messages, calls the model once, and parses the reply, all
in one node (:func:`compile_model_check`). The call records tokens and latency the same
way the GAMEBoT graph does; :func:`reply_decision` builds the
:class:`~langgraph_games.players.base.Decision` from the graph state. The graphs take
the live engine and state from their runtime context
(:class:`~langgraph_games.graphs.common.decision.LiveGame`) when they are given one.

Reading a long reply is slow synchronous work, and the agents' nodes run on the event
loop that also serves every other match of an arena: :func:`read_off_loop` reads a reply
longer than :data:`INLINE_READ_CHARS` in a worker thread, so the loop never waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict, TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime, get_runtime

from langgraph_games.graphs.common.async_node import async_node
from langgraph_games.graphs.common.decision import DecisionOutput, LiveGame
from langgraph_games.graphs.common.direct import Decide, register_decide
from langgraph_games.graphs.common.llm import reply_text
from langgraph_games.models.messages import clip_reply, reply_too_long
from langgraph_games.models.usage import ainvoke_measured
from langgraph_games.players.base import Decision, ParseStatus

__all__ = [
    "INLINE_READ_CHARS",
    "ModelReply",
    "call_model",
    "compile_model_check",
    "read_off_loop",
    "reply_decision",
    "single_call_decide",
    "to_messages",
    "unread_reply",
]

T = TypeVar("T")

INLINE_READ_CHARS = 8_000
"""Replies up to this length are read on the loop (a thread costs more than reading them)."""


def to_messages(pairs: Sequence[tuple[str, str]]) -> list[BaseMessage]:
    """``[("system", text), ("user", text)]`` as LangChain messages.

    Example:
        >>> [type(m).__name__ for m in to_messages([("system", "a"), ("user", "b")])]
        ['SystemMessage', 'HumanMessage']
    """
    out: list[BaseMessage] = []
    for role, text in pairs:
        if role == "system":
            out.append(SystemMessage(content=text))
        elif role == "user":
            out.append(HumanMessage(content=text))
        else:
            raise ValueError(f"unknown message role {role!r}; expected 'system' or 'user'")
    return out


class ModelReply(TypedDict, total=False):
    """A model call's update of a graph state (:func:`call_model`)."""

    reply: str
    usage: dict[str, float]
    latency_s: float


async def call_model(
    model: BaseChatModel,
    messages: list[BaseMessage],
    config: RunnableConfig | None,
    *,
    attempts: int,
    delay_s: float,
) -> dict[str, Any]:
    """One model call with retries: ``{"reply": text, "usage": {...}, "latency_s": s}``.

    ``config`` is the calling node's ``RunnableConfig``: its callbacks and LangGraph
    metadata make the call stream (``stream_mode="messages"``) and trace inside the run.
    """
    reply, usage = await ainvoke_measured(
        model, messages, config, attempts=attempts, base_delay_s=delay_s
    )
    latency = usage.pop("latency_s")
    return {"reply": reply_text(reply), "usage": usage, "latency_s": latency}


def reply_decision(
    state: ModelReply,
    action: str | None,
    status: ParseStatus,
    info: dict[str, object],
    *,
    intermediate: dict[int, str] | None = None,
    scores: list[dict[str, Any]] | None = None,
) -> DecisionOutput:
    """The decision of a graph state holding ``reply``/``usage``/``latency_s``, as a node update.

    Example:
        >>> out = reply_decision({"reply": "r,0,0", "usage": {"calls": 1}}, "r,0,0",
        ...                      ParseStatus.OK, {})
        >>> out["decision"].action, out["decision"].raw_outputs, out["decision"].usage
        ('r,0,0', ['r,0,0'], {'calls': 1})
    """
    return {
        "decision": Decision(
            action=action,
            status=status,
            raw_outputs=[clip_reply(state.get("reply") or "")],
            intermediate=dict(intermediate or {}),
            scores=list(scores or []),
            usage=dict(state.get("usage") or {}),
            latency_s=float(state.get("latency_s", 0.0)),
            info=info,
        )
    }


def unread_reply(text: str) -> tuple[None, ParseStatus, dict[str, object]] | None:
    """``(None, UNPARSABLE, info)`` for a reply too long to read, else ``None``.

    See :func:`~langgraph_games.models.messages.reply_too_long`; ``info`` holds the
    problem and the reply's length.
    """
    problem = reply_too_long(text)
    if problem is None:
        return None
    return None, ParseStatus.UNPARSABLE, {"problem": problem, "reply_chars": len(text)}


async def read_off_loop(reply: str, read: Callable[..., T], *args: Any) -> T:
    """``read(*args)``, in a worker thread if ``reply`` is longer than :data:`INLINE_READ_CHARS`.

    Example:
        >>> import asyncio, threading
        >>> on_loop = lambda: threading.current_thread() is threading.main_thread()
        >>> asyncio.run(read_off_loop("short", on_loop))
        True
        >>> asyncio.run(read_off_loop("x" * 9000, on_loop))
        False
    """
    if len(reply) <= INLINE_READ_CHARS:
        return read(*args)
    return await asyncio.to_thread(read, *args)


def single_call_decide(call: Any, check: Any) -> Decide:
    """A single-call strategy's :data:`~langgraph_games.graphs.common.direct.Decide` function.

    It awaits ``call(state, config, runtime)``, which builds the prompt and asks the model
    (usage recorded), passing ``config`` to the model call, then ``check(state, runtime)``
    on the state with that update, which reads the reply into a decision; its update holds
    both. ``call`` and ``check`` may read the runtime's ``context`` and ``store``, nothing
    else of the run.
    """

    async def decide(state: Any, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        asked: dict[str, Any] = await call(state, config, runtime)
        read: Mapping[str, Any] = await check({**state, **asked}, runtime)
        return {**asked, **read}

    return decide


def compile_model_check(
    state_schema: type[Any],
    input_schema: type[Any],
    call: Any,
    check: Any,
    name: str,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The shape every single-call strategy graph shares: one node, ``model``, then ``END``.

    The node is :func:`single_call_decide` of ``call`` and ``check``: the prompt, the model
    call and the reading of the reply into a decision (the graph's only output). One node
    per model call, not one per piece: each LangGraph node costs a fixed overhead per
    decision (about a sixth of a millisecond), and the pieces need no checkpoint or stream
    event between them. Token streaming and tracing are unchanged (the model call runs
    inside the node, with its config), and the node's update still carries the prompt and
    reply. The run's context is a :class:`~langgraph_games.graphs.common.decision.LiveGame`.
    The same function is registered for the graph
    (:func:`~langgraph_games.graphs.common.direct.register_decide`), so its player calls it
    without a nested graph run when nothing watches.
    """
    decide = single_call_decide(call, check)

    async def model(state: Any, config: RunnableConfig) -> Mapping[str, Any]:
        return await decide(state, config, get_runtime())

    builder = StateGraph(
        state_schema,
        context_schema=LiveGame,
        input_schema=input_schema,
        output_schema=DecisionOutput,
    )
    # ``ainvoke`` awaits it, ``invoke`` runs it to completion (see async_node); the
    # runtime comes from LangGraph's public get_runtime().
    builder.add_node("model", async_node(model, name="model"))
    builder.add_edge(START, "model")
    builder.add_edge("model", END)
    compiled = builder.compile(checkpointer=False, name=name)
    register_decide(compiled, decide)
    return compiled
