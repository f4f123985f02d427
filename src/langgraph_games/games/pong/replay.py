"""Replay drawing of Pong: the field in 8-pixel cells, paddles and ball."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.pong import rules
from langgraph_games.games.replay_frames import CellStyle, Grid, Panel, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_pong"]

_CELL = 8  # Pong pixels per drawn cell

PONG = {
    ".": CellStyle("", "#111111"),
    "=": CellStyle("wall", "#9e9e9e"),
    "R": CellStyle("right paddle (player 1)", "#111111", "square", "#ef5350"),
    "L": CellStyle("left paddle (player 2)", "#111111", "square", "#42a5f5"),
    "o": CellStyle("ball", "#111111", "disc", "#ffffff"),
}


@drawer("pong")
def draw_pong(game: Game[GameState], state: GameState) -> list[Panel]:
    """The field in 8-pixel cells (y grows upwards, as in the prompt), paddles and ball."""
    s: Any = state
    top, bottom = rules.UPPER_WALL, rules.LOWER_WALL
    columns = 160 // _CELL + 1
    rows = []
    for y in range(top, bottom - 1, -_CELL):
        row = ["="] * columns if y in (top, bottom) else ["."] * columns
        for seat, x in enumerate(rules.PADDLE_X):
            low = s.paddles[seat]
            if low <= y < low + rules.PADDLE_HEIGHT:
                row[x // _CELL] = "R" if seat == 0 else "L"
        bx, by = s.ball
        if by - _CELL < y <= by and 0 <= bx // _CELL < columns:
            row[bx // _CELL] = "o"
        rows.append("".join(row))
    caption = (
        f"score right {s.score[0]} - left {s.score[1]}; ball ({s.ball[0]},{s.ball[1]}) "
        f"moving {tuple(s.velocity)}"
    )
    return [Grid(rows, PONG, caption=caption)]
