"""EvoEmpirBench maze rules: pure functions over a frozen state.

The grid is stored flat as one character per cell (``.`` empty, ``#`` wall, ``C`` coin,
``S``/``W``/``N``/``K`` shovel/sword/magnet/key); monsters are kept apart, so they never
overwrite what lies under them (the released grid did). ``seen`` marks the cells the agent
has had in its 3x3 view; the goal is always known.

One action moves ``1 + a % 3`` cells in direction ``a // 3`` (up, down, left, right). With
``path_checked`` moves (default, reference note E2) the agent walks cell by cell: it sees
and picks up what it walks over, and the move stops at the first wall (broken with a
shovel, else a life is lost) or monster on the way. ``teleport`` is the released move: the
agent lands on the target, jumping over whatever lies between. Then, as released: the
magnet pulls coins within 2 cells, monsters take their turn (each alternates choosing a
free neighbour and moving there), the agent collides with a monster standing on its cell
or about to move onto it, the coin under the agent is taken, and the goal ends the game
(in level 3 only with the key; without it the agent stops in front of the goal).

Scoring (the paper's table, applied on every path, reference note E3): -50 per step,
+10 per newly explored non-wall cell, +500 per coin, -1000 per life lost, +2000 for the
goal, +500 per wall broken, +500 per monster killed with the sword (note E4: released
code could never pay it) and item bonuses shovel +100, sword +200, magnet +150, key +300.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from langgraph_games.games.maze.generator import MazeMap
from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "ACTIONS",
    "DIRECTIONS",
    "ITEM_CHARS",
    "MazeState",
    "Outcome",
    "Rewards",
    "action_name",
    "initial_maze_state",
    "play",
]

EMPTY, WALL, COIN = ".", "#", "C"
ITEM_CHARS = {"shovel": "S", "sword": "W", "magnet": "N", "key": "K"}
ITEM_NAMES = {ch: name for name, ch in ITEM_CHARS.items()}
DIRECTIONS = (("UP", -1, 0), ("DOWN", 1, 0), ("LEFT", 0, -1), ("RIGHT", 0, 1))
ACTIONS = tuple(sorted(str(a) for a in range(12)))
LIVES = 3
VISION = 1
MAGNET_RANGE = 2
SHOVEL_USES = 3

Cell = tuple[int, int]
Monster = tuple[int, int, int, int, bool]  # row, col, next row, next col, moving


class Rewards:
    """Score changes (paper Appendix B scoring table plus the released item bonuses)."""

    STEP = -50
    NEW_CELL = 10
    COIN = 500
    LIFE_LOST = -1000
    GOAL = 2000
    WALL_BROKEN = 500
    KILL = 500
    ITEM: ClassVar[dict[str, int]] = {"shovel": 100, "sword": 200, "magnet": 150, "key": 300}


class Outcome:
    """Values of :attr:`MazeState.outcome`."""

    PLAYING = ""
    GOAL = "goal"
    DEAD = "dead"
    TIMEOUT = "timeout"


def action_name(action: int) -> str:
    """``"Move RIGHT 2 steps"`` for action 10."""
    name, _, _ = DIRECTIONS[action // 3]
    steps = action % 3 + 1
    return f"Move {name} {steps} step{'s' if steps > 1 else ''}"


@dataclass(frozen=True, slots=True)
class MazeState(GameState):
    """A maze position.

    Attributes:
        size: Grid side.
        level: 1-3.
        map_id: Which map is being played.
        cells: One character per cell (see the module docstring).
        seen: ``1`` for every cell the agent has had in view, else ``0``.
        agent: The agent's cell.
        monsters: ``(row, col, next_row, next_col, moving)`` of each living monster.
        lives: Lives left.
        score: Sum of the step rewards so far.
        coins: Coins collected.
        kills: Monsters killed.
        walls_broken: Walls broken with the shovel.
        shovel_uses: Shovel uses left (0 when no shovel is held).
        sword: Whether the sword is held.
        magnet: Whether the magnet is held.
        key: Whether the key is held.
        initial_explored: Non-wall cells in view at the start (not rewarded).
        outcome: ``""`` while playing, else ``goal``, ``dead`` or ``timeout``.
    """

    size: int
    level: int
    map_id: str
    cells: str
    seen: str
    agent: tuple[int, int]
    monsters: tuple[tuple[int, int, int, int, bool], ...]
    lives: int
    score: int
    coins: int
    kills: int
    walls_broken: int
    shovel_uses: int
    sword: bool
    magnet: bool
    key: bool
    initial_explored: int
    outcome: str

    type_name: ClassVar[str] = "maze"

    def validate(self) -> tuple[str, str] | None:
        """Check sizes, characters and positions."""
        n = self.size * self.size
        if self.size < 3:
            return ("size", "must be at least 3")
        if len(self.cells) != n or set(self.cells) - set(".#C" + "".join(ITEM_CHARS.values())):
            return ("cells", f"must be {n} characters of '.', '#', 'C', 'S', 'W', 'N', 'K'")
        if len(self.seen) != n or set(self.seen) - {"0", "1"}:
            return ("seen", f"must be {n} characters of '0' or '1'")
        if not all(0 <= v < self.size for v in self.agent):
            return ("agent", "must be on the grid")
        if self.level not in (1, 2, 3):
            return ("level", "must be 1, 2 or 3")
        if self.outcome not in ("", Outcome.GOAL, Outcome.DEAD, Outcome.TIMEOUT):
            return ("outcome", "must be '', 'goal', 'dead' or 'timeout'")
        return GameState.validate(self)

    @property
    def start(self) -> Cell:
        """Bottom-left corner."""
        return (self.size - 1, 0)

    @property
    def goal(self) -> Cell:
        """Top-right corner."""
        return (0, self.size - 1)

    def at(self, cell: Cell) -> str:
        """The character of ``cell``."""
        return self.cells[cell[0] * self.size + cell[1]]

    @property
    def explored(self) -> int:
        """Seen cells that are not walls."""
        return sum(
            1 for s, ch in zip(self.seen, self.cells, strict=True) if s == "1" and ch != WALL
        )

    @property
    def explorable(self) -> int:
        """Cells that are not walls."""
        return self.size * self.size - self.cells.count(WALL)


def _see(seen: list[str], size: int, cell: Cell) -> None:
    r, c = cell
    for rr in range(max(0, r - VISION), min(size, r + VISION + 1)):
        for cc in range(max(0, c - VISION), min(size, c + VISION + 1)):
            seen[rr * size + cc] = "1"


def initial_maze_state(maze: MazeMap, seed: int) -> MazeState:
    """The start of an episode on ``maze``."""
    n = maze.size
    cells = [EMPTY] * (n * n)
    for r, c in maze.walls:
        cells[r * n + c] = WALL
    for r, c in maze.coins:
        cells[r * n + c] = COIN
    for name, (r, c) in maze.items:
        cells[r * n + c] = ITEM_CHARS[name]
    seen = ["0"] * (n * n)
    _see(seen, n, maze.start)
    state = MazeState(
        seed=seed,
        turn=0,
        size=n,
        level=maze.level,
        map_id=maze.map_id,
        cells="".join(cells),
        seen="".join(seen),
        agent=maze.start,
        monsters=tuple((r, c, r, c, False) for r, c in maze.monsters),
        lives=LIVES,
        score=0,
        coins=0,
        kills=0,
        walls_broken=0,
        shovel_uses=0,
        sword=False,
        magnet=False,
        key=False,
        initial_explored=0,
        outcome=Outcome.PLAYING,
    )
    return _replace(state, initial_explored=state.explored)


def _replace(state: MazeState, **changes: Any) -> MazeState:
    return dataclasses.replace(state, **changes)


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
        _see(self.seen, self.n, cell)
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
        _see(self.seen, self.n, self.agent)
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
    new = _replace(
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
