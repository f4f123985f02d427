"""Contests: which of two contradicting lessons stays active is decided by evidence.

When a candidate contradicts an active truth, TruthWeaver never keeps both active. It
asks an *arbiter* for a :class:`Contest`: the Agent-ExpVer loop's arbiter replays levels
with each lesson in the policy (the candidate's level and the truth's own) and compares
the scores; the loser is retired with ``superseded_by`` and the scores on both records.
Without replays to compare (TruthWeaver used on its own), :func:`newer_wins` lets the
newer verified lesson replace the older: a correction replaces what it corrects, and the
older one stays on record and can come back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langgraph_games.memory.records import Candidate
from langgraph_games.memory.truth_record import Truth

__all__ = ["Arbiter", "Contest", "newer_wins"]


@dataclass(frozen=True)
class Contest:
    """The outcome of one contest.

    Attributes:
        candidate_wins: Whether the candidate's side scored higher (a tie keeps the truth).
        levels: The levels played.
        candidate_score: The policy with the candidate, summed over ``levels``.
        incumbent_score: The policy with the truth it contradicts, likewise.
        detail: What was compared, in words (recorded in both histories).
    """

    candidate_wins: bool
    levels: tuple[str, ...] = ()
    candidate_score: float | None = None
    incumbent_score: float | None = None
    detail: str = ""


Arbiter = Callable[[Candidate, Truth, Sequence[Truth]], Contest]
"""``(candidate, the active truth it contradicts, every active truth) -> Contest``."""


def newer_wins(candidate: Candidate, incumbent: Truth, active: Sequence[Truth]) -> Contest:
    """The arbiter without replays: the candidate (the newer verified lesson) wins."""
    return Contest(
        candidate_wins=True,
        detail="no replays to compare: the newer verified lesson replaces the older",
    )
