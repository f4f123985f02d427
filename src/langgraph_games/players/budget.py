"""Bounded work for the search players a server runs on behalf of its clients.

A server (``langgraph-games serve``, the MCP server) plays search players for requests it
does not control. Their settings could ask for unbounded work (``minimax:depth=30``
searches for hours, ``holdem_equity:samples=10000000`` simulates for minutes) and hold a
thread that others wait for. :func:`within_budget` caps them: minimax gets a node budget
(:data:`SERVED_MAX_NODES`, it then deepens ply by ply and plays the deepest search that
finished), the equity player a number of simulated deals (:data:`SERVED_MAX_SAMPLES`).
Settings below the caps are kept as given.
"""

from __future__ import annotations

from typing import TypeVar

from langgraph_games.players.base import Player
from langgraph_games.players.minimax import MinimaxPlayer
from langgraph_games.players.poker_equity import EquityPlayer

__all__ = ["SERVED_MAX_NODES", "SERVED_MAX_SAMPLES", "within_budget"]

SERVED_MAX_NODES = 20_000
"""Positions one minimax decision may visit on a server (a few seconds of CPU)."""

SERVED_MAX_SAMPLES = 3_000
"""Deals one equity decision may simulate on a server."""


P = TypeVar("P", bound=Player)


def within_budget(
    player: P, max_nodes: int = SERVED_MAX_NODES, max_samples: int = SERVED_MAX_SAMPLES
) -> P:
    """``player`` with its work capped (the same object, changed in place).

    Example:
        >>> within_budget(MinimaxPlayer(depth=30)).describe()["max_nodes"]
        20000
    """
    if isinstance(player, MinimaxPlayer):
        if player.max_nodes is None or player.max_nodes > max_nodes:
            player.max_nodes = max_nodes
    elif isinstance(player, EquityPlayer):
        player.samples = min(player.samples, max_samples)
    return player
