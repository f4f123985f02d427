"""Ground truth of GAMEBoT's Othello subproblems.

1. Corner: whether a legal move takes a corner now.
2. Wedges: every legal move on an edge square that lies inside a run of 1, 3 or 5
   consecutive empty edge squares bordered at both ends, along that edge, by opponent
   discs. The prompt describes wedges with gaps of 1, 3 or 5; the released checker only
   handled a gap of 1. Stability of the bordering discs is not
   required, as in the released checker; our prompt states the same definition.
"""

from __future__ import annotations

from langgraph_games.games.othello.rules import (
    COLORS,
    CORNERS,
    EMPTY,
    SIZE,
    legal_moves,
    square_name,
)

__all__ = ["EDGES", "can_take_corner", "wedge_moves"]

EDGES: tuple[tuple[int, ...], ...] = (
    tuple(range(0, SIZE)),  # row 1
    tuple(range(SIZE * (SIZE - 1), SIZE * SIZE)),  # row 8
    tuple(range(0, SIZE * SIZE, SIZE)),  # column A
    tuple(range(SIZE - 1, SIZE * SIZE, SIZE)),  # column H
)
WEDGE_GAPS = (1, 3, 5)


def can_take_corner(board: str, player: int) -> bool:
    """Whether ``player`` has a legal move on a corner."""
    return any(i in CORNERS for i in legal_moves(board, player))


def wedge_moves(board: str, player: int) -> frozenset[str]:
    """Legal moves of ``player`` that create a wedge (see the module docstring)."""
    moves = legal_moves(board, player)
    them = COLORS[1 - player]
    found: set[str] = set()
    for edge in EDGES:
        i = 0
        while i < len(edge):
            if board[edge[i]] != EMPTY:
                i += 1
                continue
            j = i
            while j < len(edge) and board[edge[j]] == EMPTY:
                j += 1
            gap = edge[i:j]
            bordered = i > 0 and j < len(edge) and board[edge[i - 1]] == them == board[edge[j]]
            if bordered and len(gap) in WEDGE_GAPS:
                found.update(square_name(k) for k in gap if k in moves)
            i = j
    return frozenset(found)
