"""Replay drawing of the maze: the whole map, unseen cells greyed out."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, drawer, index_labels
from langgraph_games.games.state import GameState

__all__ = ["draw_maze"]

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


@drawer("maze")
def draw_maze(game: Game[GameState], state: GameState) -> list[Panel]:
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
        Grid(
            rows,
            MAZE,
            row_labels=index_labels(n),
            col_labels=index_labels(n),
            dim=dim,
            caption=caption,
        )
    ]
