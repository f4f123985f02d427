"""The SmartPlay benchmark run: settings, specs, Table 2 and the capability scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval.protocols.smartplay import (
    MINECRAFT_OFFLINE,
    resolve_settings,
    run_smartplay,
    smartplay_specs,
    smartplay_summary,
)
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import GameSession, make
from langgraph_games.games.smartplay.bandit import ACTIONS as BANDIT
from langgraph_games.games.smartplay.bandit import optimal_arm
from langgraph_games.games.smartplay.hanoi import ACTIONS as HANOI
from langgraph_games.games.smartplay.hanoi import describe_rods
from langgraph_games.games.smartplay.metrics import COLUMNS, SETTINGS
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.smartplay.graph import smartplay_player
from langgraph_games.graphs.smartplay.prompts import QUESTIONS
from langgraph_games.models import ScriptedChatModel
from support import install_strategy
from table_support import tables

SOLUTION = [HANOI[i] for i in (1, 0, 5, 1, 2, 3, 1)]


def _solution_moves() -> dict[str, str]:
    """The solution's move from each configuration on its way (by the rods' picture)."""
    session = GameSession("hanoi", seed=0)
    moves = {}
    for move in SOLUTION:
        moves[describe_rods(session.state.rods)] = move  # type: ignore[attr-defined]
        session.step(move)
    return moves


def scripted_agent(model: Any, game: Any, name: str) -> Any:
    """A SmartPlay agent that solves Hanoi, always pulls machine 1 and explores Crafter.

    It answers from the current observation alone, because one player serves every
    episode of a run, also at once.
    """
    moves = _solution_moves()

    def script(messages: Any) -> str:
        if messages[-1].content != QUESTIONS["code"][1]:
            return "Let me think."
        if game.id == "bandit":
            return str(BANDIT[0])
        if game.id == "crafter":
            return "Move West"
        now = next(str(m.content) for m in messages if "current step observation" in m.content)
        return next(move for rods, move in moves.items() if now.endswith(rods))

    return smartplay_player(ScriptedChatModel(script=script), game, name=name)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> str:
    install_strategy(monkeypatch, "scripted", scripted_agent, "test agent")
    return "scripted"


def test_settings_by_name_and_minecraft_is_refused() -> None:
    assert resolve_settings(None) == [
        "Bandit",
        "RPS",
        "Hanoi",
        "MessengerL1",
        "MessengerL2",
        "Crafter",
    ]
    assert resolve_settings(["rock_paper_scissors", "HANOI", "messenger", "rps"]) == [
        "RPS",
        "Hanoi",
        "MessengerL1",
        "MessengerL2",
    ]
    with pytest.raises(ValueError, match=r"cannot run offline: .*MineDojo"):
        resolve_settings(["bandit", "Minecraft"])
    with pytest.raises(ValueError, match="Unknown SmartPlay setting 'chess'; accepted: Bandit"):
        resolve_settings(["chess"])


def test_specs_use_the_paper_trials_and_the_crafter_length() -> None:
    specs = smartplay_specs(["random", "smartplay:local"], crafter_steps=50)
    assert len(specs) == 12
    first = {s.game + str(s.options.get("level", "")): s.repeats for s in specs[:6]}
    assert first == {
        "bandit": 20,
        "rock_paper_scissors": 20,
        "hanoi": 10,
        "messenger1": 100,
        "messenger2": 100,
        "crafter": 10,
    }
    crafter = specs[5]
    assert crafter.options == {
        "parse_rule": "earliest_position",
        "default_action": "Noop",
        "length": 50,
    }
    assert {s.label for s in specs} == {"random", "smartplay:local"}
    assert all(s.repeats == 3 for s in smartplay_specs(["random"], ["bandit"], episodes=3))
    with pytest.raises(ValueError, match="distinct"):
        smartplay_specs(["random", "random"])


async def test_table2_and_capability_scores_on_scripted_episodes(
    tmp_path: Path, scripted: str
) -> None:
    specs = smartplay_specs(
        [scripted, "random"], ["bandit", "hanoi", "crafter"], episodes=2, crafter_steps=12
    )
    report = await run_smartplay(specs, tmp_path, progress=False)
    assert report.played == 12 and report.errors == 0 and len(report.results_paths) == 6
    summary = report.summary
    rows = {row["player"]: row for row in summary.table2}
    # Hanoi solved in 7 moves both times: 3 disks on rod C, normalised 1.0.
    assert rows[scripted]["Hanoi"] == 1.0
    # Machine 1 is the good arm in some episodes: 50 optimal pulls there, 0 elsewhere.
    good = [optimal_arm(make("bandit").initial_state(seed).probs) == 0 for seed in (0, 1)]  # type: ignore[attr-defined]
    bandit = sum(50.0 for g in good if g) / 2 / 45
    assert rows[scripted]["Bandit"] == pytest.approx(bandit)
    # A 12-step Crafter has no human score: not in Table 2, shown raw.
    assert rows[scripted]["Crafter"] is None and rows[scripted]["Minecraft"] is None
    crafter = [e for e in summary.episodes[scripted] if e["column"] == "Crafter12Steps"]
    assert len(crafter) == 2 and all(e["steps"] == 12 for e in crafter)
    # Code weights (level - 1): Bandit weighs (0,0,0,0,1,2,1,0,0), Hanoi (1,2,1,2,0,0,0,1,0).
    caps = summary.capabilities[scripted]
    assert caps["Long Text Understanding"] == pytest.approx(1.0)  # Hanoi only
    assert caps["Understanding the Odds"] == pytest.approx(bandit)  # Bandit only
    assert caps["Spatial Reasoning"] is None  # level 1 in both games
    random_row = rows["random"]
    assert summary.capabilities["random"]["Planning Ahead"] == pytest.approx(random_row["Hanoi"])
    paper = smartplay_summary(report.results_paths, weighting="paper").capabilities[scripted]
    assert paper["Long Text Understanding"] == pytest.approx((1 * bandit + 2 * 1.0) / 3)
    assert paper["Spatial Reasoning"] == pytest.approx((bandit + 1.0) / 2)

    text = summary.text
    assert text.startswith("## SmartPlay: human-normalised scores (Table 2)")
    table2, capabilities, _, per_setting = tables(text)
    assert table2[0] == ["agent", *COLUMNS]
    assert [scripted, f"{bandit:.2f}", "-", "1.00"] in [row[:4] for row in table2]
    assert MINECRAFT_OFFLINE in text
    assert "Not in Table 2 (no recorded human score" in text and "Crafter12Steps" in text
    assert "Long Text Understanding" in [row[0] for row in capabilities]
    assert "## Raw scores (Table 4)" in text
    assert [scripted, "Hanoi", "2", "3.00", "1.00"] in [row[:5] for row in per_setting]

    again = await run_smartplay(specs, tmp_path, progress=False)  # resumes: nothing to play
    assert again.played == 0 and again.skipped == 12
    assert again.summary.table2 == summary.table2


async def test_eval_runner_scores_the_agent_with_the_smartplay_family(
    tmp_path: Path, scripted: str
) -> None:
    spec = EvalSpec(game="hanoi", agent=scripted, repeats=1)
    report = await run_eval(spec, tmp_path, progress=False)
    record = ResultsFile(report.results_path).read().records[0]
    assert record["family"] == "smartplay" and record["status"] == "finished"
    assert record["metrics"]["score"] == 3.0 and record["metrics"]["completed"] is True
    assert record["metrics"]["api_calls"] == 14  # 7 steps, two questions each
    assert "## SmartPlay: human-normalised scores (Table 2)" in report.table
    assert "## Capability scores" in report.table
    assert SETTINGS["Hanoi"].human == 3


async def test_games_without_a_smartplay_score_are_left_out_with_a_note(tmp_path: Path) -> None:
    maze = await run_eval(
        EvalSpec(game="maze", agent="random", repeats=1), tmp_path, progress=False
    )
    summary = smartplay_summary([maze.results_path])
    assert summary.table2 == [] and "maze-v1 is not a SmartPlay setting" in summary.notes[-1]


async def test_truncated_episodes_are_flagged(tmp_path: Path) -> None:
    specs = smartplay_specs(["random"], ["bandit"], episodes=1, episode=EpisodeOptions(max_steps=3))
    report = await run_smartplay(specs, tmp_path, progress=False)
    (episode,) = report.summary.episodes["random"]
    assert episode["status"] == "truncated" and episode["steps"] == 3
    assert "1 episode(s) stopped at the step limit before the game's rollout" in (
        report.summary.text
    )
