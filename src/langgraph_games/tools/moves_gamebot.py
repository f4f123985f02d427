"""Typed move arguments of the GAMEBoT games (see :mod:`langgraph_games.tools.moves`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import Field, field_validator

from langgraph_games.games.base import Game
from langgraph_games.games.negotiation.rules import AGREE, Proposal, proposal_name
from langgraph_games.games.state import GameState
from langgraph_games.games.texas_holdem.rules import ACTIONS as TEXAS_ACTIONS
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

__all__ = ["GAMEBOT_SCHEMAS"]


# ----- board games ------------------------------------------------------------------------


class CellArgs(MoveArgs):
    """A TicTacToe move: the cell to mark."""

    row: int = coordinate(0, 2, "Row 0-2, top to bottom.")
    col: int = coordinate(0, 2, "Column 0-2, left to right.")


class ColumnArgs(MoveArgs):
    """A Connect4 move: the column to drop a disc into."""

    column: int = coordinate(0, 6, "Column index, 0 (left) to 6 (right).")


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


class CheckersArgs(MoveArgs):
    """A Checkers move: one step or one jump, from a square to a square."""

    from_row: int = coordinate(0, 7, "Row 0-7 of the piece to move.")
    from_col: int = coordinate(0, 7, "Column 0-7 of the piece to move.")
    to_row: int = coordinate(0, 7, "Row 0-7 of the square it moves to.")
    to_col: int = coordinate(0, 7, "Column 0-7 of the square it moves to.")


def _cell(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['row']},{args['col']})"


def _column(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    cell = game.drop_cell(state, int(args["column"]))  # type: ignore[attr-defined]
    return cell if cell is not None else f"column {args['column']}"


def _othello(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['column']},{args['row']})"


def _checkers(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['from_row']},{args['from_col']})->({args['to_row']},{args['to_col']})"


# ----- direction games --------------------------------------------------------------------

_PONG = {"up": "Move Up", "down": "Move Down", "stay": "Stay Still"}
_SURROUND = {"up": "Move Up", "down": "Move Down", "left": "Move Left", "right": "Move Right"}


class PongArgs(MoveArgs):
    """A Pong move: where the paddle goes."""

    direction: Literal["up", "down", "stay"] = Field(
        description="'up' (Move Up), 'down' (Move Down) or 'stay' (Stay Still)."
    )


class SurroundArgs(MoveArgs):
    """A Surround move: where the head goes."""

    direction: Literal["up", "down", "left", "right"] = Field(
        description="'up', 'down', 'left' or 'right' (Move Up, Move Down, ...)."
    )


def _pong(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return _PONG[args["direction"]]


def _surround(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    return _SURROUND[args["direction"]]


# ----- betting and bargaining -------------------------------------------------------------


class TexasArgs(MoveArgs):
    """A Texas Hold'em bet."""

    action: enum_of(TEXAS_ACTIONS) = Field(  # type: ignore[valid-type]
        description="One of: " + ", ".join(TEXAS_ACTIONS) + "."
    )


Count = Annotated[int, Field(ge=0)]
Share = Annotated[list[Count], Field(min_length=3, max_length=3)]


class NegotiationArgs(MoveArgs):
    """A Negotiation move: a proposal (both players' shares) or agreement."""

    agree: bool = Field(
        False, description="true to accept the last proposal (then give no shares)."
    )
    p1: Share | None = Field(
        None, description="Player 1's counts of the three item types, e.g. [2, 0, 3]."
    )
    p2: Share | None = Field(
        None, description="Player 2's counts of the three item types, e.g. [0, 2, 2]."
    )


def _negotiation(game: Game[Any], state: GameState, player: int, args: dict[str, Any]) -> str:
    p1, p2 = args["p1"], args["p2"]
    if args["agree"]:
        if p1 is not None or p2 is not None:
            raise MoveArgumentsError(
                "agree=true accepts the last proposal: give no shares with it, or make a "
                "proposal with p1 and p2 and no agree"
            )
        return AGREE
    if p1 is None or p2 is None:
        raise MoveArgumentsError(
            "a proposal needs p1 and p2, three counts each (or agree=true to accept)"
        )
    return proposal_name(cast(Proposal, (*p1, *p2)))


GAMEBOT_SCHEMAS: dict[str, SchemaBuilder] = {
    "tictactoe": fixed(
        MoveSchema(
            CellArgs,
            _cell,
            "Place your mark on an empty cell, given by row (0-2, top to bottom) and col "
            "(0-2, left to right): the legal move (1,2) is row=1, col=2.",
        )
    ),
    "connect4": fixed(
        MoveSchema(
            ColumnArgs,
            _column,
            "Drop your disc into a column (0-6, left to right); it falls to the lowest empty "
            "cell of that column. The legal move (5,3) is column=3.",
        )
    ),
    "othello": fixed(
        MoveSchema(
            OthelloArgs,
            _othello,
            "Place a disc on a square: column A-H (left to right) and row 1-8 (top to "
            "bottom). The legal move (C,5) is column='C', row=5.",
        )
    ),
    "checkers": fixed(
        MoveSchema(
            CheckersArgs,
            _checkers,
            "Move a piece one step or one jump, from (from_row, from_col) to (to_row, "
            "to_col), rows and columns 0-7. The legal move (2,1)->(3,0) is from_row=2, "
            "from_col=1, to_row=3, to_col=0. A capture that can go on is one call per jump.",
        )
    ),
    "pong": fixed(
        MoveSchema(
            PongArgs,
            _pong,
            "Move your paddle: direction 'up' (Move Up), 'down' (Move Down) or 'stay' "
            "(Stay Still).",
        )
    ),
    "surround": fixed(
        MoveSchema(
            SurroundArgs,
            _surround,
            "Move your head one cell: direction 'up', 'down', 'left' or 'right' (the legal "
            "moves Move Up, Move Down, Move Left, Move Right).",
        )
    ),
    "texas_holdem": fixed(
        MoveSchema(
            TexasArgs,
            action_name,
            "Bet: action is one of " + ", ".join(TEXAS_ACTIONS) + " (raises are fixed "
            "shares of the pot; legal_moves lists the ones you can make now).",
        )
    ),
    "negotiation": fixed(
        MoveSchema(
            NegotiationArgs,
            _negotiation,
            "Propose a division of the pool: p1 = [a, b, c], Player 1's counts of the three "
            "item types, and p2 = [x, y, z], Player 2's, adding up to the pool type by type "
            "(the legal move 'P1: (2,0,3), P2: (0,2,2)' is p1=[2,0,3], p2=[0,2,2]); or "
            "agree=true to accept the last proposal, which ends the game.",
        )
    ),
}
"""Typed move schema builders of the GAMEBoT games, by game id."""
