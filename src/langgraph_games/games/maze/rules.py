"""EvoEmpirBench maze rules: pure functions over a frozen state.

The grid is stored flat as one character per cell (``.`` empty, ``#`` wall, ``C`` coin,
``S``/``W``/``N``/``K`` shovel/sword/magnet/key); monsters are kept apart, so they never
overwrite what lies under them (the released grid did). ``seen`` marks the cells the agent
has had in its 3x3 view; the goal is always known.

One action moves ``1 + a % 3`` cells in direction ``a // 3`` (up, down, left, right). With
``path_checked`` moves (default) the agent walks cell by cell: it sees
and picks up what it walks over, and the move stops at the first wall (broken with a
shovel, else a life is lost) or monster on the way. ``teleport`` is the released move: the
agent lands on the target, jumping over whatever lies between. Then, as released: the
magnet pulls coins within 2 cells, monsters take their turn (each alternates choosing a
free neighbour and moving there), the agent collides with a monster standing on its cell
or about to move onto it, the coin under the agent is taken, and the goal ends the game
(in level 3 only with the key; without it the agent stops in front of the goal).

Scoring (the paper's table, applied on every path): -50 per step, +10 per newly explored
non-wall cell, +500 per coin, -1000 per life lost, +2000 for the goal, +500 per wall broken,
+500 per monster killed with the sword (the released code could never pay it) and item
bonuses shovel +100, sword +200, magnet +150, key +300.

This module holds the state and the constants; :mod:`~langgraph_games.games.maze.step`
applies one action.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games.maze.generator import Corners, MazeMap
from langgraph_games.games.state import GameState

__all__ = [
    "ACTIONS",
    "DIRECTIONS",
    "ITEM_CHARS",
    "MazeState",
    "Outcome",
    "Rewards",
    "action_name",
    "initial_maze_state",
    "look_around",
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
class MazeState(GameState, Corners):
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


def look_around(seen: list[str], size: int, cell: Cell) -> None:
    """Mark the 3x3 view around ``cell`` as seen (in place)."""
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
    look_around(seen, n, maze.start)
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
    return dataclasses.replace(state, initial_explored=state.explored)
