"""Replay drawing of Othello: the 8x8 board with the disc count."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Panel, board_grid, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_othello"]

OTHELLO = {
    "B": CellStyle("Black", "#2e7d32", "disc", "#111111"),
    "W": CellStyle("White", "#2e7d32", "disc", "#fafafa"),
    "O": CellStyle("", "#2e7d32"),
}


@drawer("othello")
def draw_othello(game: Game[GameState], state: GameState) -> list[Panel]:
    """8x8 board, rows 1-8 and columns A-H, with the disc count."""
    board: str = state.board  # type: ignore[attr-defined]
    counts = f"Black {board.count('B')}, White {board.count('W')}"
    return [
        board_grid(
            game,
            state,
            OTHELLO,
            8,
            row_labels=[str(r) for r in range(1, 9)],
            col_labels=list("ABCDEFGH"),
            caption_prefix=counts,
        )
    ]
