"""Shared checks for players built for one game."""

from __future__ import annotations

from langgraph_games.players.base import DecisionRequest

__all__ = ["require_game"]


def require_game(request: DecisionRequest, game_id: str, player: str) -> None:
    """Raise ``ValueError`` unless ``request`` is a decision of ``game_id``."""
    if request.game.id != game_id:
        raise ValueError(f"the {player} player only plays {game_id!r}, not {request.game.id!r}")
