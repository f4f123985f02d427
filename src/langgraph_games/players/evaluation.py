"""Static evaluations for depth-limited search, one per board game.

Each function scores a non-terminal state from ``player``'s point of view; larger is
better. Scores stay well inside (-WIN, WIN) so a proven win always outranks them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from langgraph_games.games._grid import lines_through
from langgraph_games.games.checkers.rules import KINGS, MEN
from langgraph_games.games.checkers.rules import SIZE as CHECKERS_SIZE
from langgraph_games.games.othello.rules import COLORS, legal_moves
from langgraph_games.games.state import GameState

__all__ = ["EVALUATORS", "WIN", "Evaluator"]

WIN = 1_000_000.0
Evaluator = Callable[[Any, GameState, int], float]


@cache
def _windows(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    found = set()
    for cell, lines in enumerate(lines_through(rows, cols, k)):
        for others in lines:
            found.add(tuple(sorted((cell, *others))))
    return tuple(sorted(found))


_WINDOW_VALUE = (0.0, 1.0, 5.0, 25.0)


def _k_in_a_row(
    board: str, marks: tuple[str, str], player: int, windows: tuple[tuple[int, ...], ...]
) -> float:
    mine, theirs = marks[player], marks[1 - player]
    score = 0.0
    for window in windows:
        m = t = 0
        for i in window:
            ch = board[i]
            if ch == mine:
                m += 1
            elif ch == theirs:
                t += 1
        if m and not t:
            score += _WINDOW_VALUE[m] if m < len(_WINDOW_VALUE) else 0.0
        elif t and not m:
            score -= _WINDOW_VALUE[t] if t < len(_WINDOW_VALUE) else 0.0
    return score


def tictactoe_eval(game: Any, state: Any, player: int) -> float:
    """Open lines weighted by how full they are (rarely used: TicTacToe is searched fully)."""
    return _k_in_a_row(state.board, ("X", "O"), player, _windows(3, 3, 3))


def connect4_eval(game: Any, state: Any, player: int) -> float:
    """Open windows of four weighted by how many discs they hold, plus centre control."""
    board = state.board
    score = _k_in_a_row(board, ("X", "O"), player, _windows(6, 7, 4))
    mine, theirs = ("X", "O")[player], ("X", "O")[1 - player]
    centre = [board[r * 7 + 3] for r in range(6)]
    return score + 3.0 * (centre.count(mine) - centre.count(theirs))


# Classic positional weights: corners are gold, the squares next to them are poison.
_OTHELLO_WEIGHTS = (
    100,
    -20,
    10,
    5,
    5,
    10,
    -20,
    100,
    -20,
    -50,
    -2,
    -2,
    -2,
    -2,
    -50,
    -20,
    10,
    -2,
    1,
    1,
    1,
    1,
    -2,
    10,
    5,
    -2,
    1,
    0,
    0,
    1,
    -2,
    5,
    5,
    -2,
    1,
    0,
    0,
    1,
    -2,
    5,
    10,
    -2,
    1,
    1,
    1,
    1,
    -2,
    10,
    -20,
    -50,
    -2,
    -2,
    -2,
    -2,
    -50,
    -20,
    100,
    -20,
    10,
    5,
    5,
    10,
    -20,
    100,
)


def othello_eval(game: Any, state: Any, player: int) -> float:
    """Positional weights plus mobility, with disc count weighing in near the end."""
    board = state.board
    mine, theirs = COLORS[player], COLORS[1 - player]
    positional = sum(
        w if ch == mine else -w if ch == theirs else 0
        for w, ch in zip(_OTHELLO_WEIGHTS, board, strict=True)
    )
    mobility = len(legal_moves(board, player)) - len(legal_moves(board, 1 - player))
    empties = board.count("O")
    discs = board.count(mine) - board.count(theirs)
    return positional + 5.0 * mobility + (discs * 2.0 if empties < 12 else 0.0)


def checkers_eval(game: Any, state: Any, player: int) -> float:
    """Material (kings worth 1.6 men), advancement of men, and a guarded back row."""
    score = 0.0
    for index, piece in enumerate(state.board):
        if piece in MEN:
            owner = MEN.index(piece)
            row = index // CHECKERS_SIZE
            advance = row if owner == 0 else CHECKERS_SIZE - 1 - row
            value = 100.0 + 2.0 * advance + (4.0 if advance == 0 else 0.0)
        elif piece in KINGS:
            owner = KINGS.index(piece)
            value = 160.0
        else:
            continue
        score += value if owner == player else -value
    return score


EVALUATORS: dict[str, Evaluator] = {
    "tictactoe": tictactoe_eval,
    "connect4": connect4_eval,
    "othello": othello_eval,
    "checkers": checkers_eval,
}
