"""Pieces several strategy families share: the decision-graph protocol, model-call helpers."""

from __future__ import annotations

from langgraph_games.graphs.common.decision import (
    DecisionInput,
    GraphPlayer,
    decision_from_dict,
    engine_of,
    request_to_input,
    state_of,
)
from langgraph_games.graphs.common.llm import (
    add_usage,
    merge_dicts,
    model_identity,
    reply_usage,
)
from langgraph_games.graphs.common.prompt_agent import (
    call_model,
    compile_model_check,
    decision_dict,
    to_messages,
)

__all__ = [
    "DecisionInput",
    "GraphPlayer",
    "add_usage",
    "call_model",
    "compile_model_check",
    "decision_dict",
    "decision_from_dict",
    "engine_of",
    "merge_dicts",
    "model_identity",
    "reply_usage",
    "request_to_input",
    "state_of",
    "to_messages",
]
