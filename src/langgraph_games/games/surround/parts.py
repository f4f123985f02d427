"""Surround's parts: a typed move (a direction) and its action universe."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, fixed
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.state import GameState
from langgraph_games.games.surround import ACTIONS

__all__ = ["PARTS", "SurroundArgs"]

_MOVES = {"up": "Move Up", "down": "Move Down", "left": "Move Left", "right": "Move Right"}


class SurroundArgs(MoveArgs):
    """A Surround move: where the head goes."""

    direction: Literal["up", "down", "left", "right"] = Field(
        description="'up', 'down', 'left' or 'right' (Move Up, Move Down, ...)."
    )


def _surround(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return _MOVES[args["direction"]]


PARTS = {
    "surround": GameParts(
        move_schema=fixed(
            MoveSchema(
                SurroundArgs,
                _surround,
                "Move your head one cell: direction 'up', 'down', 'left' or 'right' (the "
                "legal moves Move Up, Move Down, Move Left, Move Right).",
            )
        ),
        actions=fixed_actions(ACTIONS),
    )
}
