"""The EvoEmpirBench and Minesweeper agents on the real embedded model (a few short calls)."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession
from langgraph_games.games.minesweeper import metrics
from langgraph_games.graphs import EpisodeOptions, eeb_player, minesweeper_player, run_episode
from langgraph_games.models import LocalChatModel

pytestmark = pytest.mark.slow


async def test_both_agents_survive_the_local_models_answers() -> None:
    model = LocalChatModel(max_tokens=8)
    game = GameSession("minesweeper", rows=3, cols=3, mines=1).game
    out = await run_episode(
        game,
        [minesweeper_player(model, variant="baseline")],
        options=EpisodeOptions(max_retries=0, max_steps=1),
    )
    steps = out["trajectory"]
    assert len(steps) == 1
    for step in steps:
        decision = step["decisions"]["0"]
        assert decision["status"] in {"ok", "fallback"}
        assert decision["attempts"][0]["raw_outputs"][0] is not None
        assert 0 < decision["usage"]["output_tokens"] <= 8
    session = GameSession(game, actions=out["result"]["record"]["actions"])
    m = metrics.episode_metrics(session)
    assert m["steps"] == len(steps) and m["invalid_steps"] <= len(steps)

    maze = GameSession("maze", level=1).game
    out = await run_episode(
        maze, [eeb_player(model, maze)], options=EpisodeOptions(max_retries=0, max_steps=1)
    )
    [step] = out["trajectory"]
    assert step["actions"]["0"] in maze.legal_actions(maze.initial_state(0), 0)
    assert step["decisions"]["0"]["status"] in {"ok", "fallback"}
