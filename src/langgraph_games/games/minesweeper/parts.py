"""Minesweeper's parts: a typed move (reveal or flag a cell) and its action universe."""

from __future__ import annotations

from typing import Any, cast

from pydantic import Field, create_model

from langgraph_games.games.base import Game
from langgraph_games.games.minesweeper import INVALID_TOKENS, MinesweeperOptions
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, enum_of
from langgraph_games.games.parts import GameParts
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "minesweeper_actions", "minesweeper_schema"]


def minesweeper_schema(game: Game[GameState], state: GameState | None) -> MoveSchema:
    """The move schema of a configured Minesweeper (its board size shapes it)."""
    options = cast(MinesweeperOptions, game.options)
    rows, cols = options.rows, options.cols
    model = create_model(
        "MinesweeperArgs",
        __base__=MoveArgs,
        __doc__="A Minesweeper move: reveal or flag a cell.",
        action=(
            enum_of(("reveal", "flag")),
            Field(description="'reveal' the cell, or 'flag' it (a flagged cell: unflag)."),
        ),
        row=(int, coordinate(0, rows - 1, f"Row 0-{rows - 1}, top to bottom.")),
        col=(int, coordinate(0, cols - 1, f"Column 0-{cols - 1}, left to right.")),
    )
    return MoveSchema(
        model,
        _action,
        f"Act on a cell of the {rows}x{cols} board: action 'reveal' or 'flag' (flagging a "
        f"flagged cell removes the flag), row 0-{rows - 1} and col 0-{cols - 1}. The legal "
        "move 'r,2,3' is action='reveal', row=2, col=3; 'f,2,3' flags it.",
    )


def _action(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"{'r' if args['action'] == 'reveal' else 'f'},{args['row']},{args['col']}"


def minesweeper_actions(game: Game[GameState]) -> list[str]:
    """``r``/``f`` triples on every cell, and the ``invalid:*`` answers in step mode."""
    options = cast(MinesweeperOptions, game.options)
    names = [
        f"{letter},{row},{col}"
        for letter in "rf"
        for row in range(options.rows)
        for col in range(options.cols)
    ]
    if options.invalid_moves == "step":
        names.extend(INVALID_TOKENS)
    return names


PARTS = {"minesweeper": GameParts(move_schema=minesweeper_schema, actions=minesweeper_actions)}
