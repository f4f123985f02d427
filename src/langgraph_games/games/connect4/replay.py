"""Replay drawing of Connect Four: the 6x7 board, row 0 at the bottom."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Panel, board_grid, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_connect4"]

CONNECT4 = {
    "X": CellStyle("X", "#1e4fa3", "disc", "#e53935"),
    "O": CellStyle("O", "#1e4fa3", "disc", "#fdd835"),
    "_": CellStyle("", "#1e4fa3", "disc", "#ffffff"),
}


@drawer("connect4")
def draw_connect4(game: Game[GameState], state: GameState) -> list[Panel]:
    """6x7 board, the bottom row (row 0) drawn at the bottom."""
    return [board_grid(game, state, CONNECT4, 7, bottom_up=True)]
