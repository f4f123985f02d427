"""Typed move arguments of the one-player games: EvoEmpirBench, Minesweeper, SmartPlay, Crafter.

See :mod:`langgraph_games.tools.moves`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

from pydantic import Field, create_model

from langgraph_games.games.base import Game
from langgraph_games.games.crafter.data import ACTION_NAMES as CRAFTER_ACTIONS
from langgraph_games.games.match2 import Match2Options
from langgraph_games.games.match2.rules import PROPS, SIZE
from langgraph_games.games.maze.rules import DIRECTIONS
from langgraph_games.games.minesweeper import MinesweeperOptions
from langgraph_games.games.state import GameState
from langgraph_games.tools.move_schema import (
    MoveArgs,
    MoveArgumentsError,
    MoveSchema,
    SchemaBuilder,
    action_name,
    coordinate,
    enum_of,
    fixed,
)

__all__ = ["SOLO_SCHEMAS"]

_MAZE_DIRECTIONS = tuple(name.lower() for name, _, _ in DIRECTIONS)


class MazeArgs(MoveArgs):
    """A maze move: a direction and how far."""

    direction: Literal["up", "down", "left", "right"] = Field(
        description="'up', 'down', 'left' or 'right'."
    )
    steps: int = Field(1, ge=1, le=3, description="Cells to move, 1-3 (default 1).")


def _maze(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return str(_MAZE_DIRECTIONS.index(args["direction"]) * 3 + args["steps"] - 1)


# ----- puzzles ----------------------------------------------------------------------------


def _match2(game: Game[Any], state: GameState | None) -> MoveSchema:
    with_props = cast(Match2Options, game.options).props
    kinds = ("eliminate", *PROPS) if with_props else ("eliminate",)
    last = SIZE - 1
    model = create_model(
        "Match2Args",
        __base__=MoveArgs,
        __doc__="A Match-2 move: an elimination or a prop, at a cell, row or column.",
        action=(
            enum_of(kinds),
            Field("eliminate", description="What to do: " + ", ".join(kinds) + "."),
        ),
        row=(int | None, coordinate(0, last, f"Row 0-{last}, top to bottom.", None)),
        col=(int | None, coordinate(0, last, f"Column 0-{last}, left to right.", None)),
    )
    props = (
        " Props: 'row' with row clears that row, 'col' with col that column, 'bomb' or "
        "'hammer' with row and col act around or on that cell; each costs points."
        if with_props
        else " Props are off in this variant."
    )
    return MoveSchema(
        model,
        _match2_action,
        f"Act on the {SIZE}x{SIZE} board (rows and columns 0-{SIZE - 1}): action "
        "'eliminate' with row and col clears the group of two or more same-colour tiles at "
        f"that cell.{props} The legal move 'eliminate,2,3' is action='eliminate', row=2, "
        "col=3; 'row,4' is action='row', row=4.",
    )


def _match2_action(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    kind, row, col = args["action"], args["row"], args["col"]
    needs = {"row": ("row",), "col": ("col",)}.get(kind, ("row", "col"))
    missing = [name for name in needs if args[name] is None]
    extra = [name for name in ("row", "col") if name not in needs and args[name] is not None]
    if missing or extra:
        raise MoveArgumentsError(
            f"{kind} takes {' and '.join(needs)}"
            + (f"; {' and '.join(missing)} missing" if missing else "")
            + (f"; {' and '.join(extra)} not used" if extra else "")
        )
    if kind == "row":
        return f"row,{row}"
    if kind == "col":
        return f"col,{col}"
    return f"{kind},{row},{col}"


def _minesweeper(game: Game[Any], state: GameState | None) -> MoveSchema:
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
        _minesweeper_action,
        f"Act on a cell of the {rows}x{cols} board: action 'reveal' or 'flag' (flagging a "
        f"flagged cell removes the flag), row 0-{rows - 1} and col 0-{cols - 1}. The legal "
        "move 'r,2,3' is action='reveal', row=2, col=3; 'f,2,3' flags it.",
    )


def _minesweeper_action(
    game: Game[Any], state: GameState, player: int, args: dict[str, Any]
) -> str:
    return f"{'r' if args['action'] == 'reveal' else 'f'},{args['row']},{args['col']}"


# ----- named actions (SmartPlay games, Crafter) -------------------------------------------


def _named(actions: Sequence[str], game: Game[Any]) -> MoveSchema:
    model = create_model(
        f"{type(game).__name__}Args",
        __base__=MoveArgs,
        __doc__=f"A {game.name} action, by name.",
        action=(enum_of(actions), Field(description="The action's name, exactly as listed.")),
    )
    return MoveSchema(
        model,
        action_name,
        f"Take one action: action is its name, exactly as the game lists it (e.g. {actions[0]!r}).",
    )


def _smartplay(game: Game[Any], state: GameState | None) -> MoveSchema:
    at = state if state is not None else game.initial_state(0)
    return _named(game.action_list(at), game)  # type: ignore[attr-defined]


def _crafter(game: Game[Any], state: GameState | None) -> MoveSchema:
    return _named(CRAFTER_ACTIONS, game)


SOLO_SCHEMAS: dict[str, SchemaBuilder] = {
    "maze": fixed(
        MoveSchema(
            MazeArgs,
            _maze,
            "Move: direction 'up', 'down', 'left' or 'right' and steps 1-3. The legal moves "
            "are the action numbers 0-11: 3 x direction (up 0, down 1, left 2, right 3) + "
            "steps - 1, so '10' is direction='right', steps=2.",
        )
    ),
    "match2": _match2,
    "minesweeper": _minesweeper,
    "bandit": _smartplay,
    "hanoi": _smartplay,
    "messenger": _smartplay,
    "rock_paper_scissors": _smartplay,
    "crafter": _crafter,
}
"""Typed move schema builders of the one-player games, by game id."""
