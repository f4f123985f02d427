"""Replay drawing of Minesweeper: the player's view with the covered mines marked."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, drawer, index_labels
from langgraph_games.games.state import GameState

__all__ = ["draw_minesweeper"]

_NUMBER_COLOURS = ("#1565c0", "#2e7d32", "#c62828", "#283593", "#6d4c41", "#00838f", "#000000")

MINESWEEPER = {
    "?": CellStyle("covered", "#bdbdbd"),
    "m": CellStyle("covered mine (hidden from the player)", "#bdbdbd", "disc", "#757575"),
    "F": CellStyle("flag", "#bdbdbd", "", "#000000", "F", "#c62828"),
    "X": CellStyle("revealed mine", "#ef9a9a", "disc", "#212121"),
    "0": CellStyle("", "#fafafa"),
    **{
        str(n): CellStyle("", "#fafafa", "", "#000000", str(n), _NUMBER_COLOURS[n - 1])
        for n in range(1, 8)
    },
    "8": CellStyle("", "#fafafa", "", "#000000", "8", "#616161"),
}


@drawer("minesweeper")
def draw_minesweeper(game: Game[GameState], state: GameState) -> list[Panel]:
    """The player's view; covered mines are marked (hidden from the player, not from you)."""
    s: Any = state
    mines = set(s.mines)
    view = "".join("m" if ch == "?" and i in mines else ch for i, ch in enumerate(s.view))
    rows = [view[i : i + s.cols] for i in range(0, len(view), s.cols)]
    flags = s.view.count("F")
    caption = f"{s.status}; flags {flags}/{len(mines)}" + (
        f"; last feedback: {s.feedback}" if s.feedback else ""
    )
    return [
        Grid(
            rows,
            MINESWEEPER,
            row_labels=index_labels(s.rows),
            col_labels=index_labels(s.cols),
            caption=caption,
        )
    ]
