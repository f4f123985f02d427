"""TruthWeaver's working state: the entries in memory and a similarity index over them."""

from __future__ import annotations

import hashlib
import json
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
