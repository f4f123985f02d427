"""Minesweeper text views and the paper's answer parser.

The observation is the released environment's ``show()`` layout: a column-index header, a
``+ - - ...`` rule, one ``r | c c c`` line per row, then the lines ``Mines rest: N``,
``Revealed areas: (r,c): n, ...``, ``Unrevealed areas: (r,c), ...`` (flagged cells
included) and ``Flagged areas: (r,c), ...``. Boards wider than 10 columns pad the cells so
the columns stay aligned (the released layout assumed one-digit indices).
"""

from __future__ import annotations

import re

from langgraph_games.games._numbers import read_int
from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.minesweeper.rules import COVERED, FLAG, MINE

__all__ = ["TRIPLE", "board_text", "cell_name", "parse_triple", "render_text"]

TRIPLE = re.compile(r"([rf]),\s*(\d+),\s*(\d+)")
"""The released parser's pattern: the action letter, then row and column (last match wins)."""


def cell_name(index: int, cols: int) -> str:
    """``(row,col)`` of a flat index."""
    return f"({index // cols},{index % cols})"


def board_text(view: str, rows: int, cols: int, mines: int) -> str:
    """The observation: indexed board and the four summary lines."""
    width = len(str(max(rows, cols) - 1))
    lines = [" " * (width + 3) + "".join(str(c).ljust(width + 1) for c in range(cols))]
    lines.append(" " * width + " + " + "-".ljust(width + 1) * cols)
    for r in range(rows):
        row = view[r * cols : (r + 1) * cols]
        lines.append(f"{str(r).rjust(width)} | " + "".join(ch.ljust(width + 1) for ch in row))
    flags = view.count(FLAG)
    revealed = [i for i, ch in enumerate(view) if ch not in (COVERED, FLAG, MINE)]
    hidden = [i for i, ch in enumerate(view) if ch in (COVERED, FLAG)]
    flagged = [i for i, ch in enumerate(view) if ch == FLAG]
    lines.append(f"Mines rest: {mines - flags}")
    lines.append(
        "Revealed areas: " + "".join(f"{cell_name(i, cols)}: {view[i]}, " for i in revealed)
    )
    lines.append("Unrevealed areas: " + "".join(f"{cell_name(i, cols)}, " for i in hidden))
    lines.append("Flagged areas: " + "".join(f"{cell_name(i, cols)}, " for i in flagged))
    return "\n".join(line.rstrip() for line in lines)


def render_text(view: str, rows: int, cols: int, mines: tuple[int, ...], status: str) -> str:
    """A compact board for people; once the game is over, unrevealed mines show as ``*``."""
    shown = list(view)
    if status != "playing":
        for m in mines:
            if shown[m] in (COVERED, FLAG):
                shown[m] = "*" if shown[m] == COVERED else "F"
    width = len(str(max(rows, cols) - 1))
    lines = [" " * (width + 1) + " ".join(str(c).rjust(width) for c in range(cols))]
    for r in range(rows):
        cells = " ".join(ch.rjust(width) for ch in shown[r * cols : (r + 1) * cols])
        lines.append(f"{str(r).rjust(width)} {cells}")
    lines.append(f"status: {status}, flags {view.count(FLAG)}/{len(mines)}")
    return "\n".join(lines)


def parse_triple(text: str, rows: int, cols: int) -> ParsedAnswer:
    """Read the last ``r,row,col`` or ``f,row,col`` in ``text`` (the paper's parser).

    Spaces after the commas are allowed, as in the released regex. An off-board position
    yields no action and the paper's ``invalid position`` reason; no triple at all yields
    the ``invalid answer`` reason.

    Example:
        >>> parse_triple("The 2 means (7,1) and (7,2) are mines. Answer: f,7,2", 9, 9)
        ParsedAnswer(action='f,7,2', reason=None)
        >>> parse_triple("r, 12, 0", 9, 9).reason
        'invalid position, out of range.'
    """
    found = TRIPLE.findall(text)
    if not found:
        return ParsedAnswer(None, "no (action,row,col) triple found")
    letter, row_text, col_text = found[-1]
    row, col = read_int(row_text), read_int(col_text)
    if row is None or col is None or not (0 <= row < rows and 0 <= col < cols):
        return ParsedAnswer(None, "invalid position, out of range.")
    return ParsedAnswer(f"{letter},{row},{col}")
