"""Minesweeper rules as the Minesweeper Agent paper plays them: pure functions over a view string.

The board is ``rows x cols`` cells, stored flat (index ``row * cols + col``). The player's
view is one character per cell: ``?`` covered, ``F`` flagged, ``0``-``8`` revealed with
that many neighbouring mines, ``X`` a revealed mine (the game is then lost).

Operations are triples: ``r,row,col`` reveals, ``f,row,col`` flags or unflags. Revealing a
zero floods over its eight neighbours, replacing any flags it reaches (released-code
behaviour); a flagged cell can be revealed directly. A new flag is
refused once the flags reach the mine count. Every operation, valid or not, answers with
one of the paper's feedback strings (Table 2, in the released code's spelling).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "ADD_FLAG",
    "ALREADY_REVEALED",
    "COVERED",
    "FLAG",
    "FLAG_LIMIT",
    "GAME_OVER",
    "INVALID_ACTION",
    "INVALID_ANSWER",
    "INVALID_ANSWER_LEGACY",
    "INVALID_POSITION",
    "MINE",
    "REMOVE_FLAG",
    "SAFE",
    "WIN",
    "MinesweeperState",
    "Status",
    "flood_reveal",
    "mine_counts",
    "neighbours",
    "place_mines",
]

COVERED = "?"
FLAG = "F"
MINE = "X"

# Feedback strings (paper Table 2; the released code's spelling).
SAFE = "safe"
ADD_FLAG = "add flag"
REMOVE_FLAG = "remove flag"
WIN = "win"
GAME_OVER = "game over"
INVALID_ANSWER = "invalid answer, answer should be in the form of triples (action,row,col)."
INVALID_ANSWER_LEGACY = "invalid answer, answer should be in the form of triples (action,x,y)."
INVALID_POSITION = "invalid position, out of range."
INVALID_ACTION = "invalid action, action should be r or f."
ALREADY_REVEALED = "invalid operation, the area is already revealed."
FLAG_LIMIT = "invalid operation, the number of flags exceeds the number of mines."


class Status:
    """Values of :attr:`MinesweeperState.status`."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"  # a mine was revealed
    STEP_LIMIT = "step_limit"  # the step cap was reached without a win
    INVALID_LIMIT = "invalid_limit"  # too many invalid answers in a row

    ALL: ClassVar[tuple[str, ...]] = (PLAYING, WON, LOST, STEP_LIMIT, INVALID_LIMIT)


@dataclass(frozen=True, slots=True)
class MinesweeperState(GameState):
    """A Minesweeper position.

    Attributes:
        rows: Board height.
        cols: Board width.
        mines: Flat indices of the mines, sorted.
        view: One character per cell as the player sees it (see the module docstring).
        status: One of :class:`Status`.
        invalid_steps: Operations so far that were answered with an ``invalid ...`` string.
        consecutive_invalid: Invalid operations since the last valid one.
        feedback: The feedback string of the last operation (``""`` before the first).
    """

    rows: int
    cols: int
    mines: tuple[int, ...]
    view: str
    status: str
    invalid_steps: int
    consecutive_invalid: int
    feedback: str

    type_name: ClassVar[str] = "minesweeper"

    def validate(self) -> tuple[str, str] | None:
        """Check the board size, the mine list and the view's characters."""
        cells = self.rows * self.cols
        if self.rows < 1 or self.cols < 1:
            return ("rows", "rows and cols must be positive")
        if len(self.view) != cells or set(self.view) - set("?FX012345678"):
            return ("view", f"must be {cells} characters of '?', 'F', 'X' or '0'-'8'")
        if list(self.mines) != sorted(set(self.mines)) or any(
            not 0 <= m < cells for m in self.mines
        ):
            return ("mines", "must be sorted, unique cell indices on the board")
        if self.status not in Status.ALL:
            return ("status", f"must be one of {', '.join(Status.ALL)}")
        if self.view.count(FLAG) > len(self.mines):
            return ("view", "holds more flags than there are mines")
        return GameState.validate(self)

    @property
    def flags(self) -> int:
        """Number of flags on the board."""
        return self.view.count(FLAG)

    @property
    def started(self) -> bool:
        """Whether any cell has been revealed yet."""
        return any(ch not in (COVERED, FLAG) for ch in self.view)


@lru_cache(maxsize=64)
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each flat cell index, the flat indices of its (up to 8) neighbours."""
    result = []
    for r in range(rows):
        for c in range(cols):
            result.append(
                tuple(
                    rr * cols + cc
                    for rr in (r - 1, r, r + 1)
                    for cc in (c - 1, c, c + 1)
                    if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
                )
            )
    return tuple(result)


@lru_cache(maxsize=256)
def mine_counts(rows: int, cols: int, mines: tuple[int, ...]) -> tuple[int, ...]:
    """Number of neighbouring mines of every cell (mines included, for simplicity)."""
    counts = [0] * (rows * cols)
    around = neighbours(rows, cols)
    for m in mines:
        for n in around[m]:
            counts[n] += 1
    return tuple(counts)


def place_mines(seed: int, rows: int, cols: int, count: int) -> tuple[int, ...]:
    """Seeded mine placement (the released code's placement was unseeded)."""
    rng = derive_rng(seed, "minesweeper", "mines")
    return tuple(sorted(rng.sample(range(rows * cols), count)))


def relocate_first_mine(
    seed: int, rows: int, cols: int, mines: tuple[int, ...], cell: int
) -> tuple[int, ...]:
    """Move the mine under the first click to a seeded free cell (safe-first-click option)."""
    taken = set(mines)
    free = [i for i in range(rows * cols) if i not in taken and i != cell]
    if not free:
        return mines
    target = derive_rng(seed, "minesweeper", "first-click").choice(free)
    return tuple(sorted((taken - {cell}) | {target}))


def flood_reveal(view: str, rows: int, cols: int, mines: tuple[int, ...], start: int) -> str:
    """Reveal ``start`` (not a mine) and flood over zeros, replacing flags on the way."""
    counts = mine_counts(rows, cols, mines)
    around = neighbours(rows, cols)
    cells = list(view)
    mine_set = set(mines)
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cells[cell] not in (COVERED, FLAG) or cell in mine_set:
            continue
        cells[cell] = str(counts[cell])
        if counts[cell] == 0:
            queue.extend(n for n in around[cell] if cells[n] in (COVERED, FLAG))
    return "".join(cells)
