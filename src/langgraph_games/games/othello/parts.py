"""Othello's parts: typed moves, action universe and search to depth 3 with its heuristic."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, fixed
from langgraph_games.games.othello.rules import COLORS, EMPTY, SQUARES, OthelloState, legal_moves
from langgraph_games.games.parts import GameParts, Search, fixed_actions, own_state
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "OthelloArgs", "othello_eval"]


class OthelloArgs(MoveArgs):
    """An Othello move: the square to place a disc on."""

    column: Literal["A", "B", "C", "D", "E", "F", "G", "H"] = Field(
        description="Column letter A-H, left to right."
    )
    row: int = coordinate(1, 8, "Row number 1-8, top to bottom.")

    @field_validator("column", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value


def _othello(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['column']},{args['row']})"


# Classic positional weights, row by row: corners are gold, the squares next to them poison.
_WEIGHTS = (
    *(100, -20, 10, 5, 5, 10, -20, 100),
    *(-20, -50, -2, -2, -2, -2, -50, -20),
    *(10, -2, 1, 1, 1, 1, -2, 10),
    *(5, -2, 1, 0, 0, 1, -2, 5),
    *(5, -2, 1, 0, 0, 1, -2, 5),
    *(10, -2, 1, 1, 1, 1, -2, 10),
    *(-20, -50, -2, -2, -2, -2, -50, -20),
    *(100, -20, 10, 5, 5, 10, -20, 100),
)


def othello_eval(game: Game[GameState], state: GameState, player: int) -> float:
    """Positional weights plus mobility, with disc count weighing in near the end."""
    board = own_state(state, OthelloState, "othello_eval").board
    mine, theirs = COLORS[player], COLORS[1 - player]
    positional = sum(
        w if ch == mine else -w if ch == theirs else 0
        for w, ch in zip(_WEIGHTS, board, strict=True)
    )
    mobility = len(legal_moves(board, player)) - len(legal_moves(board, 1 - player))
    empties = board.count(EMPTY)
    discs = board.count(mine) - board.count(theirs)
    return positional + 5.0 * mobility + (discs * 2.0 if empties < 12 else 0.0)


PARTS = {
    "othello": GameParts(
        move_schema=fixed(
            MoveSchema(
                OthelloArgs,
                _othello,
                "Place a disc on a square: column A-H (left to right) and row 1-8 (top to "
                "bottom). The legal move (C,5) is column='C', row=5.",
            )
        ),
        actions=fixed_actions(SQUARES),
        search=Search(3, othello_eval),
    )
}
