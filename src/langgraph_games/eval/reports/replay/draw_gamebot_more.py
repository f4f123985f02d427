"""Drawing functions of GAMEBoT's other games: Pong, Surround, Texas Hold'em, Negotiation."""

from __future__ import annotations

from typing import Any

from langgraph_games.eval.reports.replay.frames import CellStyle, Grid, Panel, Table, drawer
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = ["draw_negotiation", "draw_pong", "draw_surround", "draw_texas"]

_CELL = 8  # Pong pixels per drawn cell

PONG = {
    ".": CellStyle("", "#111111"),
    "=": CellStyle("wall", "#9e9e9e"),
    "R": CellStyle("right paddle (player 1)", "#111111", "square", "#ef5350"),
    "L": CellStyle("left paddle (player 2)", "#111111", "square", "#42a5f5"),
    "o": CellStyle("ball", "#111111", "disc", "#ffffff"),
}
SURROUND = {
    ".": CellStyle("", "#fafafa"),
    "#": CellStyle("wall or trail", "#616161"),
    "A": CellStyle("player 1 (head)", "#ef5350", "disc", "#b71c1c"),
    "a": CellStyle("player 1 (last cell)", "#ffcdd2"),
    "B": CellStyle("player 2 (head)", "#42a5f5", "disc", "#0d47a1"),
    "b": CellStyle("player 2 (last cell)", "#bbdefb"),
}
_SURROUND_CODES = {"0": ".", "1": "#", "5": "A", "4": "a", "3": "B", "2": "b"}


@drawer("pong")
def draw_pong(game: Game[Any], state: GameState) -> list[Panel]:
    """The field in 8-pixel cells (y grows upwards, as in the prompt), paddles and ball."""
    from langgraph_games.games.pong import rules

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


@drawer("surround")
def draw_surround(game: Game[Any], state: GameState) -> list[Panel]:
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


@drawer("texas_holdem")
def draw_texas(game: Game[Any], state: GameState) -> list[Panel]:
    """Each seat's cards and chips, the board dealt so far, the pot and the street."""
    from langgraph_games.games.texas_holdem.cards import card_name
    from langgraph_games.games.texas_holdem.rules import STREETS

    s: Any = state
    rows = []
    for seat in range(2):
        cards = " ".join(card_name(c) for c in s.holes[seat])
        button = "button" if s.button == seat else ""
        rows.append([game.player_label(seat), cards, s.stacks[seat], s.committed[seat], button])
    board = " ".join(card_name(c) for c in s.revealed) or "-"
    caption = f"hand {s.hand}, {STREETS[s.street]}; board: {board}; pot {s.pot}; " + (
        "hand over" if s.over else f"{game.player_label(s.to_act)} to act"
    )
    return [Table(["seat", "hole cards", "chips behind", "in the pot", ""], rows, caption)]


@drawer("negotiation")
def draw_negotiation(game: Game[Any], state: GameState) -> list[Panel]:
    """The pool, each player's private values, and every offer with its worth to each side."""
    s: Any = state
    values = Table(
        ["", "item 1", "item 2", "item 3"],
        [["pool", *s.pool], *[[f"{game.player_label(p)} values", *s.values[p]] for p in (0, 1)]],
        caption=f"outcome: {s.outcome}",
    )
    offers = []
    for number, proposal in enumerate(s.proposals, start=1):
        mine, theirs = proposal[:3], proposal[3:]
        worth = [
            sum(v * n for v, n in zip(s.values[0], mine, strict=True)),
            sum(v * n for v, n in zip(s.values[1], theirs, strict=True)),
        ]
        offers.append(
            [
                number,
                game.player_label((number - 1) % 2),
                list(mine),
                list(theirs),
                worth[0],
                worth[1],
            ]
        )
    table = Table(
        ["round", "proposed by", "P1 gets", "P2 gets", "worth to P1", "worth to P2"], offers
    )
    return [values, table]
