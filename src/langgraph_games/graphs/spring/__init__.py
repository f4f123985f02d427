"""SPRING: the nine-question DAG over a studied context, and its player."""

from __future__ import annotations

from langgraph_games.graphs.spring.graph import (
    SPRING_EDGES,
    SPRING_QUESTIONS,
    STEP_BY_STEP_QUESTION,
    SpringVariant,
    actions_context,
    context_per_episode,
    context_source,
    create_spring_agent,
    manual_per_episode,
    spring_context,
    spring_questions,
    studied_actions,
)
from langgraph_games.graphs.spring.player import (
    SpringDecisionState,
    SpringPlayer,
    create_spring_decision_graph,
    spring_player,
)
from langgraph_games.graphs.spring.registration import SpringSettings

__all__ = [
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "STEP_BY_STEP_QUESTION",
    "SpringDecisionState",
    "SpringPlayer",
    "SpringSettings",
    "SpringVariant",
    "actions_context",
    "context_per_episode",
    "context_source",
    "create_spring_agent",
    "create_spring_decision_graph",
    "manual_per_episode",
    "spring_context",
    "spring_player",
    "spring_questions",
    "studied_actions",
]
