"""Toy Columns' parts: what the tools, the RL adapters, minimax and the serve page read."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, fixed
from langgraph_games.games.parts import BoardGrid, GameParts, Search, fixed_actions
from langgraph_games.games.state import GameState
from toy_columns import CELLS, COLS, ROWS


class ToyCellArgs(MoveArgs):
    """A Toy Columns move: the cell to mark."""

    row: int = coordinate(0, ROWS - 1, "Row 0-1, top to bottom.")
    col: int = coordinate(0, COLS - 1, "Column 0-2, left to right.")


def _cell(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['row']},{args['col']})"


PARTS = {
    "toy_columns": GameParts(
        move_schema=fixed(MoveSchema(ToyCellArgs, _cell, "Mark an empty cell: row and col.")),
        actions=fixed_actions(CELLS),
        search=Search(None),
        grid=BoardGrid(ROWS, COLS),
    )
}
