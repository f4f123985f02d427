"""Replay drawing of Match-2: the board, the colour targets and the props left."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.match2.rules import PROPS
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, Table, drawer, index_labels
from langgraph_games.games.state import GameState

__all__ = ["draw_match2"]

MATCH2 = {
    "A": CellStyle("A", "#ef5350", "", "#000000", "A", "#ffffff"),
    "B": CellStyle("B", "#42a5f5", "", "#000000", "B", "#ffffff"),
    "C": CellStyle("C", "#66bb6a", "", "#000000", "C", "#ffffff"),
    "D": CellStyle("D", "#ffca28", "", "#000000", "D", "#5d4037"),
    ".": CellStyle("cleared", "#eeeeee"),
}


@drawer("match2")
def draw_match2(game: Game[GameState], state: GameState) -> list[Panel]:
    """The 8x8 board, the colour targets and the props left."""
    s: Any = state
    rows = [s.board[i : i + 8] for i in range(0, len(s.board), 8)]
    targets = [
        [colour, f"{count}/{target}", "done" if count >= target else ""]
        for colour, count, target in zip("ABCD", s.counts, s.targets, strict=True)
    ]
    props = ", ".join(f"{name} {left}" for name, left in zip(PROPS, s.inventory, strict=True))
    caption = f"score {s.score}, steps left {s.steps_left}/{s.max_steps}; props: {props}" + (
        f"; outcome: {s.outcome}" if s.outcome else ""
    )
    return [
        Grid(rows, MATCH2, row_labels=index_labels(8), col_labels=index_labels(8), caption=caption),
        Table(["colour", "cleared / target", ""], targets, caption="targets"),
    ]
