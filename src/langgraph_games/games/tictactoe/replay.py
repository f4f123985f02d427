"""Replay drawing of TicTacToe: the 3x3 board."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import (
    CellStyle,
    Grid,
    Panel,
    drawer,
    split_rows,
    status_caption,
)
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
    board: str = state.board  # type: ignore[attr-defined]
    return [
        Grid(
            split_rows(board, 3),
            TICTACTOE,
            row_labels=list("012"),
            col_labels=list("012"),
            caption=status_caption(game, state),
        )
    ]
