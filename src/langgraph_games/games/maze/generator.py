"""Seeded EvoEmpirBench maze generator and the fixed evaluation and training sets.

A map is an ``N x N`` grid with the start at the bottom-left ``(N-1, 0)`` and the goal at
the top-right ``(0, N-1)``. Walls come as pieces of the released shape family (crosses,
L-shapes, rectangles and lines): 2-3 pieces on level 1, 3-4 on level 2 and 4-6 on level 3,
with pieces up to 2 cells across on level 1 and 3 cells across otherwise. A layout is kept
only when the goal can be reached from the start without breaking a wall (breadth-first
search over the free cells, equivalent to the released search over 1-3 cell moves with
every crossed cell checked).

Then five coins, two monsters (levels 2 and 3) and the level-3 items (key always, then
shovel, sword and magnet) go on distinct free cells reachable from the start, so every
coin and item can be collected and the key is never walled off. Monsters do not start
next to the start cell (a monster there could cost a life before the first decision).

The fixed sets (30 evaluation and 10 training maps per level, as in the released
``data/levels/maze_eval`` and ``maze_train``) are generated from fixed seeds rather than
shipped as files; the same version of this module always gives the same maps, and a test
pins their fingerprint.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from langgraph_games.games.state import derive_rng

__all__ = [
    "DEFAULT_SIZES",
    "ITEMS",
    "MAP_SETS",
    "Corners",
    "MazeMap",
    "fixed_map",
    "generate_map",
    "reachable",
]

DEFAULT_SIZES = {1: 7, 2: 9, 3: 11}
"""Grid size per level in the released code; the paper's text says 9."""

MAP_SETS = {"eval": 30, "train": 10}
"""Fixed map sets and their sizes per level."""

ITEMS = ("key", "shovel", "sword", "magnet")
"""Level-3 items, in placement order."""

COINS = 5
MONSTERS = {1: 0, 2: 2, 3: 2}
PIECES = {1: (2, 3), 2: (3, 4), 3: (4, 6)}
PIECE_SPAN = {1: 2, 2: 3, 3: 3}

Cell = tuple[int, int]


class Corners:
    """The start and goal corners of a square maze of side ``size`` (a map or a state)."""

    __slots__ = ()
    size: int

    @property
    def start(self) -> Cell:
        """Bottom-left corner."""
        return (self.size - 1, 0)

    @property
    def goal(self) -> Cell:
        """Top-right corner."""
        return (0, self.size - 1)


@dataclass(frozen=True)
class MazeMap(Corners):
    """A maze level before play.

    Attributes:
        map_id: A readable name, e.g. ``"eval-L2-07"``.
        size: Grid side.
        level: 1-3.
        walls: Wall cells.
        coins: Coin cells.
        monsters: Monster start cells.
        items: ``(name, cell)`` of each level-3 item.
    """

    map_id: str
    size: int
    level: int
    walls: frozenset[Cell]
    coins: tuple[Cell, ...]
    monsters: tuple[Cell, ...]
    items: tuple[tuple[str, Cell], ...]


def _piece(rng: random.Random, size: int, span: int) -> list[Cell]:
    kind = rng.choice(("cross", "l_shape", "rectangle", "line"))
    if kind == "cross":
        r, c = rng.randrange(1, size - 1), rng.randrange(1, size - 1)
        return [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    if kind == "l_shape":
        r, c = rng.randrange(size), rng.randrange(size)
        dr, dc = rng.choice(((-1, 1), (1, 1), (1, -1), (-1, -1)))
        return [(r, c), (r + dr, c), (r, c + dc)]
    if kind == "rectangle":
        h, w = rng.randint(1, span), rng.randint(1, span)
        r, c = rng.randrange(size - h + 1), rng.randrange(size - w + 1)
        return [(r + i, c + j) for i in range(h) for j in range(w)]
    length = rng.randint(2, span)
    r, c = rng.randrange(size), rng.randrange(size)
    if rng.random() < 0.5:
        return [(r, c + i) for i in range(length)]
    return [(r + i, c) for i in range(length)]


def reachable(size: int, walls: frozenset[Cell] | set[Cell], start: Cell) -> set[Cell]:
    """Cells reachable from ``start`` through orthogonal steps between free cells."""
    seen = {start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            nxt = (nr, nc)
            if 0 <= nr < size and 0 <= nc < size and nxt not in walls and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _walls(rng: random.Random, size: int, level: int) -> frozenset[Cell]:
    """A wall layout where the goal and room for every object are reachable from the start."""
    start, goal = (size - 1, 0), (0, size - 1)
    needed = COINS + MONSTERS[level] + (len(ITEMS) if level == 3 else 0) + 2 + 8
    low, high = PIECES[level]
    for _ in range(1000):
        walls: set[Cell] = set()
        for _ in range(rng.randint(low, high)):
            for _ in range(100):
                cells = _piece(rng, size, PIECE_SPAN[level])
                if all(
                    0 <= r < size and 0 <= c < size and (r, c) not in (start, goal)
                    for r, c in cells
                ) and not walls.intersection(cells):
                    walls.update(cells)
                    break
        frozen = frozenset(walls)
        room = reachable(size, frozen, start)
        if goal in room and len(room) >= needed:
            return frozen
    return frozenset()  # pragma: no cover - 1000 blocked layouts in a row do not happen


def generate_map(rng: random.Random, size: int, level: int, map_id: str = "") -> MazeMap:
    """Generate one solvable map from ``rng``.

    Args:
        rng: The source of all choices (derive it from a seed for reproducible maps).
        size: Grid side (at least 5).
        level: 1, 2 or 3.
        map_id: Name to record in the map.

    Returns:
        The map; the goal, every coin, monster and item is reachable from the start.
    """
    walls = _walls(rng, size, level)
    start, goal = (size - 1, 0), (0, size - 1)
    free = sorted(reachable(size, walls, start) - {start, goal})
    rng.shuffle(free)
    coins = tuple(sorted(free[:COINS]))
    rest = free[COINS:]
    near_start = {(start[0] + dr, start[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    monster_cells = [cell for cell in rest if cell not in near_start][: MONSTERS[level]]
    rest = [cell for cell in rest if cell not in monster_cells]
    items = tuple(zip(ITEMS, rest[: len(ITEMS)], strict=False)) if level == 3 else ()
    return MazeMap(
        map_id=map_id,
        size=size,
        level=level,
        walls=walls,
        coins=coins,
        monsters=tuple(monster_cells),
        items=items,
    )


@lru_cache(maxsize=512)
def fixed_map(map_set: str, level: int, index: int, size: int | None = None) -> MazeMap:
    """Map ``index`` (1-based) of a fixed set, generated from the set's own seed.

    Raises:
        ValueError: Unknown set, level or index.

    Example:
        >>> m = fixed_map("eval", 2, 7)
        >>> m.map_id, m.size, len(m.coins), len(m.monsters)
        ('eval-L2-07', 9, 5, 2)
    """
    if map_set not in MAP_SETS:
        raise ValueError(f"unknown map set {map_set!r}; expected one of {sorted(MAP_SETS)}")
    if level not in DEFAULT_SIZES:
        raise ValueError(f"unknown level {level!r}; expected 1, 2 or 3")
    if not 1 <= index <= MAP_SETS[map_set]:
        raise ValueError(f"map_index must be 1-{MAP_SETS[map_set]} for the {map_set} set")
    side = size or DEFAULT_SIZES[level]
    rng = derive_rng("evoempirbench-maze", map_set, level, side, index)
    return generate_map(rng, side, level, f"{map_set}-L{level}-{index:02d}")
