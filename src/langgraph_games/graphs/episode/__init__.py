"""The episode loop: one game between players, as a LangGraph graph (resumable)."""

from __future__ import annotations

from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.counters import summarize_players
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions, EpisodeState
from langgraph_games.graphs.episode.run import run_episode

__all__ = [
    "EpisodeContext",
    "EpisodeOptions",
    "EpisodeState",
    "create_episode_graph",
    "run_episode",
    "summarize_players",
]
