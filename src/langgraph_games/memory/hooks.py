"""The memory hook every strategy uses: a game's current truths, ready for a prompt.

Truths reach a prompt one way: a run (an evaluation, a training run) holds a
:class:`TruthSource` per game, reads it where it starts episodes and gives the texts to
the episode loop in its context (``EpisodeContext.truths``), which puts them in every
:class:`~langgraph_games.players.base.DecisionRequest`; strategies format them with
:func:`format_truths`. Nothing below the run reads the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from langgraph.store.base import BaseStore, SearchItem

from langgraph_games.memory._truth_io import read_truths
from langgraph_games.memory.records import (
    Truth,
    TruthStatus,
    aiterate,
    iterate,
    truths_namespace,
)

__all__ = [
    "TRUTHS_HEADING",
    "TruthSource",
    "aload_truths",
    "format_truths",
    "load_truths",
    "prompt_texts",
]

TRUTHS_HEADING = "Lessons from earlier games (verified by replaying; use them when they apply):"

_ACTIVE = {"status": TruthStatus.ACTIVE.value}


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
        limit: At most this many: without ``query`` the strongest ones (most verified
            evidence: :attr:`~langgraph_games.memory.truth_record.Truth.strength`, the
            verified wins behind it plus the contests it won), newest first among equals;
            with ``query`` the most relevant ones.
        query: Rank by semantic similarity to this text. Only a store with an index
            configured ranks by meaning; on a store that declares none
            (``index_config`` is ``None``) the query is not used and the truths come as
            without it.

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
    if query and _indexed(store):
        hits = store.search(namespace, query=query, filter=_ACTIVE, limit=limit or 10)
        return _texts(hits, namespace)
    return _choose(iterate(store, namespace, _ACTIVE), namespace, limit)


async def aload_truths(
    store: BaseStore | None,
    game: str,
    *,
    limit: int | None = None,
    query: str | None = None,
) -> list[str]:
    """Async :func:`load_truths` (``await store.asearch(...)``): the same truths, in the same order.

    Use it in async code: a store whose sync methods must not run on the event loop's
    thread (LangGraph Server's async stores) is only read through its async API.
    """
    if store is None or limit == 0:
        return []
    namespace = truths_namespace(game)
    if query and _indexed(store):
        hits = await store.asearch(namespace, query=query, filter=_ACTIVE, limit=limit or 10)
        return _texts(hits, namespace)
    return _choose(await aiterate(store, namespace, _ACTIVE), namespace, limit)


def _indexed(store: BaseStore) -> bool:
    """Whether ``store`` may rank by meaning: all but those that declare no index."""
    return getattr(store, "index_config", True) is not None


def _texts(hits: Sequence[SearchItem], namespace: tuple[str, ...]) -> list[str]:
    mine = [h for h in hits if tuple(h.namespace) == namespace]
    truths = read_truths(mine, namespace)
    return [truths[h.key].text for h in mine if h.key in truths and truths[h.key].active]


def _choose(
    items: Sequence[SearchItem], namespace: tuple[str, ...], limit: int | None
) -> list[str]:
    return prompt_texts(read_truths(items, namespace).values(), limit)


def prompt_texts(truths: Iterable[Truth], limit: int | None = None) -> list[str]:
    """The texts a prompt gets from ``truths`` (any statuses), as :func:`load_truths` chooses.

    The active ones, at most ``limit`` (the strongest), in the order they were made: for a
    caller that already holds the whole truth base and need not read the store again.
    """
    chosen = [t for t in truths if t.active]
    if limit is not None and len(chosen) > limit:
        chosen = sorted(chosen, key=lambda t: (-t.strength, -t.order, t.id))[:limit]
    chosen.sort(key=lambda t: (t.order, t.id))
    return [t.text for t in chosen]


class TruthSource:
    """A game's truths for prompts, read from a store once and kept until they change.

    A run holds one per game: it awaits :meth:`get` where it starts episodes and passes
    the texts to the episode loop (``run_episode(truths={seat: texts})``), so the store is
    read once per run, not once per episode, and one compiled episode graph serves every
    episode. Whoever changes the truth base during the run (TruthWeaver in training, when
    a round promotes or reverts lessons) calls :meth:`changed`, and the next :meth:`get`
    reads the store again; otherwise :meth:`get` returns what the first read returned.
    Reads go through the store's async API (see :func:`aload_truths`).

    Args:
        store: Where the truths are (``None``: there are none).
        game: Game id.
        limit: At most this many (see :func:`load_truths`).

    Attributes:
        reads: Store reads made so far (each :meth:`get` after a change makes one).

    Example:
        >>> import asyncio
        >>> from langgraph.store.memory import InMemoryStore
        >>> from langgraph_games.memory import Candidate, TruthWeaver
        >>> store = InMemoryStore()
        >>> weaver = TruthWeaver(store, "maze", mode="append")
        >>> _ = weaver.insert_many([Candidate(id="c1", text="Avoid walls.", round=1)])
        >>> source = TruthSource(store, "maze")
        >>> asyncio.run(source.get()), asyncio.run(source.get()), source.reads
        (('Avoid walls.',), ('Avoid walls.',), 1)
        >>> _ = weaver.insert_many([Candidate(id="c2", text="Take the key.", round=2)])
        >>> source.changed()
        >>> asyncio.run(source.get()), source.reads
        (('Avoid walls.', 'Take the key.'), 2)
    """

    def __init__(self, store: BaseStore | None, game: str, *, limit: int | None = None) -> None:
        self.store = store
        self.game = game
        self.limit = limit
        self.reads = 0
        self._texts: tuple[str, ...] | None = None

    async def get(self) -> tuple[str, ...]:
        """The truths: read from the store on the first call and after :meth:`changed`."""
        if self._texts is None:
            if self.store is not None and self.limit != 0:
                self.reads += 1
            self._texts = tuple(await aload_truths(self.store, self.game, limit=self.limit))
        return self._texts

    def changed(self) -> None:
        """The truth base was written: the next :meth:`get` reads it again."""
        self._texts = None


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
