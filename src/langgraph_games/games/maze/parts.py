"""The maze's parts: a typed move (a direction and a step count) and its action universe."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.maze.rules import ACTIONS, DIRECTIONS
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, fixed
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "MazeArgs"]

_DIRECTIONS = tuple(name.lower() for name, _, _ in DIRECTIONS)


class MazeArgs(MoveArgs):
    """A maze move: a direction and how far."""

    direction: Literal["up", "down", "left", "right"] = Field(
        description="'up', 'down', 'left' or 'right'."
    )
    steps: int = Field(1, ge=1, le=3, description="Cells to move, 1-3 (default 1).")


def _maze(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return str(_DIRECTIONS.index(args["direction"]) * 3 + args["steps"] - 1)


PARTS = {
    "maze": GameParts(
        move_schema=fixed(
            MoveSchema(
                MazeArgs,
                _maze,
                "Move: direction 'up', 'down', 'left' or 'right' and steps 1-3. The legal "
                "moves are the action numbers 0-11: 3 x direction (up 0, down 1, left 2, "
                "right 3) + steps - 1, so '10' is direction='right', steps=2.",
            )
        ),
        actions=fixed_actions(ACTIONS),
    )
}
