"""EvoEmpirBench"s prompt agent (maze, Match-2) and its prompts."""

from __future__ import annotations

from langgraph_games.graphs.eeb import registration as registration  # registers "eeb"
from langgraph_games.graphs.eeb.graph import (
    EEB_GAMES,
    EebState,
    build_eeb_messages,
    create_eeb_agent,
    eeb_player,
    parse_eeb_reply,
)

__all__ = [
    "EEB_GAMES",
    "EebState",
    "build_eeb_messages",
    "create_eeb_agent",
    "eeb_player",
    "parse_eeb_reply",
]
