"""Replay drawing of Negotiation v2: the pool, the private values and every offer."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import Panel, Table, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_negotiation"]


@drawer("negotiation")
def draw_negotiation(game: Game[GameState], state: GameState) -> list[Panel]:
    """The pool, each player's private values, and every offer with its worth to each side."""
    s: Any = state
    values = Table(
        ["", "item 1", "item 2", "item 3"],
        [["pool", *s.pool], *[[f"{game.player_label(p)} values", *s.values[p]] for p in (0, 1)]],
        caption=f"outcome: {s.outcome}",
    )
    offers = []
    for number, proposal in enumerate(s.proposals, start=1):
        mine, theirs = proposal[:3], proposal[3:]
        worth = [
            sum(v * n for v, n in zip(s.values[0], mine, strict=True)),
            sum(v * n for v, n in zip(s.values[1], theirs, strict=True)),
        ]
        offers.append(
            [
                number,
                game.player_label((number - 1) % 2),
                list(mine),
                list(theirs),
                worth[0],
                worth[1],
            ]
        )
    table = Table(
        ["round", "proposed by", "P1 gets", "P2 gets", "worth to P1", "worth to P2"], offers
    )
    return [values, table]
