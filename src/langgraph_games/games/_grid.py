"""Helpers for k-in-a-row games on a rectangular grid stored as a flat string."""

from __future__ import annotations

from functools import cache

__all__ = ["cell_name", "completes_line", "has_line", "lines_through"]

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def cell_name(row: int, col: int) -> str:
    """Canonical ``(row,col)`` string used by the GAMEBoT grid games."""
    return f"({row},{col})"


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
