"""Connect4's parts: typed moves, action universe, search to depth 4, a clickable grid."""

from __future__ import annotations

from typing import Any

from langgraph_games.games._grid import line_score, windows
from langgraph_games.games._marks import MARKS
from langgraph_games.games.base import Game
from langgraph_games.games.connect4 import CELLS, COLS, ROWS, Connect4State
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, fixed
from langgraph_games.games.parts import BoardGrid, GameParts, Search, fixed_actions, own_state
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "ColumnArgs", "connect4_eval"]


class ColumnArgs(MoveArgs):
    """A Connect4 move: the column to drop a disc into."""

    column: int = coordinate(0, 6, "Column index, 0 (left) to 6 (right).")


def _column(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    cell = game.drop_cell(state, int(args["column"]))  # type: ignore[attr-defined]
    return cell if cell is not None else f"column {args['column']}"


def connect4_eval(game: Game[GameState], state: GameState, player: int) -> float:
    """Open windows of four weighted by how many discs they hold, plus centre control."""
    board = own_state(state, Connect4State, "connect4_eval").board
    score = line_score(board, MARKS, player, windows(ROWS, COLS, 4))
    mine, theirs = MARKS[player], MARKS[1 - player]
    centre = [board[r * COLS + COLS // 2] for r in range(ROWS)]
    return score + 3.0 * (centre.count(mine) - centre.count(theirs))


PARTS = {
    "connect4": GameParts(
        move_schema=fixed(
            MoveSchema(
                ColumnArgs,
                _column,
                "Drop your disc into a column (0-6, left to right); it falls to the lowest "
                "empty cell of that column. The legal move (5,3) is column=3.",
            )
        ),
        actions=fixed_actions(CELLS),
        search=Search(4, connect4_eval),
        grid=BoardGrid(ROWS, COLS, bottom_up=True),
    )
}
