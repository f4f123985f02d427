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

    def similar(self, vector: np.ndarray) -> list[tuple[float, str]]:
        n = len(self.ids)
        if n == 0:
            return []
        scores = self.rows[:n] @ vector
        order = np.argsort(-scores, kind="stable")
        return [(float(scores[i]), self.ids[i]) for i in order if self.alive[i]]


@dataclass
class State:
    truths: dict[str, Truth]
    known: set[str]
    by_text: dict[str, str]
    index: Index
    pending: dict[str, Truth] = field(default_factory=dict)

    def next_order(self) -> int:
        return max((t.order for t in self.truths.values()), default=0) + 1


@dataclass
class WeaveReport:
    """Counts of what one insert call did.

    Attributes:
        candidates: Candidates offered.
        added: Candidates that became an entry of their own.
        exact_duplicates: Dropped as a repeat of an entry (provenance attached to it).
        near_duplicates: Dropped as almost the same as an entry: similarity at least the
            duplicate threshold and the same content words
            (:func:`~langgraph_games.memory.meaning.same_meaning`); provenance attached.
        near_different: As similar as a near duplicate but worded differently where the
            meaning can change (a negation, number, direction or any other content word):
            not dropped, sent to the merge step (kept as its own entry when there is no
            model or the merge is refused).
        merged: Merged entries created (each replaces the entries it folds in).
        similar_kept: Similar to an entry but kept apart (no model, or it said SEPARATE).
        merge_failures: Model replies that could not be used; both entries kept.
        failure_reasons: ``merge_failures`` (and failed rewrites) by reason.
        already_present: Skipped because a live truth already records the candidate id.
        rewritten: Entries produced by a rewrite (``WeaveMode.REWRITE``).
    """

    candidates: int = 0
    added: int = 0
    exact_duplicates: int = 0
    near_duplicates: int = 0
    near_different: int = 0
    merged: int = 0
    similar_kept: int = 0
    merge_failures: int = 0
    failure_reasons: Counter[str] = field(default_factory=Counter)
    already_present: int = 0
    rewritten: int = 0
