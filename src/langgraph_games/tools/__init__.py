"""LangChain tools over a live game session: play a game, or pick and start one."""

from __future__ import annotations

from langgraph_games.tools.game_tools import GameToolkit, create_game_tools
from langgraph_games.tools.manager import GameManager, create_game_manager_tools
from langgraph_games.tools.moves import (
    MOVE_SCHEMAS,
    ActionArgs,
    MoveArgumentsError,
    MoveSchema,
    move_schema,
)

__all__ = [
    "MOVE_SCHEMAS",
    "ActionArgs",
    "GameManager",
    "GameToolkit",
    "MoveArgumentsError",
    "MoveSchema",
    "create_game_manager_tools",
    "create_game_tools",
    "move_schema",
]
