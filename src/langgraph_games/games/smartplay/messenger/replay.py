"""Replay drawing of Messenger: the map with the entities' roles."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_messenger"]

MESSENGER = {
    "@": CellStyle("avatar", "#f1f8e9", "disc", "#1565c0"),
    "&": CellStyle("avatar with the message", "#f1f8e9", "disc", "#1565c0", "m", "#ffffff"),
    "E": CellStyle("enemy", "#f1f8e9", "diamond", "#c62828"),
    "M": CellStyle("message", "#f1f8e9", "square", "#f9a825"),
    "G": CellStyle("goal", "#f1f8e9", "square", "#2e7d32", "G", "#ffffff"),
    "*": CellStyle("several things", "#f1f8e9", "ring", "#6a1b9a"),
    ".": CellStyle("", "#f1f8e9"),
}


@drawer("messenger")
def draw_messenger(game: Game[GameState], state: GameState) -> list[Panel]:
    """The 10x10 map with the entities' roles underneath."""
    text = game.render(state).splitlines()
    size = len(text[0])
    rows = text[:size]
    roles = "\n".join(text[size:])
    return [Grid(rows, MESSENGER, caption=roles)]
