"""The truth base as the Agent-ExpVer loop sees it: read once, again only after a change.

One round needs the whole truth base several times (the lessons reverted earlier for
InsightForce's prompt, what became of the promoted candidates, what the round changed,
whether to revert) and the prompt's truths (GeoLink's episodes). :class:`RunTruths` serves
all of them from one read, and after a weave from what TruthWeaver wrote
(:meth:`~langgraph_games.memory.truth_weaver.TruthWeaver.written`), so a round reads the
truth base once: TruthWeaver's own read before it inserts.
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph_games.memory.hooks import prompt_texts
from langgraph_games.memory.records import Truth
from langgraph_games.memory.truth_weaver import TruthWeaver

__all__ = ["RunTruths"]


class RunTruths:
    """A game's truth base for one loop: every entry, and the texts a prompt gets.

    The loop's writers (a weave, a revert) call :meth:`changed`, handing over the truth
    base they wrote when they know it; otherwise the next read goes to the store. Run it
    where TruthWeaver is the truth base's single writer (the ExpVer loop's rule).

    Args:
        weaver: The loop's TruthWeaver (reads go through it).
        limit: At most this many truths in a prompt (the strongest; see
            :func:`~langgraph_games.memory.hooks.load_truths`).

    Attributes:
        reads: Reads of the store so far.

    Example:
        >>> import asyncio
        >>> from langgraph.store.memory import InMemoryStore
        >>> from langgraph_games.memory import Candidate
        >>> weaver = TruthWeaver(InMemoryStore(), "maze", mode="append")
        >>> truths = RunTruths(weaver)
        >>> _ = weaver.insert_many([Candidate(id="c1", text="Avoid walls.", round=1)])
        >>> truths.changed(weaver.written())
        >>> asyncio.run(truths.get()), truths.reads
        (('Avoid walls.',), 0)
    """

    def __init__(self, weaver: TruthWeaver, limit: int | None = None) -> None:
        self.weaver = weaver
        self.limit = limit
        self.reads = 0
        self._all: list[Truth] | None = None
        self._prompt: tuple[str, ...] | None = None

    async def all(self) -> list[Truth]:
        """Every entry, whatever its status, in the order they were made."""
        if self._all is None:
            self.reads += 1
            self._all = await self.weaver.atruths(status=None)
        return self._all

    async def get(self) -> tuple[str, ...]:
        """The texts GeoLink's prompt gets (the active truths, at most ``limit``)."""
        if self._prompt is None:
            chosen = [] if self.limit == 0 else prompt_texts(await self.all(), self.limit)
            self._prompt = tuple(chosen)
        return self._prompt

    def changed(self, truths: Sequence[Truth] | None = None) -> None:
        """The truth base was written: ``truths`` is what it holds now (``None``: read it)."""
        self._all = None if truths is None else list(truths)
        self._prompt = None
