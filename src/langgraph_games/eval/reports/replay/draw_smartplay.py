"""Drawing functions of SmartPlay's games (Bandit, RPS, Hanoi, Messenger) and of Crafter."""

from __future__ import annotations

from typing import Any

from langgraph_games.eval.reports.replay.frames import CellStyle, Grid, Panel, Table, Text, drawer
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = ["draw_bandit", "draw_crafter", "draw_hanoi", "draw_messenger", "draw_rps"]

_DISK_COLOURS = (
    "#ef5350", "#ffa726", "#ffee58", "#66bb6a", "#42a5f5", "#7e57c2", "#ec407a", "#8d6e63",
    "#26a69a",
)  # fmt: skip
HANOI = {
    ".": CellStyle("", "#fafafa", "", "#000000", "|", "#9e9e9e"),
    **{
        str(size): CellStyle(
            "", _DISK_COLOURS[(size - 1) % len(_DISK_COLOURS)], "", "#000000", str(size)
        )
        for size in range(1, 10)
    },
}
MESSENGER = {
    "@": CellStyle("avatar", "#f1f8e9", "disc", "#1565c0"),
    "&": CellStyle("avatar with the message", "#f1f8e9", "disc", "#1565c0", "m", "#ffffff"),
    "E": CellStyle("enemy", "#f1f8e9", "diamond", "#c62828"),
    "M": CellStyle("message", "#f1f8e9", "square", "#f9a825"),
    "G": CellStyle("goal", "#f1f8e9", "square", "#2e7d32", "G", "#ffffff"),
    "*": CellStyle("several things", "#f1f8e9", "ring", "#6a1b9a"),
    ".": CellStyle("", "#f1f8e9"),
}
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


@drawer("bandit")
def draw_bandit(game: Game[Any], state: GameState) -> list[Panel]:
    """The two machines, their payout probabilities and the last pull."""
    s: Any = state
    rows = []
    for arm, p in enumerate(s.probs):
        last = ""
        if s.last_arm == arm:
            last = f"pulled last: {s.last_reward:+d}"
        rows.append([f"machine {arm + 1}", f"{p:g}", last])
    caption = f"pull {s.turn}, total reward {s.total_reward}, optimal pulls {s.optimal_pulls}"
    return [Table(["machine", "payout p (hidden)", "last pull"], rows, caption=caption)]


@drawer("rock_paper_scissors")
def draw_rps(game: Game[Any], state: GameState) -> list[Panel]:
    """The hands, the opponent's hidden mix and the last round."""
    s: Any = state
    hands = ("Rock", "Paper", "Scissor")
    rows = []
    for i, hand in enumerate(hands):
        marks = []
        if s.last_hand == i:
            marks.append("you")
        if s.last_opponent == i:
            marks.append("opponent")
        rows.append([hand, f"{s.probs[i]:g}", s.scores[i], " and ".join(marks)])
    caption = (
        f"round {s.turn}, last score {s.last_reward:+d}, total {s.total_reward}, "
        f"optimal rounds {s.optimal_rounds}"
    )
    return [
        Table(["hand", "opponent plays it (hidden)", "win scores", "last round"], rows, caption)
    ]


@drawer("hanoi")
def draw_hanoi(game: Game[Any], state: GameState) -> list[Panel]:
    """The three rods, disks numbered by size (1 smallest), bottom row at the bottom."""
    s: Any = state
    disks = len(s.rods)
    stacks = [
        [str(d + 1) for d in range(disks - 1, -1, -1) if s.rods[d] == rod] for rod in range(3)
    ]
    rows = []
    for level in range(disks - 1, -1, -1):
        rows.append("".join(stack[level] if level < len(stack) else "." for stack in stacks))
    caption = f"step {s.turn}, total reward {s.total_reward}" + (
        "" if s.last_valid else ", last move was invalid"
    )
    if s.solved:
        caption += ", solved"
    return [Grid(rows, HANOI, col_labels=list("ABC"), caption=caption)]


@drawer("messenger")
def draw_messenger(game: Game[Any], state: GameState) -> list[Panel]:
    """The 10x10 map with the entities' roles underneath."""
    text = game.render(state).splitlines()
    size = len(text[0])
    rows = text[:size]
    roles = "\n".join(text[size:])
    return [Grid(rows, MESSENGER, caption=roles)]


@drawer("crafter")
def draw_crafter(game: Game[Any], state: GameState) -> list[Panel]:
    """The 9x7 local view, vitals and inventory, and the text descriptor the model reads."""
    from langgraph_games.games.crafter.render import local_map

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
