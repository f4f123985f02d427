"""TicTacToe as GAMEBoT states it (paper Appendix H.5).

Rules: a 3x3 grid, X (player 0) moves first, three in a row wins, a full board without a
line is a draw. Cells are ``(row,col)`` with zero-based indices, row 0 on top.

Text view (GAMEBoT's state prompt)::

    Current Game Board:
    (0,0):_ (0,1):_ (0,2):_
    (1,0):_ (1,1):X (1,2):_
    (2,0):_ (2,1):_ (2,2):O
    You are playing pieces X, choose a best move from legal moves: ['(0,0)', ...]

Subproblems (Appendix B): 1. the empty cells where I complete three in a row now;
2. the empty cells where my opponent would.
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
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer

__all__ = ["TicTacToe", "TicTacToeState"]

SIZE = 3
LINES = lines_through(SIZE, SIZE, SIZE)
CELLS = tuple(cell_name(r, c) for r in range(SIZE) for c in range(SIZE))
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
_COORD = re.compile(r"\(\s*(\d)\s*,\s*(\d)\s*\)")
_MENTIONS = regex_mentions([(_COORD, lambda m: cell_name(int(m[1]), int(m[2])))], starts=r"\(")


@dataclass(frozen=True, slots=True)
class TicTacToeState(MarkBoardState):
    """A TicTacToe position.

    Attributes:
        board: Nine characters, row by row: ``X``, ``O`` or ``_``.
        to_move: 0 (X) or 1 (O).
        winner: The player with three in a row, or ``None``.
    """

    type_name: ClassVar[str] = "tictactoe"

    def validate(self) -> tuple[str, str] | None:
        """Check the board's size, symbols and turn order."""
        if len(self.board) != SIZE * SIZE or set(self.board) - {EMPTY, *MARKS}:
            return ("board", "must be 9 characters of 'X', 'O' or '_'")
        return self.check_turn_and_winner("marks", LINES)


@register
class TicTacToe(MarkLineGame[TicTacToeState]):
    """TicTacToe, GAMEBoT rules."""

    id = "tictactoe"
    name = "TicTacToe"
    description = "3x3 noughts and crosses; X moves first; three in a row wins."
    source = "GAMEBoT"
    State = TicTacToeState
    lines = LINES
    cell_index = CELL_INDEX
    subproblems = winning_move_subproblems("empty cells", "three in a row")

    def initial_state(self, seed: int = 0) -> TicTacToeState:
        """Return the empty board with X to move."""
        return TicTacToeState(seed=seed, turn=0, board=EMPTY * 9, to_move=0, winner=None)

    def legal_actions(self, state: TicTacToeState, player: int) -> tuple[str, ...]:
        """Empty cells as ``(row,col)``, in row-major order."""
        if player != state.to_move or self.is_terminal(state):
            return ()
        return tuple(CELLS[i] for i, ch in enumerate(state.board) if ch == EMPTY)

    def is_legal(self, state: TicTacToeState, player: int, action: str) -> bool:
        """Constant-time check: the cell exists and is empty."""
        index = CELL_INDEX.get(action)
        return (
            index is not None
            and player == state.to_move
            and state.winner is None
            and state.board[index] == EMPTY
        )

    def action_mentions(self, state: TicTacToeState, player: int, text: str) -> list[Mention]:
        """Cells written ``(r,c)`` with any spacing (legal or not)."""
        return _MENTIONS(text)

    def observation(self, state: TicTacToeState, player: int) -> str:
        """GAMEBoT's state text for ``player``."""
        rows = labelled_rows(state.board, CELLS, SIZE)
        legal = [a for a in self.legal_actions(state, player)]
        return (
            "Current Game Board:\n"
            + "\n".join(rows)
            + f"\nYou are playing pieces {MARKS[player]}, choose a best move from legal moves: "
            + str(legal)
        )

    def render(self, state: TicTacToeState) -> str:
        """A small grid with row and column numbers."""
        lines = ["   0 1 2"]
        for r in range(SIZE):
            cells = " ".join(ch if ch != EMPTY else "." for ch in state.board[r * 3 : r * 3 + 3])
            lines.append(f"{r}  {cells}")
        return "\n".join(lines)

    def ground_truth(self, state: TicTacToeState, player: int) -> dict[int, Answer]:
        """Winning cells for ``player`` (1) and for the opponent (2)."""
        empty = (i for i, ch in enumerate(state.board) if ch == EMPTY)
        return self.winning_cells(state, player, empty, CELLS)
