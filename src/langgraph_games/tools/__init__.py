"""LangChain tools over games: per-thread games for served agents, one session for scripts.

- :func:`create_thread_game_tools` (:mod:`~langgraph_games.tools.thread_tools`): each
  thread keeps its game in its graph state, so one compiled agent serves many threads and
  a checkpointer keeps their games.
- :func:`create_session_tools` / :class:`SessionToolkit` and
  :func:`create_session_lobby_tools` / :class:`SessionLobby`: one game session held by the
  tools, for a script or a single conversation (formerly ``create_game_tools`` /
  ``GameToolkit`` and ``create_game_manager_tools`` / ``GameManager``; those names remain).
"""

from __future__ import annotations

from langgraph_games.tools.game_tools import (
    GameToolkit,
    SessionToolkit,
    create_game_tools,
    create_session_tools,
)
from langgraph_games.tools.manager import (
    GameManager,
    SessionLobby,
    create_game_manager_tools,
    create_session_lobby_tools,
)
from langgraph_games.tools.moves import (
    MOVE_SCHEMAS,
    ActionArgs,
    MoveArgumentsError,
    MoveSchema,
    move_schema,
)
from langgraph_games.tools.thread_tools import (
    GAMES_KEY,
    GameThreadState,
    ThreadGameToolkit,
    create_thread_game_tools,
    merge_games,
)

__all__ = [
    "GAMES_KEY",
    "MOVE_SCHEMAS",
    "ActionArgs",
    "GameManager",
    "GameThreadState",
    "GameToolkit",
    "MoveArgumentsError",
    "MoveSchema",
    "SessionLobby",
    "SessionToolkit",
    "ThreadGameToolkit",
    "create_game_manager_tools",
    "create_game_tools",
    "create_session_lobby_tools",
    "create_session_tools",
    "create_thread_game_tools",
    "merge_games",
    "move_schema",
]
