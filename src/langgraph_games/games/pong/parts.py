"""Pong's parts: a typed move (a direction) and its action universe."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, fixed
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.pong import ACTIONS
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "PongArgs"]

_MOVES = {"up": "Move Up", "down": "Move Down", "stay": "Stay Still"}


class PongArgs(MoveArgs):
    """A Pong move: where the paddle goes."""

    direction: Literal["up", "down", "stay"] = Field(
        description="'up' (Move Up), 'down' (Move Down) or 'stay' (Stay Still)."
    )


def _pong(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return _MOVES[args["direction"]]


PARTS = {
    "pong": GameParts(
        move_schema=fixed(
            MoveSchema(
                PongArgs,
                _pong,
                "Move your paddle: direction 'up' (Move Up), 'down' (Move Down) or 'stay' "
                "(Stay Still).",
            )
        ),
        actions=fixed_actions(ACTIONS),
    )
}
