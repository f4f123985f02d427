"""Toy Columns: a game from outside langgraph-games, added through the entry point.

Two players mark the empty cells of a 2x3 board in turn, X first; whoever holds both
cells of a column wins; a full board without one is a draw. Cells are ``(row,col)``.
Its folder declares the rest in ``parts.py``: a typed move, the action universe, an
exact search and a clickable grid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games.base import Event, Game
from langgraph_games.games.registry import register
from langgraph_games.games.state import GameState

__all__ = ["CELLS", "COLS", "ROWS", "ToyColumns", "ToyColumnsState"]

ROWS, COLS = 2, 3
MARKS = ("X", "O")
CELLS = tuple(f"({r},{c})" for r in range(ROWS) for c in range(COLS))


@dataclass(frozen=True, slots=True)
class ToyColumnsState(GameState):
    """The board (six characters, row by row: ``X``, ``O`` or ``_``) and who moves."""

    board: str
    to_move: int

    type_name: ClassVar[str] = "toy_columns"


def _winner(board: str) -> int | None:
    for col in range(COLS):
        top, bottom = board[col], board[COLS + col]
        if top != "_" and top == bottom:
            return MARKS.index(top)
    return None


@register
class ToyColumns(Game[ToyColumnsState]):
    """Toy Columns (see the module docstring)."""

    id = "toy_columns"
    name = "Toy Columns"
    description = "two players, a 2x3 board; hold a whole column to win"
    source = "a test plugin"
    player_names = MARKS
    State = ToyColumnsState

    def initial_state(self, seed: int = 0) -> ToyColumnsState:
        """An empty board, X to move."""
        return ToyColumnsState(seed=seed, turn=0, board="_" * len(CELLS), to_move=0)

    def current_players(self, state: ToyColumnsState) -> tuple[int, ...]:
        """Whoever moves, or nobody at the end."""
        return () if self.is_terminal(state) else (state.to_move,)

    def legal_actions(self, state: ToyColumnsState, player: int) -> tuple[str, ...]:
        """The empty cells, row by row."""
        if player != state.to_move or self.is_terminal(state):
            return ()
        return tuple(CELLS[i] for i, ch in enumerate(state.board) if ch == "_")

    def _apply(
        self, state: ToyColumnsState, actions: Mapping[int, str]
    ) -> tuple[ToyColumnsState, list[Event]]:
        player, action = next(iter(actions.items()))
        index = CELLS.index(action)
        board = state.board[:index] + MARKS[player] + state.board[index + 1 :]
        new = ToyColumnsState(seed=state.seed, turn=state.turn + 1, board=board, to_move=1 - player)
        return new, [{"type": "mark", "player": player, "cell": action}]

    def is_terminal(self, state: ToyColumnsState) -> bool:
        """A column is held or the board is full."""
        return _winner(state.board) is not None or "_" not in state.board

    def returns(self, state: ToyColumnsState) -> tuple[float, ...]:
        """+1 for the winner, -1 for the loser, 0 each otherwise."""
        winner = _winner(state.board)
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def observation(self, state: ToyColumnsState, player: int) -> str:
        """The board and the legal moves."""
        rows = [state.board[r * COLS : (r + 1) * COLS] for r in range(ROWS)]
        legal = ", ".join(self.legal_actions(state, player))
        return "\n".join(rows) + f"\nYou play {MARKS[player]}. Legal moves: {legal}"
