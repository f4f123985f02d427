"""SmartPlay"s baseline agent and its prompts."""

from __future__ import annotations

from langgraph_games.graphs.smartplay.graph import (
    SmartPlayAgentState,
    SmartPlayPlayer,
    create_smartplay_agent,
    smartplay_player,
)
from langgraph_games.graphs.smartplay.registration import SMARTPLAY_GAMES, SmartPlaySettings

__all__ = [
    "SMARTPLAY_GAMES",
    "SmartPlayAgentState",
    "SmartPlayPlayer",
    "SmartPlaySettings",
    "create_smartplay_agent",
    "smartplay_player",
]
