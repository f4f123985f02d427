"""Connect Four as GAMEBoT states it (paper Appendix H.6).

Rules: a 6x7 grid, X (player 0) drops first, a disc falls to the lowest empty cell of its
column, four in a row (horizontal, vertical or diagonal) wins, a full grid is a draw.
Coordinates are ``(row,col)`` with **row 0 at the bottom** and row 5 at the top; a move
names the cell where the disc lands, so the legal moves are each open column's lowest
empty cell.

Text view (GAMEBoT's state prompt; the top row first)::

    Current Game Board:
    (5,0):_ (5,1):_ ... (5,6):_
    ...
    (0,0):_ (0,1):_ ... (0,6):_
    You are playing pieces X, choose a best move from valid moves: ['(0,0)', ...]

Subproblems (Appendix B): 1. my winning moves; 2. my opponent's winning moves, both
among the cells where a disc can be dropped now.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games._grid import cell_name, labelled_rows, lines_through
from langgraph_games.games._marks import (
    EMPTY,
    MARKS,
    MarkBoardState,
    MarkLineGame,
    winning_move_subproblems,
)
from langgraph_games.games.base import Event
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer

__all__ = ["Connect4", "Connect4State"]

ROWS, COLS = 6, 7
LINES = lines_through(ROWS, COLS, 4)
CELLS = tuple(cell_name(r, c) for r in range(ROWS) for c in range(COLS))
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
_COORD = re.compile(r"\(\s*(\d)\s*,\s*(\d)\s*\)")
_LONE_COLUMN = re.compile(r"(?<![\d.])([0-6])(?![\d.])")
_COLUMNS = regex_mentions(
    [(_COORD, lambda m: m[2]), (_LONE_COLUMN, lambda m: m[1])], starts=r"[(0-6]"
)


@dataclass(frozen=True, slots=True)
class Connect4State(MarkBoardState):
    """A Connect Four position.

    Attributes:
        board: 42 characters, row 0 (bottom) first, each row left to right.
        to_move: 0 (X) or 1 (O).
        winner: The player with four in a row, or ``None``.
    """

    type_name: ClassVar[str] = "connect4"

    def validate(self) -> tuple[str, str] | None:
        """Check the board's size and symbols, gravity and turn order."""
        if len(self.board) != ROWS * COLS or set(self.board) - {EMPTY, *MARKS}:
            return ("board", "must be 42 characters of 'X', 'O' or '_'")
        for c in range(COLS):
            column = [self.board[r * COLS + c] for r in range(ROWS)]
            if EMPTY in column and any(ch != EMPTY for ch in column[column.index(EMPTY) :]):
                return ("board", f"column {c} has a disc above an empty cell")
        return self.check_turn_and_winner("discs", LINES)


def _landing(board: str, col: int) -> int | None:
    for r in range(ROWS):
        index = r * COLS + col
        if board[index] == EMPTY:
            return index
    return None


@register
class Connect4(MarkLineGame[Connect4State]):
    """Connect Four, GAMEBoT rules and coordinates."""

    id = "connect4"
    name = "Connect Four"
    description = "6x7 grid, discs fall to the lowest empty cell; four in a row wins."
    source = "GAMEBoT"
    State = Connect4State
    lines = LINES
    cell_index = CELL_INDEX
    subproblems = winning_move_subproblems("playable cells", "four in a row")

    def initial_state(self, seed: int = 0) -> Connect4State:
        """Return the empty grid with X to move."""
        return Connect4State(seed=seed, turn=0, board=EMPTY * (ROWS * COLS), to_move=0, winner=None)

    def playable_cells(self, state: Connect4State) -> tuple[int, ...]:
        """Flat indices of the lowest empty cell of every open column, by column."""
        cells = (_landing(state.board, c) for c in range(COLS))
        return tuple(i for i in cells if i is not None)

    def legal_actions(self, state: Connect4State, player: int) -> tuple[str, ...]:
        """The landing cell of every open column, as ``(row,col)``, sorted."""
        if player != state.to_move or self.is_terminal(state):
            return ()
        return tuple(sorted(CELLS[i] for i in self.playable_cells(state)))

    def is_legal(self, state: Connect4State, player: int, action: str) -> bool:
        """The cell exists, is empty, and is the lowest empty cell of its column."""
        index = CELL_INDEX.get(action)
        if index is None or player != state.to_move or state.winner is not None:
            return False
        return _landing(state.board, index % COLS) == index

    def _placed(self, player: int, action: str, index: int) -> Event:
        return {"type": "drop", "player": player, "cell": action, "column": index % COLS}

    def drop_cell(self, state: Connect4State, column: int) -> str | None:
        """The cell a disc dropped into ``column`` lands on, or ``None`` if it is full."""
        if not 0 <= column < COLS:
            return None
        index = _landing(state.board, column)
        return None if index is None else CELLS[index]

    def action_mentions(self, state: Connect4State, player: int, text: str) -> list[Mention]:
        """Columns named by ``(row,col)`` (the column decides, as in GAMEBoT) or a lone digit.

        Each names the landing cell of its column, or ``column N`` when the column is full.
        """
        found = []
        for mention in _COLUMNS(text):
            column = int(mention.action)  # one digit
            cell = self.drop_cell(state, column)
            found.append(mention._replace(action=cell or f"column {column}"))
        return found

    def observation(self, state: Connect4State, player: int) -> str:
        """GAMEBoT's state text for ``player`` (top row first)."""
        legal = list(self.legal_actions(state, player))
        return (
            "Current Game Board:\n"
            + "\n".join(labelled_rows(state.board, CELLS, COLS, bottom_up=True))
            + f"\nYou are playing pieces {MARKS[player]}, choose a best move from valid moves: "
            + str(legal)
        )

    def render(self, state: Connect4State) -> str:
        """The grid as it stands (top row first), with row and column numbers."""
        lines = []
        for r in reversed(range(ROWS)):
            row = state.board[r * COLS : (r + 1) * COLS].replace(EMPTY, ".")
            lines.append(f"{r}  " + " ".join(row))
        lines.append("   " + " ".join(str(c) for c in range(COLS)))
        return "\n".join(lines)

    def ground_truth(self, state: Connect4State, player: int) -> dict[int, Answer]:
        """Playable cells that win now for ``player`` (1) and for the opponent (2)."""
        return self.winning_cells(state, player, self.playable_cells(state), CELLS)
