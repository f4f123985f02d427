"""Checkers rules as GAMEBoT states them (paper Appendix H.4): pure functions over a board.

The board is 64 characters, row 0 first, each row from column 0 to 7: ``w``/``W`` white
man/king, ``b``/``B`` black man/king, ``_`` empty. Pieces stand on the dark squares, those
with ``(row + col)`` odd. White (player 0) starts on rows 0-2, moves first and crowns on
row 7; Black (player 1) starts on rows 5-7 and crowns on row 0.

A move is one diagonal step, or one jump over an adjacent opposing piece onto the empty
square beyond it. Men step and jump forward only; kings both ways. Captures are forced.
A multi-jump is a sequence of single jumps by the same piece, each one a separate action
of the same player; it ends when that piece has no further jump or has just been crowned
(crowning ends the turn, as in American checkers and GAMEBoT's released engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, NamedTuple

from langgraph_games.games.state import GameState

__all__ = [
    "EMPTY",
    "CheckersState",
    "Move",
    "initial_board",
    "legal_moves",
    "move_name",
    "play",
    "square_name",
]

SIZE = 8
EMPTY = "_"
MEN = ("w", "b")
KINGS = ("W", "B")
FORWARD = (1, -1)  # row direction of each player's men
KING_ROW = (SIZE - 1, 0)
DRAW_PLIES_WITHOUT_CAPTURE = 40
REPETITIONS_FOR_DRAW = 3


class Move(NamedTuple):
    """One step or single jump: flat squares ``start`` -> ``end``; ``captured`` or -1."""

    start: int
    end: int
    captured: int


def square_name(index: int) -> str:
    """``(row,col)`` name of a flat index."""
    return f"({index // SIZE},{index % SIZE})"


def move_name(move: Move) -> str:
    """Canonical action string, e.g. ``(2,1)->(3,0)``."""
    return f"{square_name(move.start)}->{square_name(move.end)}"


def owner(piece: str) -> int | None:
    """0 for a white piece, 1 for a black piece, ``None`` for an empty square."""
    if piece in ("w", "W"):
        return 0
    if piece in ("b", "B"):
        return 1
    return None


def initial_board() -> str:
    """The starting position: 12 men each on the dark squares of their three rows."""
    cells = []
    for r in range(SIZE):
        for c in range(SIZE):
            dark = (r + c) % 2 == 1
            cells.append("w" if dark and r < 3 else "b" if dark and r >= 5 else EMPTY)
    return "".join(cells)


def _directions(piece: str) -> tuple[tuple[int, int], ...]:
    if piece in KINGS:
        return ((1, -1), (1, 1), (-1, -1), (-1, 1))
    forward = FORWARD[MEN.index(piece)]
    return ((forward, -1), (forward, 1))


def _piece_moves(board: str, index: int, jumps_only: bool) -> tuple[list[Move], list[Move]]:
    piece = board[index]
    me = owner(piece)
    r, c = divmod(index, SIZE)
    steps: list[Move] = []
    jumps: list[Move] = []
    for dr, dc in _directions(piece):
        r1, c1 = r + dr, c + dc
        if not (0 <= r1 < SIZE and 0 <= c1 < SIZE):
            continue
        middle = r1 * SIZE + c1
        target = board[middle]
        if target == EMPTY:
            if not jumps_only:
                steps.append(Move(index, middle, -1))
            continue
        if owner(target) == me:
            continue
        r2, c2 = r1 + dr, c1 + dc
        if 0 <= r2 < SIZE and 0 <= c2 < SIZE and board[r2 * SIZE + c2] == EMPTY:
            jumps.append(Move(index, r2 * SIZE + c2, middle))
    return steps, jumps


@lru_cache(maxsize=65536)
def legal_moves(board: str, player: int, chain_from: int | None) -> tuple[Move, ...]:
    """All legal single moves of ``player`` (cached: pure of its inputs).

    With ``chain_from`` set, only further jumps of that piece are legal. Otherwise jumps
    are forced when any exists.
    """
    if chain_from is not None:
        return tuple(_piece_moves(board, chain_from, jumps_only=True)[1])
    steps: list[Move] = []
    jumps: list[Move] = []
    for index, piece in enumerate(board):
        if owner(piece) == player:
            s, j = _piece_moves(board, index, jumps_only=False)
            steps.extend(s)
            jumps.extend(j)
    return tuple(jumps) if jumps else tuple(steps)


def play(board: str, player: int, move: Move) -> tuple[str, int, int | None, bool]:
    """Apply ``move``; return ``(board, next player, chain_from, crowned)``.

    The same player moves again (with ``chain_from`` set) while the jumping piece can
    jump on and was not just crowned.
    """
    cells = list(board)
    piece = cells[move.start]
    cells[move.start] = EMPTY
    if move.captured >= 0:
        cells[move.captured] = EMPTY
    crowned = piece in MEN and move.end // SIZE == KING_ROW[player]
    cells[move.end] = KINGS[player] if crowned else piece
    new_board = "".join(cells)
    if move.captured >= 0 and not crowned and _piece_moves(new_board, move.end, True)[1]:
        return new_board, player, move.end, crowned
    return new_board, 1 - player, None, crowned


@dataclass(frozen=True, slots=True)
class CheckersState(GameState):
    """A Checkers position.

    Attributes:
        board: 64 characters, row 0 first (see the module docstring).
        to_move: 0 (White) or 1 (Black).
        chain_from: The square of a piece in the middle of a multi-jump, or ``None``.
        quiet_plies: Moves played since the last capture (40 draws the game).
        seen: Earlier positions (board + player to move) since the last capture or man
            move, for threefold repetition.
    """

    board: str
    to_move: int
    chain_from: int | None
    quiet_plies: int
    seen: tuple[str, ...]

    type_name: ClassVar[str] = "checkers"

    def validate(self) -> tuple[str, str] | None:
        """Check the board's size, symbols and squares, and the counters."""
        if len(self.board) != SIZE * SIZE or set(self.board) - {EMPTY, *MEN, *KINGS}:
            return ("board", "must be 64 characters of 'w', 'W', 'b', 'B' or '_'")
        for index, piece in enumerate(self.board):
            if piece != EMPTY and sum(divmod(index, SIZE)) % 2 == 0:
                return ("board", f"has a piece on light square {square_name(index)}")
        if self.to_move not in (0, 1):
            return ("to_move", "must be 0 (White) or 1 (Black)")
        if self.chain_from is not None and owner(self.board[self.chain_from]) != self.to_move:
            return ("chain_from", "must be a square holding a piece of the player to move")
        if self.quiet_plies < 0:
            return ("quiet_plies", "must be >= 0")
        return GameState.validate(self)

    @property
    def position_key(self) -> str:
        """Board plus player to move: what threefold repetition compares."""
        return f"{self.board}{self.to_move}"
