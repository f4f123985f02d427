"""Maze text views and the one legend shared by the map and the prompt.

The released map drew the shovel as ``S`` and the magnet as ``T`` while its prompt called
them ``T`` and ``N``; here :data:`LEGEND` is the only source of symbols, and both the map
below and the prompt builder (``graphs/eeb/prompts.py``) read it.
"""

from __future__ import annotations

from langgraph_games.games.maze.rules import ITEM_CHARS, MazeState

__all__ = ["LEGEND", "legend", "map_text", "observation_text", "render_text"]

LEGEND: tuple[tuple[str, str, int], ...] = (
    ("A", "your current position", 1),
    ("G", "goal (always visible)", 1),
    ("C", "coin (+500 points)", 1),
    ("#", "wall (costs a life if you walk into it)", 1),
    ("?", "unexplored area", 1),
    (".", "empty space", 1),
    ("M", "monster (costs a life if it touches you)", 2),
    (ITEM_CHARS["shovel"], "shovel (breaks walls, 3 uses)", 3),
    (ITEM_CHARS["sword"], "sword (defeats monsters)", 3),
    (ITEM_CHARS["magnet"], "magnet (pulls in coins up to 2 cells away)", 3),
    (ITEM_CHARS["key"], "key (needed to enter the goal)", 3),
)
"""``(symbol, meaning, first level it appears on)`` for every map symbol."""


def legend(level: int) -> list[tuple[str, str]]:
    """The symbols that can appear on a map of ``level``."""
    return [(symbol, meaning) for symbol, meaning, first in LEGEND if first <= level]


def _symbol(state: MazeState, r: int, c: int, full_vision: bool) -> str:
    cell = (r, c)
    if cell == state.agent:
        return "A"
    visible = full_vision or state.seen[r * state.size + c] == "1"
    if visible and any((m[0], m[1]) == cell for m in state.monsters):
        return "M"
    if cell == state.goal:
        return "G"
    return state.at(cell) if visible else "?"


def map_text(state: MazeState, full_vision: bool = False) -> str:
    """The known map with row and column numbers (the whole map with ``full_vision``)."""
    n = state.size
    w = len(str(n - 1))
    header = " " * (w + 3) + " ".join(str(c).rjust(w) for c in range(n))
    lines = [header, " " * (w + 1) + "+" + "-" * (len(header) - w - 1)]
    for r in range(n):
        row = " ".join(_symbol(state, r, c, full_vision).rjust(w) for c in range(n))
        lines.append(f"{str(r).rjust(w)} | {row}")
    return "\n".join(lines)


def observation_text(state: MazeState, full_vision: bool, max_steps: int) -> str:
    """The game-state part of the prompt: coordinates, map, position, status and items."""
    n = state.size
    lines = [
        "Game Coordinate System (row,col):",
        f"- Rows: 0 (top) to {n - 1} (bottom)",
        f"- Cols: 0 (left) to {n - 1} (right)",
        "",
        map_text(state, full_vision),
        "",
        f"Current position (row,col): ({state.agent[0]},{state.agent[1]})",
    ]
    if full_vision:
        lines.append(
            "NOTE: You can see the whole map: every wall, coin, monster and item is shown."
        )
    lines += [
        "",
        "Game Status:",
        f"- Score: {state.score}",
        f"- Lives: {state.lives}",
        f"- Steps taken: {state.turn} of {max_steps}",
        f"- Coins collected: {state.coins} of 5",
    ]
    if state.level == 3:
        shovel = (
            f"Equipped (Uses remaining: {state.shovel_uses})"
            if state.shovel_uses
            else "Not equipped"
        )
        lines += [
            "",
            "Current items status:",
            f"- Shovel: {shovel}",
            f"- Sword: {'Equipped' if state.sword else 'Not equipped'}",
            f"- Magnet: {'Equipped' if state.magnet else 'Not equipped'}",
            f"- Key: {'Collected' if state.key else 'Not collected (required to finish)'}",
        ]
    return "\n".join(lines)


def render_text(state: MazeState) -> str:
    """The whole map (nothing hidden) and a one-line status, for people."""
    status = (
        f"{state.map_id} step {state.turn}: score {state.score}, lives {state.lives}, "
        f"coins {state.coins}, kills {state.kills}, walls broken {state.walls_broken}"
    )
    if state.outcome:
        status += f", outcome {state.outcome}"
    return map_text(state, full_vision=True) + "\n" + status
