"""Pieces shared by the single-prompt agents (EvoEmpirBench, Minesweeper): call and decision.

A single-prompt agent builds its messages, calls the model once, and parses the reply.
The call node records tokens and latency the same way the GAMEBoT graph does; the
decision helper writes the JSON form of a :class:`~langgraph_games.players.base.Decision`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_games.graphs._llm import reply_text
from langgraph_games.models.usage import ainvoke_measured
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
    reply, usage = await ainvoke_measured(model, messages, attempts=attempts, base_delay_s=delay_s)
    latency = usage.pop("latency_s")
    return {"reply": reply_text(reply), "usage": usage, "latency_s": latency}


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
