"""Match-2 levels per difficulty, as the released generator makes them, and the fixed sets.

Per level: a random 8x8 board (redrawn until some group of two or more exists), a colour
target per colour drawn uniformly from the difficulty's range, one prop of each kind, and
``max(base + randint(0, 3), ceil(sum(targets) / 6))`` steps:

========== ====== ================
difficulty base   target per colour
========== ====== ================
easy       15     8-12
medium     12     12-16
hard       10     16-20
========== ====== ================

The fixed sets (30 evaluation levels per difficulty, as released, and 10 training levels)
are generated from fixed seeds instead of shipped as files; a test pins their fingerprint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import ceil

from langgraph_games.games.match2.rules import COLOURS, SIZE, groups
from langgraph_games.games.state import derive_rng

__all__ = ["DIFFICULTIES", "LEVEL_SETS", "Level", "fixed_level", "generate_level"]

DIFFICULTIES = {"easy": (15, (8, 12)), "medium": (12, (12, 16)), "hard": (10, (16, 20))}
"""Difficulty -> (base steps, (lowest, highest) target per colour)."""

LEVEL_SETS = {"eval": 30, "train": 10}
AVERAGE_CLEAR_PER_STEP = 6


@dataclass(frozen=True)
class Level:
    """A Match-2 level before play.

    Attributes:
        level_id: A readable name, e.g. ``"eval-hard-03"``.
        difficulty: ``easy``, ``medium`` or ``hard``.
        board: 64 characters A-D.
        max_steps: Step allowance.
        targets: Tiles to clear per colour A-D.
        inventory: Props: row, col, bomb, hammer.
    """

    level_id: str
    difficulty: str
    board: str
    max_steps: int
    targets: tuple[int, int, int, int]
    inventory: tuple[int, int, int, int] = (1, 1, 1, 1)


def generate_level(rng: random.Random, difficulty: str, level_id: str = "") -> Level:
    """Generate one level of ``difficulty`` from ``rng``.

    Raises:
        ValueError: Unknown difficulty.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; expected easy, medium or hard")
    base, (low, high) = DIFFICULTIES[difficulty]
    extra = rng.randint(0, 3)
    a, b, c, d = (rng.randint(low, high) for _ in COLOURS)
    targets = (a, b, c, d)
    steps = max(base + extra, ceil(sum(targets) / AVERAGE_CLEAR_PER_STEP))
    while True:
        board = "".join(rng.choice(COLOURS) for _ in range(SIZE * SIZE))
        if any(len(g) >= 2 for g in groups(board)):
            break
    return Level(level_id, difficulty, board, steps, targets)


@lru_cache(maxsize=256)
def fixed_level(level_set: str, difficulty: str, index: int) -> Level:
    """Level ``index`` (1-based) of a fixed set.

    Raises:
        ValueError: Unknown set or difficulty, or an index outside the set.

    Example:
        >>> level = fixed_level("eval", "hard", 3)
        >>> level.level_id, level.max_steps >= 10, all(16 <= t <= 20 for t in level.targets)
        ('eval-hard-03', True, True)
    """
    if level_set not in LEVEL_SETS:
        raise ValueError(f"unknown level set {level_set!r}; expected one of {sorted(LEVEL_SETS)}")
    if not 1 <= index <= LEVEL_SETS[level_set]:
        raise ValueError(f"map_index must be 1-{LEVEL_SETS[level_set]} for the {level_set} set")
    rng = derive_rng("evoempirbench-match2", level_set, difficulty, index)
    return generate_level(rng, difficulty, f"{level_set}-{difficulty}-{index:02d}")
