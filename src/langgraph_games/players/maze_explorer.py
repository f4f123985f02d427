"""A maze explorer: breadth-first search over the part of the maze the agent has seen.

It uses only what the model is shown: the seen cells (all cells under full vision), the
always-visible goal, monsters standing on seen cells and its own items. It never steps on
an unseen cell, a wall, a monster or a cell next to a monster (unless it holds the
sword). Each decision it goes for, in order:

1. the nearest reachable coin or item (the key first among equals on level 3);
2. the goal, when a known path exists (on level 3 only with the key);
3. the nearest frontier cell (a seen, free cell next to an unseen one), ties broken by
   the distance to the goal.

The first leg of the chosen path becomes one action, moving up to three cells in a
straight line. When monsters leave no such path it searches again allowing cells next to
them (never onto them); with no target at all it steps to the free neighbour farthest from
the monsters, so that they keep moving (see ``_unstick``).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from langgraph_games.games.maze import Maze, MazeState
from langgraph_games.games.maze.rules import DIRECTIONS, WALL
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["MazeExplorer"]

Cell = tuple[int, int]
_COLLECTABLE = {"C": 1, "K": 0, "S": 1, "W": 1, "N": 1}  # lower sorts first on ties


class MazeExplorer(SearchPlayer):
    """Explores the known map by breadth-first search; see the module docstring.

    Args:
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import request_for
        >>> session = GameSession("maze", seed=3, level=1)
        >>> while not session.done:
        ...     _ = session.step(MazeExplorer().decide(request_for(session)).action)
        >>> session.state.outcome
        'goal'
    """

    instant = True

    def __init__(self, name: str = "maze_explorer") -> None:
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "maze_explorer"}``."""
        return {"kind": "maze_explorer"}

    def decide(self, request: DecisionRequest) -> Decision:
        """Choose the first move toward the current target."""
        start = time.perf_counter()
        game, state = request.game, request.state
        if not isinstance(game, Maze) or not isinstance(state, MazeState):
            raise ValueError(f"MazeExplorer plays the maze only, not {request.game_id}")
        action, target = _choose(state, game.options.full_vision)
        return Decision(
            action=action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"target": target},
        )


def _choose(state: MazeState, full_vision: bool, cautious: bool = True) -> tuple[str, str]:
    n = state.size

    def known(cell: Cell) -> bool:
        return full_vision or cell == state.goal or state.seen[cell[0] * n + cell[1]] == "1"

    monsters = {(m[0], m[1]) for m in state.monsters if known((m[0], m[1]))}
    danger: set[Cell] = set()
    if not state.sword:
        for r, c in monsters:
            danger.add((r, c))
            if cautious:
                danger.update({(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)})
    locked = state.level == 3 and not state.key

    def free(cell: Cell) -> bool:
        r, c = cell
        return (
            0 <= r < n
            and 0 <= c < n
            and known(cell)
            and state.at(cell) != WALL
            and cell not in danger
            and not (locked and cell == state.goal)
        )

    parents: dict[Cell, Cell | None] = {state.agent: None}
    order = [state.agent]
    queue = deque([state.agent])
    while queue:
        r, c = queue.popleft()
        for _, dr, dc in DIRECTIONS:
            nxt = (r + dr, c + dc)
            if nxt not in parents and free(nxt):
                parents[nxt] = (r, c)
                order.append(nxt)
                queue.append(nxt)
    depth = {cell: _depth(parents, cell) for cell in order}
    goal_r, goal_c = state.goal

    def to_goal(cell: Cell) -> int:
        return abs(cell[0] - goal_r) + abs(cell[1] - goal_c)

    items = [cell for cell in order[1:] if state.at(cell) in _COLLECTABLE and cell not in monsters]
    if items:
        target = min(items, key=lambda cell: (depth[cell], _COLLECTABLE[state.at(cell)], cell))
        return _first_move(parents, target), f"collect {state.at(target)} at {target}"
    if state.goal in parents:
        return _first_move(parents, state.goal), "goal"
    frontier = [
        cell
        for cell in order[1:]
        if any(
            not known((cell[0] + dr, cell[1] + dc))
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= cell[0] + dr < n and 0 <= cell[1] + dc < n
        )
    ]
    if frontier:
        target = min(frontier, key=lambda cell: (depth[cell], to_goal(cell), cell))
        return _first_move(parents, target), f"explore {target}"
    if cautious:  # boxed in by monsters: accept passing next to them
        return _choose(state, full_vision, cautious=False)
    return _unstick(state, monsters, known), "wait"


def _depth(parents: dict[Cell, Cell | None], cell: Cell) -> int:
    steps = 0
    parent = parents[cell]
    while parent is not None:
        steps += 1
        parent = parents[parent]
    return steps


def _first_move(parents: dict[Cell, Cell | None], target: Cell) -> str:
    """The action covering the first straight leg (up to 3 cells) of the path to ``target``."""
    path = [target]
    parent = parents[target]
    while parent is not None:
        path.append(parent)
        parent = parents[parent]
    path.reverse()
    (r0, c0), (r1, c1) = path[0], path[1]
    step = (r1 - r0, c1 - c0)
    direction = next(i for i, (_, dr, dc) in enumerate(DIRECTIONS) if (dr, dc) == step)
    run = 1
    while run < 3 and run + 1 < len(path):
        a, b = path[run], path[run + 1]
        if (b[0] - a[0], b[1] - a[1]) != step:
            break
        run += 1
    return str(direction * 3 + run - 1)


def _unstick(state: MazeState, monsters: set[Cell], known: Any) -> str:
    """A move when no target is reachable: keep time passing without walking into trouble.

    Moving off the grid would freeze the monsters (they only move on steps where the agent
    moves), so first try a one-cell move to a free cell, farthest from the monsters; then,
    with no monster in sight, wait off the grid; else walk into the blocking monster (a
    life for letting the monsters move again).
    """
    r, c = state.agent
    n = state.size
    moves = []
    for d, (_, dr, dc) in enumerate(DIRECTIONS):
        cell = (r + dr, c + dc)
        if (
            0 <= cell[0] < n
            and 0 <= cell[1] < n
            and known(cell)
            and state.at(cell) != WALL
            and cell not in monsters
            and not (state.level == 3 and not state.key and cell == state.goal)
        ):
            gap = min((abs(cell[0] - mr) + abs(cell[1] - mc) for mr, mc in monsters), default=n)
            moves.append((-gap, d))
    if moves:
        return str(min(moves)[1] * 3)
    if not monsters:
        for d, (_, dr, dc) in enumerate(DIRECTIONS):
            if not (0 <= r + dr < n and 0 <= c + dc < n):
                return str(d * 3)
    for d, (_, dr, dc) in enumerate(DIRECTIONS):
        if (r + dr, c + dc) in monsters:
            return str(d * 3)
    return "0"
