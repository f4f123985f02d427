"""Negotiation v2 as GAMEBoT states it (paper Appendix B and H.8): pure rules.

The pool holds three item types, 8 to 12 items in all and at least one of each. Each
player privately values the item types with non-negative whole numbers such that the
whole pool is worth exactly 30 to it; no item type is worthless to both players. The
pool's size, its split into types and each player's values are drawn uniformly from the
episode seed (GAMEBoT's generator drew them the same way, except that it never gave the
third type fewer than three items, and it failed on pools such as [4, 4, 4] that no
whole-number values can price at 30; we draw again).

Player 1 (seat 0) proposes first; the players then alternate. In each round the player
to move either agrees to the opponent's latest proposal (the game ends and both receive
the value of their share of it) or makes a new proposal: how many items of each type
each player gets, which must add up to the pool. After round 8, before every further
round, the game ends with probability 20% and both players receive 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "AGREE",
    "ITEM_TYPES",
    "TOTAL_VALUE",
    "NegotiationState",
    "Proposal",
    "deal",
    "proposal_name",
    "read_proposal",
    "share_value",
    "splits",
]

ITEM_TYPES = 3
TOTAL_VALUE = 30
MIN_ITEMS, MAX_ITEMS = 8, 12
AGREE = "Agree"
SEAT_NAMES = ("Player1", "Player2")
OPEN, AGREED, NO_DEAL = "open", "agreed", "no_deal"

Proposal = tuple[int, int, int, int, int, int]
"""Player 1's counts of the three types, then Player 2's."""

Triple = tuple[int, int, int]

_COUNT = r"(\d{1,6})"  # bounded: a longer digit run is no count (and never reaches int())
_TRIPLE = rf"[\(\[]\s*{_COUNT}\s*,\s*{_COUNT}\s*,\s*{_COUNT}\s*[\)\]]"
# No two quantifiers that can take the same spaces stand next to each other (as
# ``\s*[:=]?\s*`` did): on a long run of spaces such a pair backtracks in quadratic time.
PROPOSAL_RE = re.compile(
    rf"P(?:layer)?\s*1\s*(?:[:=]\s*)?{_TRIPLE}\s*(?:[,;]\s*)?(?:and\s*)?"
    rf"P(?:layer)?\s*2\s*(?:[:=]\s*)?{_TRIPLE}",
    re.I,
)
AGREE_RE = re.compile(r"\bagree(?:d|ment)?\b", re.I)


@dataclass(frozen=True, slots=True)
class NegotiationState(GameState):
    """A negotiation in progress or finished.

    Attributes:
        pool: How many items of each type there are.
        values: Each seat's value of one item of each type.
        proposals: Every proposal so far, oldest first (Player 1 made the even ones).
        outcome: ``"open"``, ``"agreed"`` or ``"no_deal"`` (ended by chance).
    """

    pool: Triple
    values: tuple[Triple, Triple]
    proposals: tuple[Proposal, ...]
    outcome: str

    type_name: ClassVar[str] = "negotiation"

    @property
    def to_move(self) -> int:
        """The seat whose round it is: Player 1 on even rounds counted from 0."""
        return len(self.proposals) % 2

    @property
    def round(self) -> int:
        """The number of the round being played, from 1."""
        return len(self.proposals) + 1

    def validate(self) -> tuple[str, str] | None:
        """Check the pool, the values and every proposal."""
        if min(self.pool) < 1 or not MIN_ITEMS <= sum(self.pool) <= MAX_ITEMS:
            return ("pool", f"needs at least one of each type and {MIN_ITEMS}-{MAX_ITEMS} items")
        for seat, values in enumerate(self.values):
            if min(values) < 0 or share_value(values, self.pool) != TOTAL_VALUE:
                return (
                    f"values[{seat}]",
                    f"must be non-negative and value the pool at {TOTAL_VALUE}",
                )
        for i, proposal in enumerate(self.proposals):
            if not is_split(proposal, self.pool):
                return (f"proposals[{i}]", "does not divide the pool")
        if self.outcome not in (OPEN, AGREED, NO_DEAL):
            return ("outcome", f"must be one of {OPEN!r}, {AGREED!r}, {NO_DEAL!r}")
        return GameState.validate(self)


def share_value(values: Triple, counts: tuple[int, ...]) -> int:
    """What ``counts`` items are worth at ``values``.

    Example:
        >>> share_value((2, 5, 0), (2, 1, 1))  # the prompt's example: 2*2 + 5*1 + 0*1
        9
    """
    return sum(v * n for v, n in zip(values, counts, strict=True))


def is_split(proposal: Proposal, pool: Triple) -> bool:
    """Whether the two shares are non-negative and add up to the pool, type by type."""
    return len(proposal) == 2 * ITEM_TYPES and all(
        proposal[t] >= 0
        and proposal[t + ITEM_TYPES] >= 0
        and proposal[t] + proposal[t + ITEM_TYPES] == pool[t]
        for t in range(ITEM_TYPES)
    )


def splits(pool: Triple) -> list[Proposal]:
    """Every proposal that divides ``pool``."""
    return [
        (a, b, c, pool[0] - a, pool[1] - b, pool[2] - c)
        for a in range(pool[0] + 1)
        for b in range(pool[1] + 1)
        for c in range(pool[2] + 1)
    ]


def proposal_name(proposal: Proposal) -> str:
    """Canonical action string, e.g. ``"P1: (2,0,3), P2: (0,2,2)"``."""
    a, b, c, x, y, z = proposal
    return f"P1: ({a},{b},{c}), P2: ({x},{y},{z})"


def read_proposal(text: str) -> Proposal | None:
    """The counts of a ``P1: (x,y,z), P2: (x,y,z)`` text, whether or not they divide a pool."""
    match = PROPOSAL_RE.fullmatch(text.strip().strip("[]").strip())
    if match is None:
        return None
    a, b, c, x, y, z = (int(g) for g in match.groups())  # each a run of at most 6 digits
    return (a, b, c, x, y, z)


def _value_triples(pool: Triple) -> list[Triple]:
    return [
        (a, b, (TOTAL_VALUE - a * pool[0] - b * pool[1]) // pool[2])
        for a in range(TOTAL_VALUE // pool[0] + 1)
        for b in range((TOTAL_VALUE - a * pool[0]) // pool[1] + 1)
        if (TOTAL_VALUE - a * pool[0] - b * pool[1]) % pool[2] == 0
    ]


def deal(seed: int) -> tuple[Triple, tuple[Triple, Triple]]:
    """Draw the pool and both players' values from the seed."""
    rng = derive_rng(seed, 0, "deal")
    while True:
        size = rng.randint(MIN_ITEMS, MAX_ITEMS)
        pools = [(i, j, size - i - j) for i in range(1, size - 1) for j in range(1, size - i)]
        pool = rng.choice(pools)
        options = _value_triples(pool)
        if not options:  # e.g. [4, 4, 4]: no whole-number values add up to 30; draw again
            continue
        first, second = rng.choice(options), rng.choice(options)
        if all(first[t] or second[t] for t in range(ITEM_TYPES)):
            return pool, (first, second)


def ends_by_chance(seed: int, turn: int, next_round: int, after_round: int, chance: float) -> bool:
    """Whether the game ends before ``next_round`` (drawn only after ``after_round``)."""
    return next_round > after_round and derive_rng(seed, turn, "end").random() < chance
