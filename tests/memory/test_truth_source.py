"""The one way truths reach prompts: TruthSource reads once, re-reads after a change, async."""

from __future__ import annotations

import pytest

from langgraph_games.memory import (
    Candidate,
    TruthSource,
    TruthStatus,
    TruthWeaver,
    aload_truths,
    load_truths,
)
from memory_fakes import AsyncOnlyStore, BagOfWords, relation_judge

WALLS = "avoid walls because each wall hit costs one life"
WALLS_SIMILAR = "stay away from walls since each wall hit costs one life"
KEY = "pick up the key before you go to the goal"
MONSTERS = "monsters move 2 cells per turn so keep 3 cells away"


def cand(cid: str, text: str, round_: int = 1) -> Candidate:
    return Candidate(id=cid, text=text, round=round_)


async def test_a_source_reads_once_until_told_the_truths_changed() -> None:
    store = AsyncOnlyStore()
    weaver = TruthWeaver(store.inner, "maze", mode="append", embeddings=BagOfWords())
    weaver.insert_many([cand("c1", WALLS)])
    source = TruthSource(store, "maze")
    assert await source.get() == (WALLS,) and await source.get() == (WALLS,)
    assert source.reads == store.searches == 1
    weaver.insert_many([cand("c2", KEY, 2)])
    assert await source.get() == (WALLS,)  # not told: the run's truths stay as read
    source.changed()
    assert await source.get() == (WALLS, KEY) and source.reads == 2
    assert await TruthSource(store, "maze", limit=0).get() == ()
    assert await TruthSource(None, "maze").get() == ()
    assert store.searches == 2  # neither a limit of 0 nor no store reads anything


async def test_async_reads_and_revert_match_the_sync_ones_on_an_async_only_store() -> None:
    store = AsyncOnlyStore()
    model = relation_judge({(WALLS_SIMILAR, WALLS): "more_specific"})
    sync = TruthWeaver(store.inner, "maze", model=model, embeddings=BagOfWords())
    sync.insert_many([cand("c1", WALLS), cand("c2", KEY)])
    sync.insert_many([cand("c3", WALLS_SIMILAR, 2), cand("c4", KEY, 2), cand("c5", MONSTERS, 2)])
    for limit in (None, 1, 2):
        assert await aload_truths(store, "maze", limit=limit) == load_truths(
            store.inner, "maze", limit=limit
        )
    weaver = TruthWeaver(store, "maze", embeddings=BagOfWords())
    with pytest.raises(RuntimeError, match="synchronous call"):
        weaver.truths()
    assert await weaver.atruths(None) == sync.truths(None)
    report = await weaver.arevert_round(2)
    assert (report.reverted, report.restored, report.detached) == (2, 1, 1)
    assert sorted(load_truths(store.inner, "maze")) == sorted([WALLS, KEY])  # refined undone
    assert {t.status for t in await weaver.atruths(None) if t.round == 2} == {TruthStatus.REVERTED}
