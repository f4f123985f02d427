"""Replay drawing of Surround: the arena with walls, trails and both heads."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_surround"]

SURROUND = {
    ".": CellStyle("", "#fafafa"),
    "#": CellStyle("wall or trail", "#616161"),
    "A": CellStyle("player 1 (head)", "#ef5350", "disc", "#b71c1c"),
    "a": CellStyle("player 1 (last cell)", "#ffcdd2"),
    "B": CellStyle("player 2 (head)", "#42a5f5", "disc", "#0d47a1"),
    "b": CellStyle("player 2 (last cell)", "#bbdefb"),
}

_SURROUND_CODES = {"0": ".", "1": "#", "5": "A", "4": "a", "3": "B", "2": "b"}


@drawer("surround")
def draw_surround(game: Game[GameState], state: GameState) -> list[Panel]:
    """The 20x40 arena with walls, trails and both heads."""
    grid: str = state.grid  # type: ignore[attr-defined]
    width = len(grid) // 20
    rows = [
        "".join(_SURROUND_CODES.get(ch, ch) for ch in grid[r * width : (r + 1) * width])
        for r in range(len(grid) // width)
    ]
    crashed = [game.player_label(p) for p, c in enumerate(state.crashed) if c]  # type: ignore[attr-defined]
    caption = f"step {state.turn}" + (f"; crashed: {', '.join(crashed)}" if crashed else "")
    return [Grid(rows, SURROUND, caption=caption)]
