"""Drawing functions of the single-agent puzzles: EvoEmpirBench's Maze and Match-2, Minesweeper."""

from __future__ import annotations

from typing import Any

from langgraph_games.eval.reports.replay.frames import CellStyle, Grid, Panel, Table, drawer
from langgraph_games.games.base import Game
from langgraph_games.games.match2.rules import PROPS
from langgraph_games.games.state import GameState

__all__ = ["draw_match2", "draw_maze", "draw_minesweeper"]

MAZE = {
    "A": CellStyle("agent", "#f5f5f5", "disc", "#1565c0"),
    "G": CellStyle("goal", "#a5d6a7", "square", "#2e7d32", "G", "#ffffff"),
    "C": CellStyle("coin", "#f5f5f5", "disc", "#f9a825", "$", "#5d4037"),
    "#": CellStyle("wall", "#424242"),
    ".": CellStyle("", "#f5f5f5"),
    "M": CellStyle("monster", "#f5f5f5", "diamond", "#c62828"),
    "S": CellStyle("shovel", "#f5f5f5", "", "#000000", "S", "#6d4c41"),
    "W": CellStyle("sword", "#f5f5f5", "", "#000000", "W", "#455a64"),
    "N": CellStyle("magnet", "#f5f5f5", "", "#000000", "N", "#ad1457"),
    "K": CellStyle("key", "#f5f5f5", "", "#000000", "K", "#f57f17"),
}
MATCH2 = {
    "A": CellStyle("A", "#ef5350", "", "#000000", "A", "#ffffff"),
    "B": CellStyle("B", "#42a5f5", "", "#000000", "B", "#ffffff"),
    "C": CellStyle("C", "#66bb6a", "", "#000000", "C", "#ffffff"),
    "D": CellStyle("D", "#ffca28", "", "#000000", "D", "#5d4037"),
    ".": CellStyle("cleared", "#eeeeee"),
}
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


def _labels(n: int) -> list[str]:
    return [str(i) for i in range(n)]


@drawer("maze")
def draw_maze(game: Game[Any], state: GameState) -> list[Panel]:
    """The whole map; cells the agent has not seen yet are greyed out."""
    s: Any = state
    n = s.size
    monsters = {(m[0], m[1]) for m in s.monsters}
    rows, dim = [], []
    for r in range(n):
        row, shade = [], []
        for c in range(n):
            cell = (r, c)
            if cell == tuple(s.agent):
                ch = "A"
            elif cell in monsters:
                ch = "M"
            elif cell == s.goal:
                ch = "G"
            else:
                ch = s.cells[r * n + c]
            row.append(ch)
            shade.append("0" if s.seen[r * n + c] == "1" or ch in "AG" else "1")
        rows.append("".join(row))
        dim.append("".join(shade))
    held = [name for name in ("sword", "magnet", "key") if getattr(s, name)]
    if s.shovel_uses:
        held.append(f"shovel ({s.shovel_uses} uses)")
    caption = (
        f"score {s.score}, lives {s.lives}, coins {s.coins}, kills {s.kills}, "
        f"walls broken {s.walls_broken}; items: {', '.join(held) or 'none'}"
        + (f"; outcome: {s.outcome}" if s.outcome else "")
    )
    return [
        Grid(rows, MAZE, row_labels=_labels(n), col_labels=_labels(n), dim=dim, caption=caption)
    ]


@drawer("match2")
def draw_match2(game: Game[Any], state: GameState) -> list[Panel]:
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
        Grid(rows, MATCH2, row_labels=_labels(8), col_labels=_labels(8), caption=caption),
        Table(["colour", "cleared / target", ""], targets, caption="targets"),
    ]


@drawer("minesweeper")
def draw_minesweeper(game: Game[Any], state: GameState) -> list[Panel]:
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
            row_labels=_labels(s.rows),
            col_labels=_labels(s.cols),
            caption=caption,
        )
    ]
