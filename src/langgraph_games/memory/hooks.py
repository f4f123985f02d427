"""The memory hook every strategy uses: a game's current truths, ready for a prompt."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.store.base import BaseStore

from langgraph_games.memory.records import (
    Truth,
    TruthStatus,
    iterate,
    parse_record,
    truths_namespace,
)

__all__ = ["TRUTHS_HEADING", "format_truths", "load_truths"]

TRUTHS_HEADING = "Lessons from earlier games (verified by replaying; use them when they apply):"


def load_truths(
    store: BaseStore | None,
    game: str,
    *,
    limit: int | None = None,
    query: str | None = None,
) -> list[str]:
    """The active truths of ``game`` as plain strings, for a prompt.

    Args:
        store: Any LangGraph store holding ``("truths", game)``; ``None`` gives ``[]``, so a
            strategy can call this whether or not it was compiled with a store.
        game: Game id.
        limit: At most this many: without ``query`` the best supported ones (most
            verified wins, see :attr:`~langgraph_games.memory.records.Truth.support`),
            newest first among equals; with ``query`` the most relevant ones.
        query: Rank by semantic similarity to this text (needs an indexed store; an
            unindexed one returns them newest first).

    Returns:
        Truth texts in the order they were made (most relevant first with ``query``):
        ``limit`` chooses which truths, never their order.

    Example:
        >>> from langgraph.store.memory import InMemoryStore
        >>> from langgraph_games.memory import Candidate, TruthWeaver
        >>> store = InMemoryStore()
        >>> _ = TruthWeaver(store, "maze", mode="append").insert_many(
        ...     [Candidate(id="c1", text="Avoid walls.", round=1)])
        >>> load_truths(store, "maze"), load_truths(store, "othello"), load_truths(None, "maze")
        (['Avoid walls.'], [], [])
    """
    if store is None or limit == 0:
        return []
    namespace = truths_namespace(game)
    active = {"status": TruthStatus.ACTIVE.value}
    if query:
        hits = store.search(namespace, query=query, filter=active, limit=limit or 10)
        return [h.value["text"] for h in hits if tuple(h.namespace) == namespace]
    truths = [
        parse_record(Truth, it.value, f"{namespace}/{it.key}")
        for it in iterate(store, namespace, active)
    ]
    if limit is not None and len(truths) > limit:
        best = sorted(truths, key=lambda t: (-t.support, -t.order, t.id))[:limit]
        truths = best
    truths.sort(key=lambda t: (t.order, t.id))
    return [t.text for t in truths]


def format_truths(truths: Sequence[str], heading: str = TRUTHS_HEADING) -> str:
    """A numbered block to append to a system prompt; empty when there are no truths.

    Example:
        >>> print(format_truths(["Avoid walls.", "Take the key first."]))
        Lessons from earlier games (verified by replaying; use them when they apply):
        1. Avoid walls.
        2. Take the key first.
    """
    if not truths:
        return ""
    lines = [f"{i}. {' '.join(t.split())}" for i, t in enumerate(truths, 1)]
    return "\n".join([heading, *lines])
