"""An episode taking turns gives its turn up while it waits on the store."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from langgraph_games.memory import ChromaStore
from langgraph_games.models.turns import taking_turns


def test_another_episode_gets_the_turn_at_once_while_one_waits_on_the_store(
    memory_store: ChromaStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = memory_store._execute

    def execute(*args: Any) -> Any:
        time.sleep(0.2)  # a slow disk, in the store's worker thread
        return slow(*args)

    monkeypatch.setattr(memory_store, "_execute", execute)
    waited: list[float] = []

    async def reads() -> None:
        async with taking_turns():
            await memory_store.asearch(("lessons",), query="walls")

    async def works() -> None:
        await asyncio.sleep(0.01)  # once the read has begun
        asked = time.perf_counter()
        async with taking_turns():
            waited.append(time.perf_counter() - asked)

    async def main() -> None:
        await asyncio.gather(reads(), works())

    asyncio.run(main())
    assert waited[0] < 0.03  # well under the lease (50 ms) and the read (200 ms)
