"""The command line for one-player games: ``play`` with one seat and ``smartplay``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.eval.protocols.smartplay import MINECRAFT_OFFLINE
from langgraph_games.graphs.smartplay.graph import smartplay_player
from langgraph_games.models import ScriptedChatModel
from support import install_strategy
from table_support import table_blocks, tables


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> str:
    """An LLM strategy whose model always reasons, then names machine 2 (or nothing)."""

    def build(model: Any, game: Any, name: str) -> Any:
        replies = ["Machine 2 has paid more.", "Pull slot machine 2.", "Hmm.", "I am unsure."]
        return smartplay_player(ScriptedChatModel(responses=replies), game, name=name)

    install_strategy(monkeypatch, "scripted", build, "test agent")
    return "scripted"


def test_play_a_one_seat_game_with_the_default_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "hanoi", "--seed", "2", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tower of Hanoi (seed 2): player (random)")
    result = out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"Result after 30 moves: finished; return -?\d+; SmartPlay score \d "
        r"\(Hanoi, human-normalised \d\.\d\d, (not )?completed\)",
        result,
    ), result
    assert "draw" not in out and "wins" not in out


def test_play_a_one_seat_game_with_an_llm_agent(
    scripted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "bandit", "--players", scripted, "--max-steps", "4"]) == 0
    out = capsys.readouterr().out
    assert "Move 1: player plays Pull slot machine 2." in out
    assert "Move 2: player plays Pull slot machine 1." in out  # nothing named: action 0
    assert "answer 1 [fallback]:" in out and "Hmm. / I am unsure." in out
    assert "Result after 4 moves: stopped at the step limit; return " in out
    assert "player (scripted): 4 decisions, 2 invalid answers, 0 fallbacks" in out


def test_play_maze_and_crafter_report_a_return(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "maze", "-q"]) == 0
    assert re.search(r"Result after \d+ moves: \w[\w ]*; return [-+]\d+$", capsys.readouterr().out)
    assert main(["play", "crafter", "-o", "length=5", "-q"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("Result after 5 moves: finished; return ")
    assert last.endswith("(Crafter5Steps)")


def test_smartplay_prints_table2_and_resumes(
    tmp_path: Path, scripted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["smartplay", "--agent", "random", scripted, "--games", "bandit", "Hanoi"]
    argv += ["--model", "local"]  # completes the LLM strategy only: scripted:local
    argv += ["--episodes", "2", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("## SmartPlay: human-normalised scores (Table 2)")
    header, *body = tables(out)[0]
    assert header == [
        "agent", "Bandit", "RPS", "Hanoi", "MessengerL1", "MessengerL2", "Crafter", "Minecraft"
    ]  # fmt: skip
    assert [row[0] for row in body] == ["random", "scripted:local"]
    assert "Understanding the Odds" in [row[0] for row in tables(out)[1]]
    assert "## Raw scores (Table 4)" in out
    assert "(8 episodes played now, 0 already done, 0 errors)" in out
    assert main(argv) == 0  # the same command again: everything is on disk
    again = capsys.readouterr().out
    assert "(0 episodes played now, 8 already done, 0 errors)" in again
    assert again.split("results:")[0] == out.split("results:")[0]
    # report on the run's folder prints exactly the tables smartplay printed.
    assert main(["report", str(tmp_path), "--no-plots"]) == 0
    assert table_blocks(capsys.readouterr().out) == table_blocks(out)


def test_smartplay_refuses_minecraft_and_bad_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smartplay", "--agent", "random", "--games", "minecraft"]) == 2
    err = capsys.readouterr().err
    assert "langgraph-games smartplay: error: " in err and MINECRAFT_OFFLINE in err
    assert main(["smartplay", "--agent", "random", "--games", "go"]) == 2
    assert "Unknown SmartPlay setting 'go'" in capsys.readouterr().err
    assert main(["smartplay", "--agent", "random", "--episodes", "0"]) == 2
    assert "--episodes must be at least 1" in capsys.readouterr().err
    assert main(["smartplay", "--agent", "gamebot", "--games", "bandit", "--out", "/tmp/x"]) == 2
    assert "Player 'gamebot' cannot play 'bandit'; it plays checkers," in capsys.readouterr().err
