"""SmartPlay runs: the history window as an option (recorded), and rows kept apart by spec."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.cli import main
from langgraph_games.eval.protocols.smartplay import (
    resolve_history,
    run_smartplay,
    smartplay_specs,
    smartplay_summary,
)
from langgraph_games.eval.running import players as eval_players
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.smartplay.graph import smartplay_player
from langgraph_games.graphs.smartplay.prompts import RELEASED_CRAFTER_HISTORY
from langgraph_games.models import ScriptedChatModel


class Prompts:
    """A scripted model factory for the ``smartplay`` strategy: keeps every prompt."""

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def __call__(self, spec: str, **settings: Any) -> ScriptedChatModel:
        def script(messages: Sequence[BaseMessage]) -> str:
            self.prompts.append(list(messages))
            return "Thinking." if "step by step" in str(messages[-1].content) else "Rock"

        return ScriptedChatModel(script=script)


@pytest.fixture
def prompts(monkeypatch: pytest.MonkeyPatch) -> Prompts:
    recorder = Prompts()
    monkeypatch.setattr(eval_players, "load_chat_model", recorder)
    return recorder


def history_steps(prompt: Sequence[BaseMessage]) -> int:
    """How many past observations a SmartPlay prompt shows."""
    return sum(str(m.content).count("Player Observation Step ") for m in prompt)


def test_the_history_option_reaches_the_spec_only_for_smartplay_agents() -> None:
    windows = resolve_history(["crafter=2"], ["Bandit", "Crafter"])
    specs = smartplay_specs(
        ["smartplay:local", "random"], ["Bandit", "Crafter"], history=windows, episodes=1
    )
    assert [(s.agent, s.game, s.agent_settings) for s in specs] == [
        ("smartplay:local", "bandit", {}),
        ("smartplay:local", "crafter", {"history_length": RELEASED_CRAFTER_HISTORY}),
        ("random", "bandit", {}),
        ("random", "crafter", {}),
    ]
    default = smartplay_specs(["smartplay:local"], ["Crafter"], episodes=1)[0]
    assert default.agent_settings == {} and default.spec_hash() != specs[1].spec_hash()
    with pytest.raises(ValueError, match="none of the agents"):
        smartplay_specs(["random"], ["Crafter"], history={"Crafter": 2})
    with pytest.raises(ValueError, match="whole number >= 0"):
        resolve_history(["crafter=-1"], ["Crafter"])


def test_the_player_reports_the_window_it_plays_with() -> None:
    model = ScriptedChatModel(responses=["x"])
    crafter = smartplay_player(model, "crafter").describe()
    assert (crafter["history_length"], crafter["history_length_source"]) == (
        5,
        "the game's default",
    )
    hanoi = smartplay_player(model, "hanoi", history_length=30).describe()
    assert (hanoi["history_length"], hanoi["history_length_source"]) == (30, "given")
    with pytest.raises(ValueError, match="history_length must be a whole number"):
        smartplay_player(model, "hanoi", history_length="2")  # type: ignore[arg-type]


async def test_a_given_window_is_used_and_recorded(tmp_path: Path, prompts: Prompts) -> None:
    specs = smartplay_specs(
        ["smartplay:fake"],
        ["RPS"],
        episodes=1,
        episode=_steps(6),
        history={"RPS": 2},
    )
    report = await run_smartplay(specs, tmp_path, progress=False)
    assert report.errors == 0
    think = [p for p in prompts.prompts if "step by step" in str(p[-1].content)]
    assert [history_steps(p) for p in think] == [0, 1, 2, 2, 2, 2]
    record = ResultsFile(report.results_paths[0]).read().records[0]
    infos = [s["decisions"]["0"]["attempts"][-1]["info"] for s in record["trajectory"]]
    assert {info["history_length"] for info in infos} == {2}
    manifest = json.loads(
        report.results_paths[0].with_suffix(".manifest.json").read_text(encoding="utf-8")
    )
    assert manifest["spec"]["agent_settings"] == {"history_length": 2}
    assert manifest["players"][0]["history_length"] == 2
    assert manifest["players"][0]["history_length_source"] == "given"


async def test_the_default_window_is_recorded_too(tmp_path: Path, prompts: Prompts) -> None:
    specs = smartplay_specs(["smartplay:fake"], ["Hanoi"], episodes=1, episode=_steps(2))
    report = await run_smartplay(specs, tmp_path, progress=False)
    manifest = json.loads(
        report.results_paths[0].with_suffix(".manifest.json").read_text(encoding="utf-8")
    )
    assert manifest["spec"]["agent_settings"] == {}
    assert (manifest["players"][0]["history_length"], manifest["players"][0]["spec"]) == (
        5,
        "smartplay:fake",
    )


def test_the_cli_history_flag(tmp_path: Path, prompts: Prompts, capsys: Any) -> None:
    argv = ["smartplay", "--agent", "smartplay:fake", "--games", "rps", "--episodes", "1"]
    argv += ["--max-steps", "4", "--history", "rps=1", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    think = [p for p in prompts.prompts if "step by step" in str(p[-1].content)]
    assert [history_steps(p) for p in think] == [0, 1, 1, 1]
    assert main(["smartplay", "--agent", "random", "--history", "2", "--out", str(tmp_path)]) == 2
    assert "none of the agents (random) is one" in capsys.readouterr().err


def _steps(n: int) -> EpisodeOptions:
    return EpisodeOptions(max_steps=n)


# ----- rows: what the note says is what the table does ----------------------------------


async def test_both_messenger_levels_share_the_agents_row_without_a_note(tmp_path: Path) -> None:
    specs = smartplay_specs(["random"], ["MessengerL1", "MessengerL2", "Bandit"], episodes=1)
    report = await run_smartplay(specs, tmp_path, progress=False)
    summary = report.summary
    assert [row["player"] for row in summary.table2] == ["random"]
    assert summary.notes == []  # two specs of messenger, but one per column: nothing apart
    assert "kept apart" not in summary.text


async def test_runs_of_one_setting_with_different_specs_get_their_own_rows(
    tmp_path: Path,
) -> None:
    first = smartplay_specs(["random"], ["Bandit", "Hanoi"], episodes=2, seed=0)
    other = smartplay_specs(["random"], ["Bandit"], episodes=2, seed=7)
    a = await run_smartplay(first, tmp_path, progress=False)
    b = await run_smartplay(other, tmp_path, progress=False)
    paths = [*a.results_paths, *b.results_paths]
    summary = smartplay_summary(paths)
    bandit = {spec.spec_hash() for spec in (first[0], other[0])}
    rows = {row["player"]: row for row in summary.table2}
    assert set(rows) == {"random", *(f"random [{h}]" for h in bandit)}
    assert rows["random"]["Hanoi"] is not None and rows["random"]["Bandit"] is None
    for spec in (first[0], other[0]):
        episodes = summary.episodes[f"random [{spec.spec_hash()}]"]
        assert [e["column"] for e in episodes] == ["Bandit", "Bandit"]
    assert summary.notes == [
        f"label 'random' holds Bandit runs of 2 specs ({', '.join(sorted(bandit))}); they "
        "are not averaged together: each is its own row, 'random [spec]'"
    ]


async def test_records_the_reports_set_aside_are_not_in_the_table(tmp_path: Path) -> None:
    first = smartplay_specs(["random"], ["Bandit"], episodes=1, seed=0)
    other = smartplay_specs(["random"], ["Bandit"], episodes=1, seed=9)
    a = await run_smartplay(first, tmp_path / "a", progress=False)
    b = await run_smartplay(other, tmp_path / "b", progress=False)
    mixed = a.results_paths[0]
    with mixed.open("a", encoding="utf-8") as handle:  # another run's record appended
        handle.write(b.results_paths[0].read_text(encoding="utf-8"))
    summary = smartplay_summary([mixed])
    assert [len(v) for v in summary.episodes.values()] == [1]
    assert any("differs from the file's spec" in note for note in summary.notes)
