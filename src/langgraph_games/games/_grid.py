"""Helpers for k-in-a-row games on a rectangular grid stored as a flat string."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

__all__ = [
    "cell_name",
    "completes_line",
    "has_line",
    "labelled_rows",
    "line_score",
    "lines_through",
    "windows",
]

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def cell_name(row: int, col: int) -> str:
    """Canonical ``(row,col)`` string used by the GAMEBoT grid games."""
    return f"({row},{col})"


def labelled_rows(
    board: str, names: Sequence[str], cols: int, *, bottom_up: bool = False
) -> list[str]:
    """GAMEBoT's board listing: a line per row, each cell as ``name:character``.

    Args:
        board: One character per cell, row 0 first.
        names: The name of each cell, by flat index.
        cols: Cells per row.
        bottom_up: List the last row first (row 0 at the bottom).

    Example:
        >>> labelled_rows("XO_X", ["a", "b", "c", "d"], 2)
        ['a:X b:O', 'c:_ d:X']
    """
    rows = range(len(board) // cols)
    return [
        " ".join(f"{names[r * cols + c]}:{board[r * cols + c]}" for c in range(cols))
        for r in (reversed(rows) if bottom_up else rows)
    ]


@cache
def lines_through(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each cell index, every line of ``k`` cells through it, as the *other* cells.

    The flat index of ``(r, c)`` is ``r * cols + c``.
    """
    result: list[list[tuple[int, ...]]] = [[] for _ in range(rows * cols)]
    for r in range(rows):
        for c in range(cols):
            for dr, dc in _DIRECTIONS:
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                cells = tuple((r + dr * i) * cols + (c + dc * i) for i in range(k))
                for cell in cells:
                    result[cell].append(tuple(x for x in cells if x != cell))
    return tuple(tuple(lines) for lines in result)


def completes_line(
    board: str, cell: int, mark: str, lines: tuple[tuple[tuple[int, ...], ...], ...]
) -> bool:
    """Whether ``mark`` at ``cell`` would complete a line (whatever ``cell`` holds now)."""
    # Plain loops: this runs for every playable cell of every decision (ground truth),
    # and generator expressions cost about nine times as much here.
    for others in lines[cell]:
        for i in others:
            if board[i] != mark:
                break
        else:
            return True
    return False


def has_line(board: str, mark: str, lines: tuple[tuple[tuple[int, ...], ...], ...]) -> bool:
    """Whether ``board`` holds a complete line of ``mark`` anywhere."""
    return any(
        board[cell] == mark and completes_line(board, cell, mark, lines)
        for cell in range(len(board))
    )


@cache
def windows(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every line of ``k`` cells on the grid, once each, as sorted flat indices."""
    found = set()
    for cell, lines in enumerate(lines_through(rows, cols, k)):
        for others in lines:
            found.add(tuple(sorted((cell, *others))))
    return tuple(sorted(found))


_WINDOW_VALUE = (0.0, 1.0, 5.0, 25.0)


def line_score(
    board: str, marks: tuple[str, str], player: int, lines: tuple[tuple[int, ...], ...]
) -> float:
    """A search heuristic: open lines weighted by how full they are, ``player``'s minus the other's.

    A line holding only one player's marks is worth 1, 5 or 25 to them for 1, 2 or 3
    marks; a line holding both players' marks is worth nothing.
    """
    mine, theirs = marks[player], marks[1 - player]
    score = 0.0
    for window in lines:
        m = t = 0
        for i in window:
            ch = board[i]
            if ch == mine:
                m += 1
            elif ch == theirs:
                t += 1
        if m and not t:
            score += _WINDOW_VALUE[m] if m < len(_WINDOW_VALUE) else 0.0
        elif t and not m:
            score -= _WINDOW_VALUE[t] if t < len(_WINDOW_VALUE) else 0.0
    return score
