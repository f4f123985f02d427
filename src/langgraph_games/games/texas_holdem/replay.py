"""Replay drawing of Texas Hold'em: cards, chips, the board and the pot."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import Panel, Table, drawer
from langgraph_games.games.state import GameState
from langgraph_games.games.texas_holdem.cards import card_name
from langgraph_games.games.texas_holdem.rules import STREETS

__all__ = ["draw_texas"]


@drawer("texas_holdem")
def draw_texas(game: Game[GameState], state: GameState) -> list[Panel]:
    """Each seat's cards and chips, the board dealt so far, the pot and the street."""
    s: Any = state
    rows = []
    for seat in range(2):
        cards = " ".join(card_name(c) for c in s.holes[seat])
        button = "button" if s.button == seat else ""
        rows.append([game.player_label(seat), cards, s.stacks[seat], s.committed[seat], button])
    board = " ".join(card_name(c) for c in s.revealed) or "-"
    caption = f"hand {s.hand}, {STREETS[s.street]}; board: {board}; pot {s.pot}; " + (
        "hand over" if s.over else f"{game.player_label(s.to_act)} to act"
    )
    return [Table(["seat", "hole cards", "chips behind", "in the pot", ""], rows, caption)]
