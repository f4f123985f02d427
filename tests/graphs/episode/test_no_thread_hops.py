"""The episode loop and its decision graphs run on the event loop: no step hops to a thread.

LangGraph runs a synchronous node or router of an async graph in a thread pool; with a
few of them per step that hand-off was a third of the loop's own cost. Every node and
router of these graphs is a coroutine, so an episode makes no thread hop at all (short
replies are read on the loop; only replies too long to read inline go to a thread).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterator
from typing import Any

import pytest

from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import MinimaxPlayer, RandomPlayer

REPLY = "[Intermediate Thinking Results 1: None]\nChosen Move: {move}"


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Names of the functions handed to a thread pool while the test runs."""
    seen: list[str] = []
    original = asyncio.BaseEventLoop.run_in_executor

    def counting(self: Any, executor: Any, func: Any, *args: Any) -> Any:
        inner = func
        while isinstance(inner, functools.partial):  # Context.run(f, ...) and the like
            inner = inner.args[0] if inner.args and callable(inner.args[0]) else inner.func
        closure = getattr(inner, "__closure__", None) or ()  # LangChain's wrapper(): its func
        named = [c.cell_contents for c in closure if callable(c.cell_contents)]
        inner = named[0] if named else inner
        seen.append(getattr(inner, "__qualname__", repr(inner)))
        return original(self, executor, func, *args)

    monkeypatch.setattr(asyncio.BaseEventLoop, "run_in_executor", counting)
    yield seen


async def test_an_episode_between_search_players_makes_no_thread_hop(hops: list[str]) -> None:
    out = await run_episode("tictactoe", [MinimaxPlayer(), RandomPlayer(seed=1)], seed=1)
    assert out["result"]["steps"] >= 5
    assert hops == []


async def test_a_gamebot_episode_makes_no_thread_hop(hops: list[str]) -> None:
    moves = iter(["(1,1)", "(0,0)", "(2,2)", "(0,2)", "(2,0)"])

    def script(messages: Any) -> str:
        return REPLY.format(move=next(moves, "(0,1)"))

    player = gamebot_player(ScriptedChatModel(script=script), "tictactoe")
    out = await run_episode(
        "tictactoe", [player, MinimaxPlayer()], seed=1, options=EpisodeOptions(max_retries=0)
    )
    assert out["result"]["players"][0]["model_calls"] >= 2
    assert hops == []


async def test_a_spring_episode_makes_no_thread_hop(hops: list[str]) -> None:
    player = spring_player(ScriptedChatModel(script=lambda messages: "Noop"), "crafter")
    out = await run_episode("crafter", [player], seed=0, options=EpisodeOptions(max_steps=2))
    assert out["result"]["players"][0]["model_calls"] == 18
    assert hops == []
