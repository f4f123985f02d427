"""langgraph-games: LLM agents that play games, reason about them and learn from them."""

from __future__ import annotations

__version__ = "0.1.0"

# Importing the strategy graphs registers every LLM strategy in the player registry, so
# `make_player("gamebot:local", game)` and the specs of runs know them after `import
# langgraph_games`.
from langgraph_games import graphs as graphs
from langgraph_games.games import GameSession, IllegalActionError, list_games, make

__all__ = ["GameSession", "IllegalActionError", "__version__", "list_games", "make"]
