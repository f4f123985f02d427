"""langgraph-games: LLM agents that play games, reason about them and learn from them."""

from __future__ import annotations

from langgraph_games.games import GameSession, IllegalActionError, list_games, make

__version__ = "0.1.0"

__all__ = ["GameSession", "IllegalActionError", "__version__", "list_games", "make"]
