"""Drawing functions of the GAMEBoT board games: TicTacToe, Connect Four, Othello, Checkers."""

from __future__ import annotations

from typing import Any

from langgraph_games.eval.reports.replay.frames import CellStyle, Grid, Panel, Text, drawer
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = ["draw_checkers", "draw_connect4", "draw_othello", "draw_tictactoe"]

_DIGITS = "0123456789"

TICTACTOE = {
    "X": CellStyle("X", "#ffffff", "cross", "#c62828"),
    "O": CellStyle("O", "#ffffff", "ring", "#1565c0"),
    "_": CellStyle("", "#ffffff"),
}
CONNECT4 = {
    "X": CellStyle("X", "#1e4fa3", "disc", "#e53935"),
    "O": CellStyle("O", "#1e4fa3", "disc", "#fdd835"),
    "_": CellStyle("", "#1e4fa3", "disc", "#ffffff"),
}
OTHELLO = {
    "B": CellStyle("Black", "#2e7d32", "disc", "#111111"),
    "W": CellStyle("White", "#2e7d32", "disc", "#fafafa"),
    "O": CellStyle("", "#2e7d32"),
}
CHECKERS = {
    "w": CellStyle("White man", "#8d6e63", "disc", "#fafafa"),
    "W": CellStyle("White king", "#8d6e63", "disc", "#fafafa", "K", "#b71c1c"),
    "b": CellStyle("Black man", "#8d6e63", "disc", "#212121"),
    "B": CellStyle("Black king", "#8d6e63", "disc", "#212121", "K", "#ffd54f"),
    "_": CellStyle("", "#8d6e63"),
    " ": CellStyle("", "#efebe9"),
}


def _rows(board: str, width: int) -> list[str]:
    return [board[i : i + width] for i in range(0, len(board), width)]


def _status(game: Game[Any], state: GameState) -> str:
    if game.is_terminal(state):
        returns = game.returns(state)
        best = max(returns)
        if best == min(returns):
            return "game over: draw"
        winner = returns.index(best)
        return f"game over: {game.player_label(winner)} wins"
    movers = ", ".join(game.player_label(p) for p in game.current_players(state))
    return f"{movers} to move"


@drawer("tictactoe")
def draw_tictactoe(game: Game[Any], state: GameState) -> list[Panel]:
    """3x3 board, rows and columns numbered as in the prompt ``(row,col)``."""
    board: str = state.board  # type: ignore[attr-defined]
    return [
        Grid(
            _rows(board, 3),
            TICTACTOE,
            row_labels=list("012"),
            col_labels=list("012"),
            caption=_status(game, state),
        )
    ]


@drawer("connect4")
def draw_connect4(game: Game[Any], state: GameState) -> list[Panel]:
    """6x7 board, the bottom row (row 0) drawn at the bottom."""
    board: str = state.board  # type: ignore[attr-defined]
    rows = _rows(board, 7)[::-1]
    return [
        Grid(
            rows,
            CONNECT4,
            row_labels=[str(r) for r in range(len(rows) - 1, -1, -1)],
            col_labels=list(_DIGITS[:7]),
            caption=_status(game, state),
        )
    ]


@drawer("othello")
def draw_othello(game: Game[Any], state: GameState) -> list[Panel]:
    """8x8 board, rows 1-8 and columns A-H, with the disc count."""
    board: str = state.board  # type: ignore[attr-defined]
    counts = f"Black {board.count('B')}, White {board.count('W')}"
    return [
        Grid(
            _rows(board, 8),
            OTHELLO,
            row_labels=[str(r) for r in range(1, 9)],
            col_labels=list("ABCDEFGH"),
            caption=f"{counts}; {_status(game, state)}",
        )
    ]


@drawer("checkers")
def draw_checkers(game: Game[Any], state: GameState) -> list[Panel]:
    """8x8 board, row 0 at the top; light squares are never played on."""
    board: str = state.board  # type: ignore[attr-defined]
    cells = "".join(" " if sum(divmod(i, 8)) % 2 == 0 else piece for i, piece in enumerate(board))
    white = sum(board.count(p) for p in "wW")
    black = sum(board.count(p) for p in "bB")
    panels: list[Panel] = [
        Grid(
            _rows(cells, 8),
            CHECKERS,
            row_labels=list(_DIGITS[:8]),
            col_labels=list(_DIGITS[:8]),
            caption=f"White {white}, Black {black}; {_status(game, state)}",
        )
    ]
    chain = getattr(state, "chain_from", None)
    if chain is not None:
        panels.append(Text(f"jump continues from square {divmod(chain, 8)}"))
    return panels
