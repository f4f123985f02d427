"""The embedded SmolLM2-135M through llama.cpp: real calls, and a full game of TicTacToe.

These run the real local model (no network): they are the end-to-end check that every
parsing and fallback path survives a weak model's answers.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessageChunk

from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.gamebot.graph import create_gamebot_agent
from langgraph_games.models import LocalChatModel, UsageRecorder, check_model
from langgraph_games.players import RandomPlayer, request_for

pytestmark = pytest.mark.slow


def test_local_model_answers_with_usage() -> None:
    model = LocalChatModel(max_tokens=16)
    check_model(model)
    recorder = UsageRecorder()
    reply = model.invoke("Name one colour.", config={"callbacks": [recorder]})
    assert isinstance(reply.content, str)
    usage = reply.usage_metadata or {}
    assert 0 < usage["output_tokens"] <= 16 and usage["input_tokens"] > 3
    totals = recorder.totals()
    assert totals["calls"] == 1 and totals["output_tokens"] == usage["output_tokens"]
    assert totals["latency_s"] > 0
    # Greedy decoding: the same prompt gives the same answer.
    assert model.invoke("Name one colour.").content == reply.content


async def test_a_full_tictactoe_game_against_random() -> None:
    model = LocalChatModel(max_tokens=160)
    player = gamebot_player(model, "tictactoe")
    out = await run_episode(
        "tictactoe",
        [player, RandomPlayer(seed=1)],
        seed=0,
        options=EpisodeOptions(max_retries=1),
    )
    result = out["result"]
    assert result["status"] == "finished"
    llm = result["players"][0]
    assert llm["decisions"] >= 3
    assert llm["model_calls"] == llm["decisions"] + llm["retries"]
    assert llm["input_tokens"] > 500 * llm["model_calls"]
    # Every decision was either a legal answer or a counted fallback.
    for step in out["trajectory"]:
        decision = step["decisions"].get("0")
        if decision is None:
            continue
        assert decision["status"] in {"ok", "fallback"}
        assert all(a["raw_outputs"] for a in decision["attempts"])
        assert len(decision["attempts"][0]["scores"]) == 2


@pytest.mark.parametrize("max_tokens", [5, 48])  # cut by the limit, and a finished reply
def test_streamed_tokens_and_usage_match_the_unstreamed_call(max_tokens: int) -> None:
    # The texts may differ by a token (llama.cpp's reused prompt cache shifts the logits
    # a little), so the usage is checked against what must hold for any reply.
    model = LocalChatModel(max_tokens=max_tokens)
    prompt = [("system", "You play tic-tac-toe."), ("user", "Say hi in five words.")]
    whole = model.invoke(prompt)
    chunks = list(model.stream(prompt))
    assert len([c for c in chunks if c.text]) >= 2  # token by token, not one block
    streamed = chunks[0]
    for chunk in chunks[1:]:
        streamed = streamed + chunk
    assert streamed.text.strip()
    usage, expected = streamed.usage_metadata, whole.usage_metadata
    assert usage is not None and expected is not None
    assert usage["input_tokens"] == expected["input_tokens"]
    finish = streamed.response_metadata["finish_reason"]
    if max_tokens == 5:
        assert finish == whole.response_metadata["finish_reason"] == "length"
        assert usage["output_tokens"] == expected["output_tokens"] == 5
    else:
        assert finish == "stop" and 2 <= usage["output_tokens"] < max_tokens
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


async def test_a_gamebot_decision_streams_the_embedded_models_tokens() -> None:
    agent = create_gamebot_agent(LocalChatModel(max_tokens=12), "tictactoe")
    graph_input = request_to_input(request_for(GameSession("tictactoe")))
    tokens = [
        message.text
        async for message, meta in agent.astream(graph_input, stream_mode="messages")
        if isinstance(message, AIMessageChunk) and meta["langgraph_node"] == "model"
    ]
    assert len([t for t in tokens if t]) >= 2


async def test_greedy_answers_do_not_depend_on_the_thread_count() -> None:
    """Worker processes run llama.cpp with fewer threads than one process: same records."""
    session = GameSession("connect4")
    graph_input = request_to_input(request_for(session))
    texts = []
    for threads in (1, 2):
        graph = create_gamebot_agent(LocalChatModel(max_tokens=64, n_threads=threads), "connect4")
        decision = (await graph.ainvoke(graph_input))["decision"]
        texts.append(decision.raw_outputs[0])
    assert texts[0] and texts[1] == texts[0]
