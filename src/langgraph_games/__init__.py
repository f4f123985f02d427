"""langgraph-games: LLM agents that play games, reason about them and learn from them."""

from __future__ import annotations

__version__ = "0.1.0"

import importlib
from typing import Any

# The LLM strategies register in the player registry on its first lookup (it imports each
# `graphs/<family>/registration.py` then), so this import loads neither LangGraph nor any
# strategy: `make_player("gamebot:local", game)` still knows them.
from langgraph_games.games import GameSession, IllegalActionError, list_games, make

_SUBPACKAGES = ("eval", "graphs", "integrations", "memory", "models", "players", "tools")


def __getattr__(name: str) -> Any:
    """``langgraph_games.graphs`` (and the other sub-packages, and ``as_player``) on first use."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "as_player":
        return importlib.import_module(f"{__name__}.players.compose").as_player
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GameSession", "IllegalActionError", "__version__", "as_player", "list_games", "make"]
