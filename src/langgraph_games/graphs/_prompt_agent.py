"""Pieces shared by the single-prompt agents (EvoEmpirBench, Minesweeper): call and decision.

A single-prompt agent builds its messages, calls the model once, and parses the reply.
The call node records tokens and latency the same way the GAMEBoT graph does; the
decision helper writes the JSON form of a :class:`~langgraph_games.players.base.Decision`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_games.graphs._llm import reply_text
from langgraph_games.models.retry import ainvoke_with_retry
from langgraph_games.models.usage import UsageRecorder
from langgraph_games.players.base import ParseStatus

__all__ = ["call_model", "decision_dict", "to_messages"]


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


async def call_model(
    model: BaseChatModel,
    messages: list[BaseMessage],
    *,
    attempts: int,
    delay_s: float,
) -> dict[str, Any]:
    """One model call with retries: ``{"reply": text, "usage": {...}, "latency_s": s}``."""
    recorder = UsageRecorder()
    started = time.perf_counter()
    reply = await ainvoke_with_retry(
        model,
        messages,
        config={"callbacks": [recorder]},
        attempts=attempts,
        base_delay_s=delay_s,
    )
    totals = recorder.totals()
    usage = {
        "calls": max(1, totals["calls"]),
        "input_tokens": totals["input_tokens"],
        "output_tokens": totals["output_tokens"],
    }
    if not totals["calls"] and reply.usage_metadata:  # a model that skips callbacks
        usage["input_tokens"] = reply.usage_metadata.get("input_tokens", 0)
        usage["output_tokens"] = reply.usage_metadata.get("output_tokens", 0)
    return {
        "reply": reply_text(reply),
        "usage": usage,
        "latency_s": time.perf_counter() - started,
    }


def decision_dict(
    state: dict[str, Any] | Any,
    action: str | None,
    status: ParseStatus,
    info: dict[str, Any],
    *,
    intermediate: dict[int, str] | None = None,
) -> dict[str, Any]:
    """The JSON form of a decision from a graph state holding ``reply``/``usage``/``latency_s``."""
    return {
        "action": action,
        "status": status.value,
        "raw_outputs": [state.get("reply") or ""],
        "intermediate": {str(k): v for k, v in (intermediate or {}).items()},
        "scores": [],
        "usage": dict(state.get("usage") or {}),
        "latency_s": float(state.get("latency_s", 0.0)),
        "info": info,
    }
