"""Text views of a Checkers position: GAMEBoT's state prompt and a compact board."""

from __future__ import annotations

from langgraph_games.games._grid import labelled_rows
from langgraph_games.games.checkers.rules import EMPTY, SIZE, square_name

__all__ = ["board_text", "observation_text", "render_text"]

PLAYER_NAMES = ("White", "Black")
_SQUARES = tuple(square_name(i) for i in range(SIZE * SIZE))


def board_text(board: str) -> str:
    """Eight lines, one per row from row 0: ``(0,0):_ (0,1):w ...``."""
    return "\n".join(labelled_rows(board, _SQUARES, SIZE))


def observation_text(board: str, player: int, legal: tuple[str, ...], chained: bool) -> str:
    """GAMEBoT's state text: the board, whose turn, and the valid moves."""
    pieces = "w (man) and W (king)" if player == 0 else "b (man) and B (king)"
    note = (
        "\nYou are in the middle of a multi-jump: continue jumping with the same piece."
        if chained
        else ""
    )
    return (
        f"You are the {PLAYER_NAMES[player]} player, with pieces {pieces}.\n"
        f"Current Game Board:\n{board_text(board)}{note}\n"
        f"Current valid moves for player {PLAYER_NAMES[player]}: {list(legal)}"
    )


def render_text(board: str) -> str:
    """A compact grid with row and column numbers and the piece count."""
    lines = ["   " + " ".join(str(c) for c in range(SIZE))]
    for r in range(SIZE):
        lines.append(f"{r}  " + " ".join(board[r * SIZE : (r + 1) * SIZE].replace(EMPTY, ".")))
    white = sum(board.count(p) for p in "wW")
    black = sum(board.count(p) for p in "bB")
    lines.append(f"White: {white}  Black: {black}")
    return "\n".join(lines)
