"""Othello rules as GAMEBoT states them (paper Appendix H.1): pure functions over a board.

The board is 64 characters, row 1 first, each row from column A to H: ``B`` black,
``W`` white, ``O`` empty (the letter GAMEBoT's views use). Black (player 0) moves first
from B at (D,4) and (E,5), W at (D,5) and (E,4). A move must outflank at least one
opposing disc; every outflanked line flips. A player without a legal move passes
(automatically: the other player moves again), and the game ends when neither can move.
The player with more discs wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from langgraph_games.games.state import GameState

__all__ = [
    "COLORS",
    "CORNERS",
    "EMPTY",
    "OthelloState",
    "index_of",
    "initial_board",
    "legal_moves",
    "place",
    "square_name",
]

SIZE = 8
EMPTY = "O"
COLORS = ("B", "W")
COLUMNS = "ABCDEFGH"
_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def square_name(index: int) -> str:
    """``(A,1)``-style name of a flat index (row-major from (A,1))."""
    return f"({COLUMNS[index % SIZE]},{index // SIZE + 1})"


def index_of(column: str, row: int) -> int:
    """Flat index of a column letter and a 1-based row."""
    return (row - 1) * SIZE + COLUMNS.index(column.upper())


SQUARES = tuple(square_name(i) for i in range(SIZE * SIZE))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}
CORNERS = frozenset({0, 7, 56, 63})


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for index in range(SIZE * SIZE):
        r, c = divmod(index, SIZE)
        lines = []
        for dr, dc in _DIRECTIONS:
            line = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < SIZE and 0 <= cc < SIZE:
                line.append(rr * SIZE + cc)
                rr += dr
                cc += dc
            if len(line) >= 2:
                lines.append(tuple(line))
        rays.append(tuple(lines))
    return tuple(rays)


RAYS = _rays()


def initial_board() -> str:
    """The starting position."""
    board = [EMPTY] * (SIZE * SIZE)
    board[index_of("D", 4)] = board[index_of("E", 5)] = "B"
    board[index_of("D", 5)] = board[index_of("E", 4)] = "W"
    return "".join(board)


def _flips(board: str, index: int, me: str, them: str) -> tuple[int, ...]:
    flipped: list[int] = []
    for ray in RAYS[index]:
        run: list[int] = []
        for j in ray:
            ch = board[j]
            if ch == them:
                run.append(j)
                continue
            if ch == me and run:
                flipped.extend(run)
            break
    return tuple(flipped)


@lru_cache(maxsize=65536)
def legal_moves(board: str, player: int) -> dict[int, tuple[int, ...]]:
    """Map each legal square of ``player`` to the discs it flips (cached: pure of its inputs)."""
    me, them = COLORS[player], COLORS[1 - player]
    moves: dict[int, tuple[int, ...]] = {}
    for index, ch in enumerate(board):
        if ch == EMPTY:
            flips = _flips(board, index, me, them)
            if flips:
                moves[index] = flips
    return moves


def place(board: str, player: int, index: int) -> tuple[str, tuple[int, ...]]:
    """Play ``index`` for ``player``; return the new board and the flipped squares."""
    flips = legal_moves(board, player)[index]
    cells = list(board)
    mark = COLORS[player]
    cells[index] = mark
    for j in flips:
        cells[j] = mark
    return "".join(cells), flips


@dataclass(frozen=True, slots=True)
class OthelloState(GameState):
    """An Othello position.

    Attributes:
        board: 64 characters, row 1 first: ``B``, ``W`` or ``O`` (empty).
        to_move: 0 (Black) or 1 (White). In a finished game neither can move.
    """

    board: str
    to_move: int

    type_name: ClassVar[str] = "othello"

    def validate(self) -> tuple[str, str] | None:
        """Check the board's size and symbols and the player to move."""
        if len(self.board) != SIZE * SIZE or set(self.board) - {EMPTY, *COLORS}:
            return ("board", "must be 64 characters of 'B', 'W' or 'O'")
        if self.to_move not in (0, 1):
            return ("to_move", "must be 0 (Black) or 1 (White)")
        return GameState.validate(self)
