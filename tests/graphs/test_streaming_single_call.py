"""The single-call strategies stream their model's tokens and trace as one tree.

GAMEBoT, EvoEmpirBench and the Minesweeper Agent call the model from their ``model``
node; the node's config must reach the call, or ``stream_mode="messages"`` shows no
tokens, ``astream_events`` misses the model and a tracer records a second root run.
"""

from __future__ import annotations

from typing import Any

import pytest

from langgraph_games.games import GameSession
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.eeb.graph import create_eeb_agent
from langgraph_games.graphs.gamebot.graph import create_gamebot_agent
from langgraph_games.graphs.minesweeper.graph import create_minesweeper_agent
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for
from streaming_support import (
    TraceRecorder,
    assert_one_tree,
    event_kinds,
    message_chunks,
    streamed_text,
)

GAMEBOT_REPLY = (
    "[Intermediate Thinking Results 1: None]\n"
    "[Intermediate Thinking Results 2: None]\nChosen Move: (1,1)"
)


def _gamebot(reply: str) -> Any:
    return create_gamebot_agent(ScriptedChatModel(responses=[reply]), "tictactoe")


def _eeb(reply: str) -> Any:
    return create_eeb_agent(ScriptedChatModel(responses=[reply]), "maze")


def _minesweeper(reply: str) -> Any:
    return create_minesweeper_agent(ScriptedChatModel(responses=[reply]))


CASES = [
    pytest.param(_gamebot, GAMEBOT_REPLY, "tictactoe", "(1,1)", id="gamebot"),
    pytest.param(_eeb, "The way east is open.\nAction: 9", "maze", "9", id="eeb"),
    pytest.param(
        _minesweeper, "I reveal a corner.\nr,0,0", "minesweeper", "r,0,0", id="minesweeper"
    ),
]


@pytest.mark.parametrize(("build", "reply", "game", "action"), CASES)
async def test_tokens_stream_from_the_model_node(
    build: Any, reply: str, game: str, action: str
) -> None:
    graph = build(reply)
    graph_input = request_to_input(request_for(GameSession(game)))
    chunks = await message_chunks(graph, graph_input)
    assert streamed_text(chunks, "model") == reply
    final = await graph.ainvoke(graph_input)
    assert final["decision"].action == action


@pytest.mark.parametrize(("build", "reply", "game", "action"), CASES)
async def test_the_model_run_is_a_child_of_the_graph_run(
    build: Any, reply: str, game: str, action: str
) -> None:
    recorder = TraceRecorder()
    graph_input = request_to_input(request_for(GameSession(game)))
    final = await build(reply).ainvoke(graph_input, {"callbacks": [recorder]})
    assert final["decision"].action == action
    assert_one_tree(recorder)


@pytest.mark.parametrize(("build", "reply", "game", "action"), CASES)
async def test_stream_events_include_the_model_stream(
    build: Any, reply: str, game: str, action: str
) -> None:
    graph_input = request_to_input(request_for(GameSession(game)))
    kinds = await event_kinds(build(reply), graph_input)
    assert {"on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"} <= kinds
