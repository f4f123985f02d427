"""The episode loop running a GAMEBoT player streams and traces the player's model.

The player's decision graph runs inside the episode's ``decide`` node; its model call
must stream under the episode's ``stream_mode="messages"`` and sit in the episode's one
run tree.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.graphs.gamebot.graph import gamebot_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import MinimaxPlayer
from streaming_support import (
    TraceRecorder,
    assert_one_tree,
    event_kinds,
    message_chunks,
)

REPLY = (
    "[Intermediate Thinking Results 1: None]\n"
    "[Intermediate Thinking Results 2: None]\nChosen Move: {move}"
)


def _episode() -> tuple[Any, dict[str, Any], EpisodeContext]:
    moves = iter(["(1,1)", "(0,0)", "(2,2)", "(0,2)", "(2,0)"])

    def script(messages: Any) -> str:
        return REPLY.format(move=next(moves, "(0,1)"))

    player = gamebot_player(ScriptedChatModel(script=script), "tictactoe")
    context = EpisodeContext(players=[player, MinimaxPlayer()])
    record = {"game": "tictactoe", "seed": 1, "actions": []}
    return create_episode_graph(), {"record": record}, context


async def test_the_players_tokens_stream_through_the_episode() -> None:
    graph, graph_input, context = _episode()
    chunks = await message_chunks(graph, graph_input, context=context)
    model_chunks = [meta for _, meta in chunks if meta.get("langgraph_node") == "model"]
    assert len(model_chunks) >= 2
    text = "".join(c.text for c, meta in chunks if meta.get("langgraph_node") == "model")
    assert text.startswith(REPLY.format(move="(1,1)"))
    # the decision graph runs inside the episode's step node
    assert all("step" in str(meta.get("langgraph_checkpoint_ns")) for meta in model_chunks)


async def test_the_players_model_runs_are_in_the_episodes_tree() -> None:
    graph, graph_input, context = _episode()
    recorder = TraceRecorder()
    final = await graph.ainvoke(graph_input, {"callbacks": [recorder]}, context=context)
    decisions = final["result"]["players"][0]["decisions"]
    assert decisions >= 2
    assert_one_tree(recorder, model_calls=decisions)


async def test_episode_events_include_the_players_model_stream() -> None:
    graph, graph_input, context = _episode()
    kinds = await event_kinds(graph, graph_input, context=context)
    assert {"on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"} <= kinds


async def test_run_episode_passes_the_callers_config_on() -> None:
    _, _, context = _episode()
    recorder = TraceRecorder()
    config: RunnableConfig = {
        "callbacks": [recorder],
        "tags": ["mine"],
        "configurable": {"user": "u1"},
    }
    played = await run_episode("tictactoe", context.players, seed=1, config=config)
    decisions = played["result"]["players"][0]["decisions"]
    assert decisions >= 2
    assert_one_tree(recorder, model_calls=decisions)
    assert config == {"callbacks": [recorder], "tags": ["mine"], "configurable": {"user": "u1"}}


async def test_run_episode_streams_to_the_callers_handler_with_a_checkpointer() -> None:
    _, _, context = _episode()
    recorder = TraceRecorder()
    played = await run_episode(
        "tictactoe",
        context.players,
        seed=1,
        checkpointer=InMemorySaver(),
        thread_id="t1",
        config={"callbacks": [recorder], "configurable": {"user": "u1"}},
    )
    assert played["result"] is not None
    assert_one_tree(recorder, model_calls=played["result"]["players"][0]["decisions"])
