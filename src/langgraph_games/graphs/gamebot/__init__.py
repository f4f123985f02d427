"""GAMEBoT: the subproblem chain-of-thought strategy and its per-game prompts (``prompts/``)."""

from __future__ import annotations

from langgraph_games.graphs.gamebot.graph import (
    READERS,
    VARIANTS,
    GamebotState,
    build_gamebot_messages,
    create_gamebot_agent,
    gamebot_player,
    load_prompt,
    parse_gamebot_reply,
    score_intermediate,
)
from langgraph_games.graphs.gamebot.registration import (
    GAMEBOT_GAMES,
    GamebotSettings,
)

__all__ = [
    "GAMEBOT_GAMES",
    "READERS",
    "VARIANTS",
    "GamebotSettings",
    "GamebotState",
    "build_gamebot_messages",
    "create_gamebot_agent",
    "gamebot_player",
    "load_prompt",
    "parse_gamebot_reply",
    "score_intermediate",
]
