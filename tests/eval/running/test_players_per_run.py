"""An LLM strategy's player is built once per run and serves all its episodes at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.graphs import EpisodeOptions, minesweeper_player
from langgraph_games.models import ScriptedChatModel
from pinned_trajectories import by_prompt
from support import install_strategy


async def test_one_player_per_run_plays_every_episode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[Any] = []
    model = ScriptedChatModel(script=by_prompt(["r,0,0", "r,4,4", "nope"]), latency_s=0.002)

    def counted(model_: Any, game: Any, name: str) -> Any:
        player = minesweeper_player(model, variant="memory", name=name)
        built.append(player)
        return player

    install_strategy(monkeypatch, "counted", counted, "built once")
    spec = EvalSpec(
        game="minesweeper", agent="counted", repeats=6, episode=EpisodeOptions(max_steps=4)
    )
    report = await run_eval(spec, tmp_path, progress=False)
    records = ResultsFile(report.results_path).read().records
    assert report.played == 6 and all(r["status"] != "error" for r in records)
    assert len(built) == 2  # the preflight's, and the run's for all six episodes
    assert sorted(r["seed"] for r in records) == list(range(6))
