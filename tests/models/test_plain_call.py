"""Calls without LangChain's callback layer: only where nothing watches, with the same reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.globals import set_debug
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage

from endpoint_support import Endpoint
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel, load_chat_model
from langgraph_games.models.cache import SQLiteModelCache, is_cached
from langgraph_games.models.plain_call import (
    one_call_per_invoke,
    plain_call,
    quiet,
    unwatched_calls,
)
from langgraph_games.models.usage import ainvoke_measured
from langgraph_games.players import RandomPlayer
from pinned_trajectories import normalized

PROMPT = [HumanMessage("hi there")]


class _Seen(BaseCallbackHandler):
    """Counts the chat model runs it is shown."""

    def __init__(self) -> None:
        self.starts = 0

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.starts += 1


class _Subclass(ScriptedChatModel):
    pass


class _OwnInvoke(ScriptedChatModel):
    async def ainvoke(self, *args: Any, **kwargs: Any) -> Any:
        return await super().ainvoke(*args, **kwargs)


def _ainvokes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every ``BaseChatModel.ainvoke`` from now on."""
    counted: list[int] = []
    original = BaseChatModel.ainvoke

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(BaseChatModel, "ainvoke", counting)
    return counted


def test_only_a_declared_config_and_a_plain_one_call_model_skip_the_layer() -> None:
    config: dict[str, Any] = {"tags": ["t"]}
    plain = ScriptedChatModel(responses=["x"])
    assert not quiet(plain, config)  # nobody declared it unwatched
    with unwatched_calls(config):
        assert quiet(plain, config)
        assert not quiet(plain, {"tags": ["t"]})  # an equal config is not the declared one
        assert not quiet(plain, None)
        assert not quiet(_Subclass(responses=["x"]), config)  # not exactly a one-call class
        one_call_per_invoke(_OwnInvoke)  # declared, but with an ainvoke of its own
        assert not quiet(_OwnInvoke(responses=["x"]), config)
        assert not quiet(ScriptedChatModel(responses=["x"], callbacks=[_Seen()]), config)
        assert not quiet(ScriptedChatModel(responses=["x"], verbose=True), config)
        set_debug(True)
        try:
            assert not quiet(plain, config)
        finally:
            set_debug(False)
        assert quiet(plain, config)
    assert not quiet(plain, config)  # the declaration ends with its block


async def test_the_plain_call_gives_the_reply_ainvoke_gives() -> None:
    model = ScriptedChatModel(responses=["Chosen Move: (1,1)"], name_="same")
    invoked = await model.ainvoke(PROMPT)
    plain = await plain_call(model, PROMPT)
    assert isinstance(plain, AIMessage)
    assert (plain.content, plain.usage_metadata, plain.response_metadata) == (
        invoked.content,
        invoked.usage_metadata,
        invoked.response_metadata,
    )
    assert str(invoked.id).startswith("lc_run--") and str(plain.id).startswith("lc_run--")
    assert plain.id != invoked.id


async def test_chatopenai_over_http_answers_the_same_both_ways(endpoint: Endpoint) -> None:
    model = load_chat_model(f"openai:gpt-x@{endpoint.url}")
    config: dict[str, Any] = {}
    with unwatched_calls(config):
        assert quiet(model, config)  # the factory's ChatOpenAI takes the plain path
    invoked = await model.ainvoke(PROMPT)
    plain = await plain_call(model, PROMPT)
    bodies = [request["body"] for request in endpoint.requests]
    assert len(bodies) == 2 and bodies[0] == bodies[1]
    ids = (str(plain.id), str(invoked.id))
    assert all(i.startswith("lc_run--") for i in ids) and ids[0] != ids[1]
    assert plain.model_dump(exclude={"id"}) == invoked.model_dump(exclude={"id"})


async def test_a_cached_reply_on_the_plain_path_is_marked_and_not_counted(tmp_path: Path) -> None:
    model = ScriptedChatModel(responses=["Chosen Move: (1,1)"], name_="plain-cache")
    model.cache = SQLiteModelCache(tmp_path / "calls.sqlite")
    config: dict[str, Any] = {}
    with unwatched_calls(config):
        first, used = await ainvoke_measured(model, PROMPT, config)
        again, reused = await ainvoke_measured(model, PROMPT, config)
    assert not is_cached(first) and is_cached(again) and again.content == first.content
    assert used["calls"] == 1 and (reused["calls"], reused["cached_calls"]) == (0, 1)
    assert len(model.calls) == 1


async def test_a_failing_plain_call_is_retried_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    ainvokes = _ainvokes(monkeypatch)
    model = ScriptedChatModel(responses=[ConnectionError("reset"), "fine"])
    config: dict[str, Any] = {}
    with unwatched_calls(config):
        reply, usage = await ainvoke_measured(model, PROMPT, config, base_delay_s=0.001)
    assert reply.content == "fine" and usage["calls"] == 2 and usage["call_retries"] == 1
    assert ainvokes == []


MOVE = "[Intermediate Thinking Results 1: None]\nChosen Move: {}"
# a legal move, an illegal one (re-asked), then legal ones
REPLIES = [MOVE.format(m) for m in ["(1,1)", "(9,9)", "(0,2)", "(2,0)", "(1,0)", "(2,2)"]]


async def _episode(model: ScriptedChatModel, config: dict[str, Any] | None = None) -> Any:
    players = [gamebot_player(model, "tictactoe"), RandomPlayer(3)]
    options = EpisodeOptions(max_retries=1)
    return await run_episode("tictactoe", players, seed=3, options=options, config=config)


async def test_an_unwatched_episode_skips_the_layer_and_a_watched_one_keeps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ainvokes = _ainvokes(monkeypatch)
    quiet_model = ScriptedChatModel(responses=REPLIES)
    alone = await _episode(quiet_model)
    calls = len(quiet_model.calls)
    assert calls >= 3 and ainvokes == []

    seen = _Seen()
    watched = await _episode(ScriptedChatModel(responses=REPLIES), {"callbacks": [seen]})
    assert seen.starts == calls and len(ainvokes) == calls

    # a model with a handler of its own is still called through ainvoke, and seen
    own = _Seen()
    mine = await _episode(ScriptedChatModel(responses=REPLIES, callbacks=[own]))
    assert own.starts == calls and len(ainvokes) == 2 * calls

    assert normalized(alone) == normalized(watched) == normalized(mine)
