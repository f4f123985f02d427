"""EvoEmpirBench Match-2 rules: pure functions over an 8x8 board of colours ``A``-``D``.

The board is 64 characters, row 0 at the top. Eliminating an orthogonally connected
same-colour group of at least two tiles scores ``5n + 3 * max(0, n - 2)``. Props (one of
each per level as released) cost score and need at least that much score: row 32,
col 32, bomb 12 (the 3x3 square around a cell, clipped at the edges), hammer 4 (one tile);
the tiles they clear count toward the colour targets but score nothing. Every action costs
one step. After each action the remaining tiles fall and new tiles drop in from the top,
drawn from the episode seed and the step number (the released refills were unseeded).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "COLOURS",
    "COSTS",
    "PROPS",
    "SIZE",
    "Match2State",
    "Outcome",
    "cells_cleared",
    "drop_and_refill",
    "elimination_score",
    "groups",
]

SIZE = 8
COLOURS = "ABCD"
PROPS = ("row", "col", "bomb", "hammer")
COSTS = {"row": 32, "col": 32, "bomb": 12, "hammer": 4}


class Outcome:
    """Values of :attr:`Match2State.outcome`."""

    PLAYING = ""
    CLEARED = "cleared"  # every colour target met
    OUT_OF_STEPS = "out_of_steps"
    STUCK = "stuck"  # no group of two and no affordable prop: nothing can ever change


@dataclass(frozen=True, slots=True)
class Match2State(GameState):
    """A Match-2 position.

    Attributes:
        level_id: Which level is played.
        board: 64 characters ``A``-``D``, row by row from the top.
        score: Points so far (eliminations minus prop costs).
        steps_left: Steps remaining.
        max_steps: The level's step allowance.
        inventory: Props left: row, col, bomb, hammer.
        targets: Tiles of each colour A-D to clear.
        counts: Tiles of each colour cleared so far.
        cleared: Tiles cleared so far, all colours.
        invalid_steps: Steps spent on invalid answers (``invalid_moves="step"`` only).
        outcome: ``""`` while playing, else ``cleared``, ``out_of_steps`` or ``stuck``.
    """

    level_id: str
    board: str
    score: int
    steps_left: int
    max_steps: int
    inventory: tuple[int, int, int, int]
    targets: tuple[int, int, int, int]
    counts: tuple[int, int, int, int]
    cleared: int
    invalid_steps: int
    outcome: str

    type_name: ClassVar[str] = "match2"

    def validate(self) -> tuple[str, str] | None:
        """Check the board and the counters."""
        if len(self.board) != SIZE * SIZE or set(self.board) - set(COLOURS):
            return ("board", f"must be {SIZE * SIZE} characters of A-D")
        if not 0 <= self.steps_left <= self.max_steps:
            return ("steps_left", "must be between 0 and max_steps")
        if min(self.inventory) < 0 or min(self.counts) < 0 or min(self.targets) < 0:
            return ("inventory", "inventory, targets and counts must not be negative")
        if self.outcome not in (
            Outcome.PLAYING,
            Outcome.CLEARED,
            Outcome.OUT_OF_STEPS,
            Outcome.STUCK,
        ):
            return ("outcome", "must be '', 'cleared', 'out_of_steps' or 'stuck'")
        return GameState.validate(self)

    @property
    def targets_met(self) -> bool:
        """Whether every colour target is reached."""
        return all(c >= t for c, t in zip(self.counts, self.targets, strict=True))

    @property
    def steps_used(self) -> int:
        """Steps spent so far."""
        return self.max_steps - self.steps_left


def elimination_score(n: int) -> int:
    """Points for eliminating ``n`` tiles: ``5n + 3 * max(0, n - 2)``."""
    return 5 * n + 3 * max(0, n - 2)


@lru_cache(maxsize=4096)
def groups(board: str) -> tuple[tuple[int, ...], ...]:
    """The group (sorted flat indices) each cell belongs to."""
    owner: list[tuple[int, ...] | None] = [None] * len(board)
    for start in range(len(board)):
        if owner[start] is not None:
            continue
        colour = board[start]
        members = [start]
        owner[start] = ()
        i = 0
        while i < len(members):
            cell = members[i]
            i += 1
            r, c = divmod(cell, SIZE)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                n = nr * SIZE + nc
                if 0 <= nr < SIZE and 0 <= nc < SIZE and owner[n] is None and board[n] == colour:
                    owner[n] = ()
                    members.append(n)
        group = tuple(sorted(members))
        for cell in group:
            owner[cell] = group
    return tuple(g for g in owner if g is not None)


def cells_cleared(kind: str, target: tuple[int, ...]) -> list[int]:
    """Flat cells a prop clears: ``row``/``col`` take ``(k,)``, bomb/hammer ``(row, col)``."""
    if kind == "row":
        return [target[0] * SIZE + c for c in range(SIZE)]
    if kind == "col":
        return [r * SIZE + target[0] for r in range(SIZE)]
    r, c = target
    if kind == "hammer":
        return [r * SIZE + c]
    return [
        rr * SIZE + cc
        for rr in range(max(0, r - 1), min(SIZE, r + 2))
        for cc in range(max(0, c - 1), min(SIZE, c + 2))
    ]


def drop_and_refill(board: str, cleared: set[int], seed: int, turn: int) -> str:
    """Remove ``cleared``, let tiles fall and fill each column from the top (seeded)."""
    rng = derive_rng(seed, turn, "match2-refill")
    cells = list(board)
    for c in range(SIZE):
        kept = [cells[r * SIZE + c] for r in range(SIZE) if r * SIZE + c not in cleared]
        fresh = [rng.choice(COLOURS) for _ in range(SIZE - len(kept))]
        for r, colour in enumerate(fresh + kept):
            cells[r * SIZE + c] = colour
    return "".join(cells)
