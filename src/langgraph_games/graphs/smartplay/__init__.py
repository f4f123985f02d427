"""SmartPlay"s baseline agent and its prompts."""

from __future__ import annotations

from langgraph_games.graphs.smartplay.graph import (
    SmartPlayAgentState,
    SmartPlayPlayer,
    create_smartplay_agent,
    smartplay_player,
)

__all__ = ["SmartPlayAgentState", "SmartPlayPlayer", "create_smartplay_agent", "smartplay_player"]
