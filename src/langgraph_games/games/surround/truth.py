"""Surround ground truth (GAMEBoT Appendix B): neighbours, valid moves and safe moves."""

from __future__ import annotations

from langgraph_games.games.subproblems import Answer, normalize_item
from langgraph_games.games.surround.rules import (
    DIRECTIONS,
    SurroundState,
    neighbour_values,
    reachable,
    target,
)

__all__ = ["SAFE_CELLS", "neighbour_truth", "safety_truth", "surround_truth", "valid_moves"]

SAFE_CELLS = 10
"""A move is safe when at least this many connected empty cells (its own included) remain."""


def neighbour_truth(state: SurroundState, player: int) -> tuple[tuple[str, int], ...]:
    """Subproblem 1: ``(("down", v), ("left", v), ("right", v), ("up", v))``."""
    values = neighbour_values(state.grid, state.traces[player][-1])
    return tuple(sorted((action.split()[1].lower(), v) for action, v in values.items()))


def valid_moves(state: SurroundState, player: int) -> tuple[str, ...]:
    """The moves onto an empty cell, in ``DIRECTIONS`` order."""
    values = neighbour_values(state.grid, state.traces[player][-1])
    return tuple(action for action in DIRECTIONS if values[action] == 0)


def safety_truth(state: SurroundState, player: int) -> frozenset[str]:
    """Subproblem 3: each valid move labelled ``Safe`` or ``Unsafe`` (normalised items)."""
    head = state.traces[player][-1]
    items = set()
    for action in valid_moves(state, player):
        room = reachable(state.grid, target(head, action), limit=SAFE_CELLS)
        items.add(normalize_item(f"{action} {'Safe' if room >= SAFE_CELLS else 'Unsafe'}"))
    return frozenset(items)


def surround_truth(state: SurroundState, player: int) -> dict[int, Answer]:
    """All three subproblems for ``player``."""
    return {
        1: neighbour_truth(state, player),
        2: frozenset(normalize_item(a) for a in valid_moves(state, player)),
        3: safety_truth(state, player),
    }
