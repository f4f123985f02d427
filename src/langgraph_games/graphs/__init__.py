"""Strategy graphs (LangGraph), the episode loop and the learning loops."""

from __future__ import annotations

from langgraph_games.graphs.decision import DecisionInput, GraphPlayer, request_to_input
from langgraph_games.graphs.episode import (
    EpisodeContext,
    EpisodeOptions,
    EpisodeState,
    create_episode_graph,
    run_episode,
)
from langgraph_games.graphs.gamebot import (
    VARIANTS,
    build_gamebot_messages,
    create_gamebot_agent,
    gamebot_player,
)

__all__ = [
    "VARIANTS",
    "DecisionInput",
    "EpisodeContext",
    "EpisodeOptions",
    "EpisodeState",
    "GraphPlayer",
    "build_gamebot_messages",
    "create_episode_graph",
    "create_gamebot_agent",
    "gamebot_player",
    "request_to_input",
    "run_episode",
]
