"""A Surround player that keeps the most room: flood fill plus a territory count.

For each move onto an empty cell it floods the empty region that stays reachable from
the new head. If the opponent can still enter that region, the region is shared and the
move is scored by the cells the player reaches strictly before the opponent (a
breadth-first race from both heads); otherwise by the region's size. Moves next to the
opponent's head, where both might enter the same cell and crash, are penalised; among
equal moves it prefers the one with fewer free neighbours, which fills space tightly.
"""

from __future__ import annotations

import time
from collections import deque
from typing import cast

from langgraph_games.games.surround import SurroundState
from langgraph_games.games.surround.rules import COLS, DIRECTIONS, EMPTY, ROWS, target
from langgraph_games.players._games import require_game
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["SurroundSpacePlayer", "distances"]

Cell = tuple[int, int]
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def distances(
    grid: str, starts: list[Cell], blocked: frozenset[Cell] = frozenset()
) -> dict[Cell, int]:
    """Steps from the nearest of ``starts`` to every empty cell reachable from them.

    ``starts`` themselves get 0 whatever they hold; ``blocked`` cells are treated as walls.
    """
    seen = {cell: 0 for cell in starts}
    queue = deque(starts)
    while queue:
        r, c = queue.popleft()
        d = seen[(r, c)] + 1
        for dr, dc in _STEPS:
            nr, nc = r + dr, c + dc
            cell = (nr, nc)
            if cell in seen or cell in blocked or not (0 <= nr < ROWS and 0 <= nc < COLS):
                continue
            if grid[nr * COLS + nc] == EMPTY:
                seen[cell] = d
                queue.append(cell)
    return seen


class SurroundSpacePlayer(SearchPlayer):
    """Maximises the room it keeps (its share of a region shared with the opponent).

    Args:
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import request_for
        >>> session = GameSession("surround", seed=0)
        >>> SurroundSpacePlayer().decide(request_for(session, 0)).action
        'Move Left'
    """

    instant = True

    def __init__(self, name: str = "surround_space") -> None:
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "surround_space"}``."""
        return {"kind": "surround_space"}

    def scores(self, state: SurroundState, seat: int) -> dict[str, tuple[float, int]]:
        """Each move's score ``(room, -free neighbours)``; crashing moves score -1."""
        grid = state.grid
        head = state.traces[seat][-1]
        opponent = state.traces[1 - seat][-1]
        opponent_next = [
            t
            for t in (target(opponent, a) for a in DIRECTIONS)
            if grid[t[0] * COLS + t[1]] == EMPTY
        ]
        result: dict[str, tuple[float, int]] = {}
        for action in DIRECTIONS:
            cell = target(head, action)
            if grid[cell[0] * COLS + cell[1]] != EMPTY:
                result[action] = (-1.0, 0)
                continue
            mine = distances(grid, [cell])
            region = set(mine)
            shared = any(t in region for t in opponent_next if t != cell)
            if shared:
                theirs = distances(grid, [t for t in opponent_next if t != cell], frozenset({cell}))
                room = float(sum(1 for c, d in mine.items() if d < theirs.get(c, ROWS * COLS)))
            else:
                room = float(len(region))
            if cell in opponent_next:
                room -= 0.5 * room + 1  # both may move here: a crash for both
            free = sum(
                1 for dr, dc in _STEPS if grid[(cell[0] + dr) * COLS + cell[1] + dc] == EMPTY
            )
            result[action] = (room, -free)
        return result

    def decide(self, request: DecisionRequest) -> Decision:
        """The move with the best score (ties: the first in Up, Down, Left, Right)."""
        start = time.perf_counter()
        require_game(request, "surround", "surround_space")
        state = cast(SurroundState, request.state)
        scores = self.scores(state, request.player)
        action = max(DIRECTIONS, key=lambda a: scores[a])
        return Decision(
            action=action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"scores": {a: s[0] for a, s in scores.items()}},
        )
