"""The embedded SmolLM2-135M through llama.cpp: real calls, and a full game of TicTacToe.

These run the real local model (no network): they are the end-to-end check that every
parsing and fallback path survives a weak model's answers.
"""

from __future__ import annotations

import pytest

from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import LocalChatModel, UsageRecorder, check_model
from langgraph_games.players import RandomPlayer

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
        assert len(decision["scores"]) == 2
