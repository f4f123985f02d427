"""Pieces several strategy families share: the decision-graph protocol, model-call helpers."""

from __future__ import annotations

from langgraph_games.graphs.common.decision import (
    CHECKPOINT_TYPES,
    DecisionInput,
    DecisionOutput,
    ExchangeInput,
    GraphPlayer,
    LiveGame,
    decision_from_dict,
    engine_of,
    live_context,
    live_game,
    request_to_input,
    state_of,
)
from langgraph_games.graphs.common.direct import NESTED_DECISIONS
from langgraph_games.graphs.common.llm import (
    add_usage,
    merge_dicts,
    model_identity,
    reply_usage,
)
from langgraph_games.graphs.common.prompt_agent import (
    call_model,
    compile_model_check,
    reply_decision,
    single_call_decide,
    to_messages,
)

__all__ = [
    "CHECKPOINT_TYPES",
    "NESTED_DECISIONS",
    "DecisionInput",
    "DecisionOutput",
    "ExchangeInput",
    "GraphPlayer",
    "LiveGame",
    "add_usage",
    "call_model",
    "compile_model_check",
    "decision_from_dict",
    "engine_of",
    "live_context",
    "live_game",
    "merge_dicts",
    "model_identity",
    "reply_decision",
    "reply_usage",
    "request_to_input",
    "single_call_decide",
    "state_of",
    "to_messages",
]
