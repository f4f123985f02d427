"""TicTacToe's parts: typed moves, action universe, exact search, a clickable 3x3 grid."""

from __future__ import annotations

from typing import Any

from langgraph_games.games._grid import line_score, windows
from langgraph_games.games._marks import MARKS
from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, fixed
from langgraph_games.games.parts import BoardGrid, GameParts, Search, fixed_actions, own_state
from langgraph_games.games.state import GameState
from langgraph_games.games.tictactoe import CELLS, SIZE, TicTacToeState

__all__ = ["PARTS", "CellArgs", "tictactoe_eval"]


class CellArgs(MoveArgs):
    """A TicTacToe move: the cell to mark."""

    row: int = coordinate(0, 2, "Row 0-2, top to bottom.")
    col: int = coordinate(0, 2, "Column 0-2, left to right.")


def _cell(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['row']},{args['col']})"


def tictactoe_eval(game: Game[GameState], state: GameState, player: int) -> float:
    """Open lines weighted by how full they are (rarely used: TicTacToe is searched fully)."""
    board = own_state(state, TicTacToeState, "tictactoe_eval").board
    return line_score(board, MARKS, player, windows(SIZE, SIZE, SIZE))


PARTS = {
    "tictactoe": GameParts(
        move_schema=fixed(
            MoveSchema(
                CellArgs,
                _cell,
                "Place your mark on an empty cell, given by row (0-2, top to bottom) and col "
                "(0-2, left to right): the legal move (1,2) is row=1, col=2.",
            )
        ),
        actions=fixed_actions(CELLS),
        search=Search(None, tictactoe_eval),
        grid=BoardGrid(SIZE, SIZE),
    )
}
