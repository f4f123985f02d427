"""Text views of an Othello position: GAMEBoT's state prompt and a compact board."""

from __future__ import annotations

from langgraph_games.games._grid import labelled_rows
from langgraph_games.games.othello.rules import COLORS, COLUMNS, EMPTY, SIZE, SQUARES

__all__ = ["board_text", "observation_text", "render_text"]

_PLAYER_NAMES = ("Black", "White")


def board_text(board: str) -> str:
    """Eight lines, one per row from row 1: ``(A,1):O (B,1):B ...``."""
    return "\n".join(labelled_rows(board, SQUARES, SIZE))


def observation_text(board: str, player: int, legal: tuple[str, ...]) -> str:
    """GAMEBoT's state text: who you are, the board, and the valid moves."""
    name = _PLAYER_NAMES[player]
    moves = ", ".join(legal) if legal else "none (you must pass)"
    return (
        f"You are the {name} player (pieces {COLORS[player]}); empty squares are {EMPTY}.\n"
        f"Current Game Board:\n{board_text(board)}\n"
        f"Valid moves are {moves}"
    )


def render_text(board: str) -> str:
    """A compact grid with column letters and row numbers, and the disc count."""
    lines = ["  " + " ".join(COLUMNS)]
    for r in range(SIZE):
        row = board[r * SIZE : (r + 1) * SIZE].replace(EMPTY, ".")
        lines.append(f"{r + 1} " + " ".join(row))
    lines.append(f"B: {board.count('B')}  W: {board.count('W')}")
    return "\n".join(lines)
