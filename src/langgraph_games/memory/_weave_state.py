"""TruthWeaver's working state: its entries, their similarity index, an insert's report.

The report lives here, not in ``truth_weaver``, so the rewrite step can use it without
importing the weaver.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from langgraph_games.memory.records import Truth


def digest(*parts: Any) -> str:
    """A short stable id from JSON-able parts."""
    return hashlib.sha1(json.dumps(parts).encode(), usedforsecurity=False).hexdigest()[:16]


def common(values: Iterable[str | None]) -> str | None:
    """The value all ``values`` share, or None."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


class Index:
    """Unit vectors of the active entries, for cosine similarity by one matrix product."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.rows = np.zeros((0, 0), dtype=np.float32)
        self.alive = np.zeros(0, dtype=bool)

    def add(self, truth_id: str, vector: np.ndarray) -> None:
        n = len(self.ids)
        if n == 0 and len(self.rows) == 0:
            self.rows = np.zeros((16, len(vector)), dtype=np.float32)
            self.alive = np.zeros(16, dtype=bool)
        if n == len(self.rows):
            self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
            self.alive = np.concatenate([self.alive, np.zeros_like(self.alive)])
        self.ids.append(truth_id)
        self.rows[n] = vector
        self.alive[n] = True

    def remove(self, truth_id: str) -> None:
        for i, known in enumerate(self.ids):
            if known == truth_id:
                self.alive[i] = False

    def __contains__(self, truth_id: object) -> bool:
        return any(known == truth_id and self.alive[i] for i, known in enumerate(self.ids))

    def similar(self, vector: np.ndarray) -> list[tuple[float, str]]:
        n = len(self.ids)
        if n == 0:
            return []
        scores = self.rows[:n] @ vector
        order = np.argsort(-scores, kind="stable")
        return [(float(scores[i]), self.ids[i]) for i in order if self.alive[i]]


@dataclass
class State:
    """The truth base as an insert works on it.

    Attributes:
        truths: Every entry by id.
        known: Candidate ids already recorded (inserting them again is a no-op).
        by_text: Active entries by normalised text.
        retired_by_text: Superseded, reverted and deleted entries by normalised text.
        index: Vectors of every entry that is not merged (active and retired).
        pending: Entries changed since the last write.
    """

    truths: dict[str, Truth]
    known: set[str]
    by_text: dict[str, str]
    index: Index
    pending: dict[str, Truth] = field(default_factory=dict)
    retired_by_text: dict[str, str] = field(default_factory=dict)

    def next_order(self) -> int:
        return max((t.order for t in self.truths.values()), default=0) + 1


@dataclass
class WeaveReport:
    """Counts of what one insert call did, and what happened to each candidate.

    Attributes:
        candidates: Candidates offered.
        added: Candidates that became an active entry of their own.
        exact_duplicates: Repeats of an entry's text, recorded on it (support).
        near_duplicates: Almost the same words as an entry (the path without a model:
            similarity at least the duplicate threshold and the same content words),
            recorded on it.
        same_meaning: Worded differently, same meaning (the relation check): recorded on
            the entry, which keeps its text.
        supported: Said part of what an entry says: recorded on it as support.
        refined: Entries replaced by a candidate that says more than they do.
        contradictions: Contests between a candidate and an entry it contradicts.
        superseded: Entries (or candidates) retired by losing a contest.
        restored: Retired entries brought back by a candidate that means them and won.
        refused: Candidates that mean a retired lesson and came with no new evidence.
        unresolved: Relation replies that could not be read (the lessons were kept apart).
        relation_calls: Model calls made by the relation check.
        near_different: (without a model) as similar as a near duplicate but worded
            differently where the meaning can change: kept as an entry of its own.
        similar_kept: (without a model) similar to an entry and kept apart.
        merged: Merged entries created (``rewrite`` mode and format-1 stores).
        merge_failures: Rewrite replies that could not be used.
        failure_reasons: ``merge_failures`` by reason.
        already_present: Skipped because the truth base already records the candidate id.
        rewritten: Entries produced by a rewrite (``WeaveMode.REWRITE``).
        outcomes: What happened to each candidate, in words, by candidate id.
    """

    candidates: int = 0
    added: int = 0
    exact_duplicates: int = 0
    near_duplicates: int = 0
    same_meaning: int = 0
    supported: int = 0
    refined: int = 0
    contradictions: int = 0
    superseded: int = 0
    restored: int = 0
    refused: int = 0
    unresolved: int = 0
    relation_calls: int = 0
    near_different: int = 0
    similar_kept: int = 0
    merged: int = 0
    merge_failures: int = 0
    failure_reasons: Counter[str] = field(default_factory=Counter)
    already_present: int = 0
    rewritten: int = 0
    outcomes: dict[str, str] = field(default_factory=dict)
