"""Reading and writing truth records in a store: one rule for every reader and writer."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from langgraph.store.base import PutOp, SearchItem

from langgraph_games.memory.truth_record import (
    Truth,
    TruthFormatError,
    TruthVersionError,
    parse_truth,
)

__all__ = ["read_truths", "truth_ops"]

_log = logging.getLogger("langgraph_games.memory")


def truth_ops(namespace: tuple[str, ...], truths: Iterable[Truth]) -> list[PutOp]:
    """The store writes of ``truths``: only active entries are indexed for search.

    Retired entries are read by key, never searched, and leaving them unindexed keeps one
    batch from holding the same text twice for the index (which LangGraph's
    ``InMemoryStore`` cannot embed).
    """
    ops: list[PutOp] = []
    indexed: set[str] = set()
    for truth in truths:
        index = truth.active and truth.text not in indexed
        if index:
            indexed.add(truth.text)
        ops.append(PutOp(namespace, truth.id, truth.to_value(), index=["text"] if index else False))
    return ops


def read_truths(items: Sequence[SearchItem], namespace: tuple[str, ...]) -> dict[str, Truth]:
    """The truths among ``items`` by key; an item that is no truth is skipped with a warning.

    Raises:
        TruthVersionError: An item was written by a newer version (a newer ``format``).
    """
    out: dict[str, Truth] = {}
    for item in items:
        where = f"{'/'.join(namespace)}/{item.key}"
        try:
            out[item.key] = parse_truth(item.value, where)
        except TruthVersionError:
            raise
        except TruthFormatError as exc:
            _log.warning("skipped %s: not written by TruthWeaver (%s)", where, exc)
    return out
