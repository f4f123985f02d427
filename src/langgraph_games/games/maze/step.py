"""One maze step: the agent's move, items, magnet, monsters, collisions and rewards.

The rules are described in :mod:`~langgraph_games.games.maze.rules`; this module applies
one action to a state and returns the next state with the step's events.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from langgraph_games.games.maze.rules import (
    COIN,
    DIRECTIONS,
    EMPTY,
    ITEM_NAMES,
    MAGNET_RANGE,
    SHOVEL_USES,
    WALL,
    Cell,
    MazeState,
    Monster,
    Outcome,
    Rewards,
    action_name,
    look_around,
)
from langgraph_games.games.state import derive_rng

__all__ = ["play"]


class _Step:
    """Mutable working copy of a state while one action is applied."""

    def __init__(self, state: MazeState) -> None:
        self.state = state
        self.n = state.size
        self.cells = list(state.cells)
        self.seen = list(state.seen)
        self.agent = state.agent
        self.monsters: list[Monster] = list(state.monsters)
        self.lives = state.lives
        self.coins = state.coins
        self.kills = state.kills
        self.walls_broken = state.walls_broken
        self.shovel_uses = state.shovel_uses
        self.items = {"sword": state.sword, "magnet": state.magnet, "key": state.key}
        self.reward = Rewards.STEP
        self.events: list[dict[str, Any]] = []
        self.outcome = Outcome.PLAYING

    def at(self, cell: Cell) -> str:
        return self.cells[cell[0] * self.n + cell[1]]

    def put(self, cell: Cell, ch: str) -> None:
        self.cells[cell[0] * self.n + cell[1]] = ch

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.n and 0 <= cell[1] < self.n

    def explored(self) -> int:
        return sum(
            1 for s, ch in zip(self.seen, self.cells, strict=True) if s == "1" and ch != WALL
        )

    def enter(self, cell: Cell) -> None:
        """Move onto ``cell``, look around and pick up an item lying there."""
        self.agent = cell
        look_around(self.seen, self.n, cell)
        name = ITEM_NAMES.get(self.at(cell))
        if name is None:
            return
        self.put(cell, EMPTY)
        self.reward += Rewards.ITEM[name]
        if name == "shovel":
            self.shovel_uses = SHOVEL_USES
        else:
            self.items[name] = True
        self.events.append({"type": "item", "item": name, "cell": list(cell)})

    def take_coin(self, cell: Cell) -> None:
        if self.at(cell) == COIN:
            self.put(cell, EMPTY)
            self.coins += 1
            self.reward += Rewards.COIN
            self.events.append({"type": "coin", "cell": list(cell)})

    def lose_life(self, cause: str) -> None:
        self.lives -= 1
        self.reward += Rewards.LIFE_LOST
        self.events.append({"type": "life_lost", "cause": cause, "cell": list(self.agent)})
        self.agent = self.state.start
        look_around(self.seen, self.n, self.agent)
        if self.lives <= 0:
            self.outcome = Outcome.DEAD

    def kill(self, index: int) -> None:
        r, c, *_ = self.monsters.pop(index)
        self.kills += 1
        self.reward += Rewards.KILL
        self.events.append({"type": "kill", "cell": [r, c]})

    def monster_on(self, cell: Cell) -> int | None:
        return next((i for i, m in enumerate(self.monsters) if (m[0], m[1]) == cell), None)

    def move_monsters(self) -> None:
        rng = derive_rng(self.state.seed, self.state.turn, "monsters")
        for i, (r, c, nr, nc, moving) in enumerate(self.monsters):
            if moving:
                self.monsters[i] = (nr, nc, nr, nc, False)
                continue
            others = {(m[0], m[1]) for j, m in enumerate(self.monsters) if j != i}
            options = [
                (r + dr, c + dc)
                for _, dr, dc in DIRECTIONS
                if self.inside((r + dr, c + dc))
                and self.at((r + dr, c + dc)) != WALL
                and (r + dr, c + dc) not in others
            ]
            if options:
                tr, tc = rng.choice(options)
                self.monsters[i] = (r, c, tr, tc, True)

    def collide(self) -> bool:
        """Resolve monsters on or about to step onto the agent; True if a life was lost."""
        hits = [
            i
            for i, (r, c, nr, nc, moving) in enumerate(self.monsters)
            if (r, c) == self.agent or (moving and (nr, nc) == self.agent)
        ]
        if not hits:
            return False
        if self.items["sword"]:
            for i in reversed(hits):
                self.kill(i)
            return False
        self.lose_life("monster")
        return True


def play(
    state: MazeState, action: int, *, teleport: bool, max_steps: int
) -> tuple[MazeState, list[dict[str, Any]]]:
    """Apply action ``action`` (0-11) and return the next state and its events."""
    step = _Step(state)
    _, dr, dc = DIRECTIONS[action // 3]
    distance = action % 3 + 1
    r0, c0 = state.agent
    path = [(r0 + dr * i, c0 + dc * i) for i in range(1, distance + 1)]
    step.events.append({"type": "move", "action": str(action), "name": action_name(action)})
    before = step.explored()
    if not step.inside(path[-1]):
        step.events.append({"type": "off_grid"})
    elif not _walk(step, path[-1:] if teleport else path, (dr, dc), teleport):
        _finish_move(step)
    explored_gain = max(0, step.explored() - before)
    step.reward += Rewards.NEW_CELL * explored_gain
    turn = state.turn + 1
    if step.outcome == Outcome.PLAYING and turn >= max_steps:
        step.outcome = Outcome.TIMEOUT
        step.events.append({"type": "timeout"})
    elif step.outcome == Outcome.DEAD:
        step.events.append({"type": "dead"})
    score = state.score + step.reward
    step.events.append(
        {"type": "reward", "reward": step.reward, "score": score, "new_cells": explored_gain}
    )
    new = dataclasses.replace(
        state,
        turn=turn,
        cells="".join(step.cells),
        seen="".join(step.seen),
        agent=step.agent,
        monsters=tuple(step.monsters),
        lives=step.lives,
        score=score,
        coins=step.coins,
        kills=step.kills,
        walls_broken=step.walls_broken,
        shovel_uses=step.shovel_uses,
        sword=step.items["sword"],
        magnet=step.items["magnet"],
        key=step.items["key"],
        outcome=step.outcome,
    )
    return new, step.events


def _walk(step: _Step, walk: list[Cell], direction: tuple[int, int], teleport: bool) -> bool:
    """Move along ``walk``; True when a life was lost on the way (the step then ends)."""
    state = step.state
    locked = state.level == 3 and not step.items["key"]
    for i, cell in enumerate(walk):
        if step.at(cell) == WALL:
            if step.shovel_uses > 0:
                step.put(cell, EMPTY)
                step.shovel_uses -= 1
                step.walls_broken += 1
                step.reward += Rewards.WALL_BROKEN
                step.events.append({"type": "wall_broken", "cell": list(cell)})
                step.enter(cell)
                break
            step.events.append({"type": "wall", "cell": list(cell)})
            step.lose_life("wall")
            return True
        if cell == state.goal and locked:
            step.events.append({"type": "goal_locked"})
            if teleport:
                back = (cell[0] - direction[0], cell[1] - direction[1])
                if step.inside(back) and step.at(back) != WALL:
                    step.enter(back)
            break
        step.enter(cell)
        if i == len(walk) - 1:
            break
        monster = step.monster_on(cell)
        if monster is not None:  # a monster in the way ends the move on its cell
            if not step.items["sword"]:
                step.lose_life("monster")
                return True
            step.kill(monster)
            break
        step.take_coin(cell)  # walked over
    return False


def _finish_move(step: _Step) -> None:
    """Magnet, monsters' turn, collisions, the coin underfoot and the goal."""
    if step.items["magnet"]:
        ar, ac = step.agent
        for r in range(max(0, ar - MAGNET_RANGE), min(step.n, ar + MAGNET_RANGE + 1)):
            for c in range(max(0, ac - MAGNET_RANGE), min(step.n, ac + MAGNET_RANGE + 1)):
                if (r, c) != step.agent:
                    step.take_coin((r, c))
    step.move_monsters()
    if step.collide():
        return
    step.take_coin(step.agent)
    if step.agent == step.state.goal:
        step.reward += Rewards.GOAL
        step.outcome = Outcome.GOAL
        step.events.append({"type": "goal"})
