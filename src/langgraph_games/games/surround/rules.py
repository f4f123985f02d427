"""Surround rules as GAMEBoT played it (paper Appendix H.3): pure functions over a grid.

The grid has 20 rows and 40 columns, ``(row, col)`` from ``(0, 0)`` at the top left; its
outer ring is wall, so the players move inside rows 1-18 and columns 1-38. Cells hold
GAMEBoT's codes: ``0`` empty, ``1`` wall or old trail, ``4``/``5`` the last/current cell of
Player 1 (seat 0, starting at ``(10, 30)``), ``2``/``3`` those of Player 2 (seat 1,
starting at ``(10, 10)``).

Both players move one cell at once every step (up, down, left or right) and leave wall
behind. A player crashes when the cell it moves to is not empty before the step: a wall,
any trail, either head or either last cell (so turning back is a crash). Collisions
follow Atari Surround: when both heads move into the same empty cell, or into each
other's cells (a head-on swap), both crash. The step in which someone crashes ends the
game: a lone crash loses (+1 to the other), a double crash is a draw.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from langgraph_games.games.state import GameState

__all__ = [
    "COLS",
    "CURRENT",
    "DIRECTIONS",
    "EMPTY",
    "LAST",
    "ROWS",
    "STARTS",
    "WALL",
    "SurroundState",
    "heading",
    "initial_grid",
    "neighbour_values",
    "reachable",
    "step",
]

ROWS, COLS = 20, 40
EMPTY, WALL = "0", "1"
LAST = ("4", "2")  # by seat
CURRENT = ("5", "3")
STARTS = ((10, 30), (10, 10))
START_HEADINGS = ("Move Left", "Move Right")  # each starts facing the other
DIRECTIONS = {
    "Move Up": (-1, 0),
    "Move Down": (1, 0),
    "Move Left": (0, -1),
    "Move Right": (0, 1),
}

Cell = tuple[int, int]
Trace = tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class SurroundState(GameState):
    """A Surround position.

    Attributes:
        grid: 800 characters, row 0 first, in GAMEBoT's cell codes ``0``-``5``.
        traces: Every cell each seat has occupied, oldest first; the last is its head.
        crashed: Whether each seat crashed in the last step (the game is then over).
    """

    grid: str
    traces: tuple[Trace, Trace]
    crashed: tuple[bool, bool]

    type_name: ClassVar[str] = "surround"

    def validate(self) -> tuple[str, str] | None:
        """Check the grid's size, codes, border and the heads' markers."""
        if len(self.grid) != ROWS * COLS or set(self.grid) - set("012345"):
            return ("grid", f"must be {ROWS * COLS} characters of the codes 0-5")
        for r in range(ROWS):
            for c in range(COLS):
                border = r in (0, ROWS - 1) or c in (0, COLS - 1)
                if border and self.grid[r * COLS + c] != WALL:
                    return ("grid", f"the border cell ({r},{c}) must be wall")
        for seat, trace in enumerate(self.traces):
            if not trace:
                return (f"traces[{seat}]", "must not be empty")
            r, c = trace[-1]
            if not (0 < r < ROWS - 1 and 0 < c < COLS - 1):
                return (f"traces[{seat}]", f"the head ({r},{c}) is outside the field")
            if self.grid[r * COLS + c] != CURRENT[seat]:
                return (f"traces[{seat}]", f"the head ({r},{c}) is not marked {CURRENT[seat]}")
        return GameState.validate(self)


@cache
def initial_grid() -> str:
    """Walls around the border, both players on their start cells."""
    cells = []
    for r in range(ROWS):
        for c in range(COLS):
            border = r in (0, ROWS - 1) or c in (0, COLS - 1)
            cells.append(WALL if border else EMPTY)
    for seat, (r, c) in enumerate(STARTS):
        cells[r * COLS + c] = CURRENT[seat]
    return "".join(cells)


def value_at(grid: str, cell: Cell) -> int:
    """The code at ``cell`` as an int, or -1 outside the grid (GAMEBoT's convention)."""
    r, c = cell
    if not (0 <= r < ROWS and 0 <= c < COLS):
        return -1
    return int(grid[r * COLS + c])


def neighbour_values(grid: str, cell: Cell) -> dict[str, int]:
    """The codes above, below, left and right of ``cell`` (-1 outside the grid)."""
    r, c = cell
    return {action: value_at(grid, (r + dr, c + dc)) for action, (dr, dc) in DIRECTIONS.items()}


def heading(trace: Trace, seat: int) -> str:
    """The direction of the seat's last move (its start heading before any)."""
    if len(trace) < 2:
        return START_HEADINGS[seat]
    (r0, c0), (r1, c1) = trace[-2], trace[-1]
    return next(a for a, d in DIRECTIONS.items() if d == (r1 - r0, c1 - c0))


def target(cell: Cell, action: str) -> Cell:
    """The cell ``action`` moves to from ``cell``."""
    dr, dc = DIRECTIONS[action]
    return (cell[0] + dr, cell[1] + dc)


def reachable(grid: str, start: Cell, limit: int | None = None) -> int:
    """How many empty cells connect to ``start`` (itself included), 4-neighbourly.

    Counts 0 if ``start`` is not empty; stops counting at ``limit`` when given.
    """
    if value_at(grid, start) != 0:
        return 0
    seen = {start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if (nr, nc) in seen or not (0 <= nr < ROWS and 0 <= nc < COLS):
                continue
            if grid[nr * COLS + nc] == EMPTY:
                seen.add((nr, nc))
                if limit is not None and len(seen) >= limit:
                    return len(seen)
                queue.append((nr, nc))
    return len(seen)


def step(
    grid: str, traces: tuple[Trace, Trace], moves: tuple[str, str]
) -> tuple[str, tuple[Trace, Trace], tuple[bool, bool]]:
    """Move both players at once; return the grid, the traces and who crashed."""
    heads = (traces[0][-1], traces[1][-1])
    targets = (target(heads[0], moves[0]), target(heads[1], moves[1]))
    same_cell = targets[0] == targets[1]
    crashed = tuple(same_cell or value_at(grid, t) != 0 for t in targets)
    cells = list(grid)
    new_traces = list(traces)
    for seat in (0, 1):
        if crashed[seat]:
            continue
        trace = traces[seat]
        if len(trace) >= 2:
            r, c = trace[-2]
            cells[r * COLS + c] = WALL
        r, c = heads[seat]
        cells[r * COLS + c] = LAST[seat]
        r, c = targets[seat]
        cells[r * COLS + c] = CURRENT[seat]
        new_traces[seat] = (*trace, targets[seat])
    return "".join(cells), (new_traces[0], new_traces[1]), (crashed[0], crashed[1])
