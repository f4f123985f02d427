"""SPRING on Crafter with the real embedded model: two steps, short answers (a smoke test)."""

from __future__ import annotations

import pytest

from langgraph_games.games.crafter.data import ACTION_NAMES
from langgraph_games.graphs import EpisodeOptions, run_episode, spring_player
from langgraph_games.models import LocalChatModel

pytestmark = pytest.mark.slow


async def test_spring_action_only_plays_two_crafter_steps_with_the_local_model() -> None:
    model = LocalChatModel(max_tokens=6)
    player = spring_player(
        model, "crafter", variant="action_only", context="Trees give wood when you face them."
    )
    out = await run_episode("crafter", [player], seed=0, options=EpisodeOptions(max_steps=2))
    counters = out["result"]["players"][0]
    assert counters["decisions"] == 2 and counters["model_calls"] == 2
    assert counters["input_tokens"] > 200 and 0 < counters["output_tokens"] <= 12
    assert counters["fallbacks"] == 0  # SPRING's own default covers unusable answers
    for step in out["trajectory"]:
        decision = step["decisions"]["0"]
        assert decision["action"] in ACTION_NAMES
        assert decision["status"] in {"ok", "fallback"}
        assert (decision["status"] == "fallback") == decision["attempts"][0]["info"]["defaulted"]
        assert len(decision["attempts"][0]["raw_outputs"]) == 1
