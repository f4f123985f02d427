"""A person at the table: the human player, asked through LangGraph interrupts."""

from __future__ import annotations

from langgraph_games.graphs.human import registration as registration  # registers "human"
from langgraph_games.graphs.human.player import (
    HUMAN_REQUEST_KIND,
    HumanPlayer,
    move_request,
    read_human_move,
)

__all__ = ["HUMAN_REQUEST_KIND", "HumanPlayer", "move_request", "read_human_move"]
