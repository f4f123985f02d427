"""Text views of Surround: GAMEBoT's trace and cell list for one seat, and a picture."""

from __future__ import annotations

from langgraph_games.games.surround.rules import COLS, CURRENT, LAST, ROWS, SurroundState

__all__ = ["grid_text", "observation_text", "render_text"]

SEAT_NAMES = ("Player 1", "Player 2")


def grid_text(grid: str) -> str:
    """All 800 cells as ``(row,col):code``, one grid row per line."""
    return "\n".join(
        " ".join(f"({r},{c}):{grid[r * COLS + c]}" for c in range(COLS)) for r in range(ROWS)
    )


def observation_text(state: SurroundState, player: int) -> str:
    """GAMEBoT's input for ``player``: its codes, its moving trace and the whole grid."""
    other = 1 - player
    trace = "->".join(f"({r},{c})" for r, c in state.traces[player])
    return (
        f"You are {SEAT_NAMES[player]}. Your current position is marked {CURRENT[player]} "
        f"and your last position {LAST[player]}; your opponent's current position is "
        f"marked {CURRENT[other]} and its last position {LAST[other]}.\n"
        f"Your moving trace:\n{trace}\n\n"
        f"Current Game State:\n{grid_text(state.grid)}"
    )


_SYMBOLS = {"0": ".", "1": "#", "5": "A", "4": "a", "3": "B", "2": "b"}


def render_text(state: SurroundState) -> str:
    """The grid with ``#`` walls, ``A``/``a`` Player 1's head/last cell, ``B``/``b`` Player 2's."""
    lines = [
        "".join(_SYMBOLS[ch] for ch in state.grid[r * COLS : (r + 1) * COLS]) for r in range(ROWS)
    ]
    notes = [f"{SEAT_NAMES[s]} crashed" for s in (0, 1) if state.crashed[s]]
    lines.append(f"step {state.turn}" + (": " + ", ".join(notes) if notes else ""))
    return "\n".join(lines)
