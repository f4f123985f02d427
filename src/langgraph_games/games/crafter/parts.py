"""Crafter's parts: a typed move (an action's name, an enum of 17) and its action universe."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.crafter.data import ACTION_NAMES
from langgraph_games.games.move_schema import MoveSchema, named_actions
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.state import GameState

__all__ = ["PARTS"]


def _schema(game: Game[GameState], state: GameState | None) -> MoveSchema:
    return named_actions(ACTION_NAMES, game)


PARTS = {"crafter": GameParts(move_schema=_schema, actions=fixed_actions(ACTION_NAMES))}
