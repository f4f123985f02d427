"""The Minesweeper Agent (five prompt variants) and its prompts."""

from __future__ import annotations

from langgraph_games.graphs.minesweeper.graph import (
    MS_STRATEGIES,
    MinesweeperAgentInput,
    MinesweeperAgentState,
    MinesweeperPlayer,
    create_minesweeper_agent,
    minesweeper_player,
    parse_minesweeper_reply,
    parts_of,
    score_reported_cells,
)
from langgraph_games.graphs.minesweeper.registration import MinesweeperSettings

__all__ = [
    "MS_STRATEGIES",
    "MinesweeperAgentInput",
    "MinesweeperAgentState",
    "MinesweeperPlayer",
    "MinesweeperSettings",
    "create_minesweeper_agent",
    "minesweeper_player",
    "parse_minesweeper_reply",
    "parts_of",
    "score_reported_cells",
]
