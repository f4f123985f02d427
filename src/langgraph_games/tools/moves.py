"""Typed move arguments per game: the JSON schema a model fills in to make a move.

A :class:`MoveSchema` pairs a pydantic argument model with a function turning filled-in
arguments into the game's canonical action text. Games with a natural grammar get typed
arguments (TicTacToe ``row, col``; Connect4 ``column``); every other game gets a generic
``action: str`` that accepts a canonical action or anything the game's own parser reads.
Add an entry to :data:`MOVE_SCHEMAS` to give another game typed moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = ["MOVE_SCHEMAS", "ActionArgs", "MoveSchema", "move_schema"]


class ActionArgs(BaseModel):
    """A move given as text."""

    action: str = Field(
        description="The move, written exactly as one of the legal moves (see legal_moves)."
    )


class CellArgs(BaseModel):
    """A move that names a cell of the board."""

    row: int = Field(description="Row index, starting at 0.")
    col: int = Field(description="Column index, starting at 0.")


class ColumnArgs(BaseModel):
    """A move that names a column to drop a disc into."""

    column: int = Field(description="Column index, 0 (left) to 6 (right).")


@dataclass(frozen=True)
class MoveSchema:
    """How a model writes a move for one game.

    Attributes:
        args_schema: The pydantic model of the tool's arguments.
        to_action: ``(game, state, player, args) -> action text`` (the text may be
            illegal; the caller checks it and explains).
        description: What the move tool does, for the model.
    """

    args_schema: type[BaseModel]
    to_action: Callable[[Game[Any], GameState, int, dict[str, Any]], str]
    description: str


def _generic(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    text = str(args["action"]).strip()
    if game.is_legal(state, player, text):
        return text
    parsed = game.parse_action(state, player, text)
    return parsed if parsed is not None else text


def _cell(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['row']},{args['col']})"


def _column(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    cell = game.drop_cell(state, int(args["column"]))  # type: ignore[attr-defined]
    return cell if cell is not None else f"column {args['column']}"


GENERIC = MoveSchema(
    ActionArgs,
    _generic,
    "Make your move. Give one of the legal moves exactly as listed by legal_moves.",
)

MOVE_SCHEMAS: dict[str, MoveSchema] = {
    "tictactoe": MoveSchema(
        CellArgs,
        _cell,
        "Place your mark on an empty cell, given by row (0-2, top to bottom) and column "
        "(0-2, left to right).",
    ),
    "connect4": MoveSchema(
        ColumnArgs,
        _column,
        "Drop your disc into a column (0-6, left to right); it falls to the lowest empty "
        "cell of that column.",
    ),
}
"""Typed move schemas by game id; games not listed use the generic ``action: str``."""


def move_schema(game: Game[Any], typed: bool = True) -> MoveSchema:
    """The move schema for ``game``: its typed one if ``typed`` and one exists, else generic."""
    if typed and game.id in MOVE_SCHEMAS:
        return MOVE_SCHEMAS[game.id]
    return GENERIC
