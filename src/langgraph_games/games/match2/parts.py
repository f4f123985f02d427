"""Match-2's parts: a typed move (an elimination or a prop) and its action universe."""

from __future__ import annotations

from typing import Any, cast

from pydantic import Field, create_model

from langgraph_games.games.base import Game
from langgraph_games.games.match2 import INVALID, Match2Options
from langgraph_games.games.match2.rules import PROPS, SIZE
from langgraph_games.games.move_schema import (
    MoveArgs,
    MoveArgumentsError,
    MoveSchema,
    coordinate,
    enum_of,
)
from langgraph_games.games.parts import GameParts
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "match2_actions", "match2_schema"]


def match2_schema(game: Game[GameState], state: GameState | None) -> MoveSchema:
    """The move schema of a configured Match-2 (its props option shapes it)."""
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
        _action,
        f"Act on the {SIZE}x{SIZE} board (rows and columns 0-{SIZE - 1}): action "
        "'eliminate' with row and col clears the group of two or more same-colour tiles at "
        f"that cell.{props} The legal move 'eliminate,2,3' is action='eliminate', row=2, "
        "col=3; 'row,4' is action='row', row=4.",
    )


def _action(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
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


def match2_actions(game: Game[GameState]) -> list[str]:
    """``eliminate`` on every tile, each prop on every target, and ``invalid`` in step mode."""
    options = cast(Match2Options, game.options)
    cells = [f"{r},{c}" for r in range(SIZE) for c in range(SIZE)]
    names = [f"eliminate,{cell}" for cell in cells]
    if options.props:
        for prop in PROPS:
            targets = [str(i) for i in range(SIZE)] if prop in ("row", "col") else cells
            names.extend(f"{prop},{target}" for target in targets)
    if options.invalid_moves == "step":
        names.append(INVALID)
    return names


PARTS = {"match2": GameParts(move_schema=match2_schema, actions=match2_actions)}
