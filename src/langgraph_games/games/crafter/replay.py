"""Replay drawing of Crafter: the local view, inventory and the text the model reads."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.crafter.render import local_map
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, Table, Text, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_crafter"]

CRAFTER = {
    "~": CellStyle("water", "#4fc3f7"),
    ".": CellStyle("grass", "#9ccc65"),
    "#": CellStyle("stone", "#9e9e9e"),
    "_": CellStyle("path", "#d7ccc8"),
    ":": CellStyle("sand", "#fff59d"),
    "T": CellStyle("tree", "#9ccc65", "disc", "#2e7d32"),
    "%": CellStyle("lava", "#ff7043"),
    "c": CellStyle("coal", "#9e9e9e", "disc", "#212121"),
    "i": CellStyle("iron", "#9e9e9e", "disc", "#d7a98c"),
    "D": CellStyle("diamond", "#9e9e9e", "diamond", "#e0f7fa"),
    "t": CellStyle("table", "#d7ccc8", "square", "#8d6e63"),
    "f": CellStyle("furnace", "#d7ccc8", "square", "#424242"),
    "C": CellStyle("cow", "#9ccc65", "", "#000000", "C", "#5d4037"),
    "Z": CellStyle("zombie", "#9ccc65", "", "#000000", "Z", "#1b5e20"),
    "S": CellStyle("skeleton", "#d7ccc8", "", "#000000", "S", "#212121"),
    "*": CellStyle("arrow", "#d7ccc8", "", "#000000", "*", "#212121"),
    "p": CellStyle("plant", "#9ccc65", "", "#000000", "p", "#33691e"),
    " ": CellStyle("off the map", "#000000"),
    "<": CellStyle("player (facing west)", "#ffffff", "", "#000000", "<", "#0d47a1"),
    ">": CellStyle("player (facing east)", "#ffffff", "", "#000000", ">", "#0d47a1"),
    "^": CellStyle("player (facing north)", "#ffffff", "", "#000000", "^", "#0d47a1"),
    "v": CellStyle("player (facing south)", "#ffffff", "", "#000000", "v", "#0d47a1"),
    "z": CellStyle("player (asleep)", "#ffffff", "", "#000000", "z", "#0d47a1"),
}


@drawer("crafter")
def draw_crafter(game: Game[GameState], state: GameState) -> list[Panel]:
    """The 9x7 local view, vitals and inventory, and the text descriptor the model reads."""
    snap = game.snapshot(state)  # type: ignore[attr-defined]
    rows = local_map(snap).splitlines()
    inventory = [[name, count] for name, count in snap.inventory if count]
    unlocked = ", ".join(snap.unlocked) or "none"
    caption = f"step {snap.step}, reward {snap.total_reward:g}" + (
        " (asleep)" if snap.sleeping else " (dead)" if snap.dead else ""
    )
    return [
        Grid(rows, CRAFTER, caption=caption),
        Table(["item", "count"], inventory, caption=f"achievements: {unlocked}"),
        Text(game.observation(state, 0), caption="what the model reads"),
    ]
