"""Replay drawing of TicTacToe: the 3x3 board."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Panel, board_grid, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_tictactoe"]

TICTACTOE = {
    "X": CellStyle("X", "#ffffff", "cross", "#c62828"),
    "O": CellStyle("O", "#ffffff", "ring", "#1565c0"),
    "_": CellStyle("", "#ffffff"),
}


@drawer("tictactoe")
def draw_tictactoe(game: Game[GameState], state: GameState) -> list[Panel]:
    """3x3 board, rows and columns numbered as in the prompt ``(row,col)``."""
    return [board_grid(game, state, TICTACTOE, 3)]
