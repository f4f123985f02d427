"""Replay drawing of Bandit, Rock-Paper-Scissors (tables) and Hanoi (the three rods)."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, Table, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_bandit", "draw_hanoi", "draw_rps"]

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


@drawer("bandit")
def draw_bandit(game: Game[GameState], state: GameState) -> list[Panel]:
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
def draw_rps(game: Game[GameState], state: GameState) -> list[Panel]:
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
def draw_hanoi(game: Game[GameState], state: GameState) -> list[Panel]:
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
