"""Every example runs offline with its defaults and shows what its docstring promises."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from langgraph_games.players import registry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(
    name: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    path = EXAMPLES / name
    monkeypatch.setattr(sys, "argv", [str(path), *args])
    runpy.run_path(str(path), run_name="__main__")
    return capsys.readouterr().out


def test_every_example_is_tested() -> None:
    tested = {
        "custom_question_dag.py",
        "tool_agent_connect4.py",
        "run_arena.py",
        "training_round.py",
        "register_player.py",
    }
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_custom_question_dag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_example("custom_question_dag.py", [], monkeypatch, capsys)
    assert "  level 0: tally, scores\n  level 1: predict\n  level 2: choose" in out
    # The answers flow along the edges: the tally drives the prediction and the choice.
    tally = re.search(r"tally: Rock: (\d+), Paper: (\d+), Scissor: (\d+)", out)
    assert tally is not None
    counts = dict(zip(["Rock", "Paper", "Scissor"], map(int, tally.groups()), strict=True))
    likely = max(counts, key=lambda hand: counts[hand])
    assert f"predict: The opponent will most likely choose {likely}." in out
    scores = {
        label: int(score)
        for label, score in re.findall(r"(question DAG|random): SmartPlay score (\d+)", out)
    }
    assert scores["question DAG"] > scores["random"]
    assert "model calls: 200 (4 per step)" in out


def test_tool_agent_plays_connect4_against_minimax(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_example("tool_agent_connect4.py", [], monkeypatch, capsys)
    lines = out.splitlines()
    assert lines[0] == "agent -> legal_moves({})"
    assert lines[2] == "agent -> make_move({'column': 9})"
    assert lines[3].startswith("  tool [error]: Illegal move 'column 9': it is not a legal move.")
    assert lines[5].startswith("  tool [success]: You played (0,3). O (seat 1) played ")
    assert "agent: The game is over. Game over after" in out
    assert re.search(r"X \(the agent\) (won|lost|drew) after \d+ moves\.", out)


def test_run_arena_prints_the_tables(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run_example("run_arena.py", ["--out", str(tmp_path)], monkeypatch, capsys)
    assert out.startswith("roster: minimax, minimax:depth=1, random (12 matches)")
    assert "## tictactoe-v1: outcome (O) and intermediate (I) scores" in out
    assert "### Head to head (W-D-L of the row player)" in out
    # Mirrored seeds: each of the pair's two seeds is played from both seats.
    assert re.search(r"\| random +\| 8 +\| 0-1-7 +\| -0\.88", out)
    assert len(list(tmp_path.glob("arena-tictactoe-*.jsonl"))) == 1
    again = run_example("run_arena.py", ["--out", str(tmp_path)], monkeypatch, capsys)
    assert "(0 played, 12 already there)" in again


def test_training_round_learns_a_truth_and_keeps_the_round(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "truths"
    out = run_example("training_round.py", ["--store", str(store)], monkeypatch, capsys)
    lines = out.splitlines()
    assert lines[0] == "round 0 test: success 0%, score -800.0: baseline"
    assert "round 1 L1-train01: play score -800, no success" in lines
    assert re.search(r"round 1 L1-train01: promoted: .*; truths \+2 added", out)
    assert "round 1 test: success 100%" in out and out.count(": kept") == 1
    assert "round 2 L1-train02: rejected: the replay scored +0 (needs > +0)" in lines
    assert "  1. Due to stepping off the grid" in out and "shortest open path" in out
    assert re.search(r"\| 1 +\| 0\.00 +\| -800\.00 .*\| 1 +\| 2 +\| .*\| kept", out)
    assert "not promoted: observation: lesson/1" in out
    assert (store / "chroma.sqlite3").is_file()  # the truths stay in the folder


def test_register_player_plays_a_new_player_by_spec(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(registry, "PLAYERS", registry.PLAYERS.copy())  # it registers one
    out = run_example("register_player.py", [], monkeypatch, capsys)
    assert "PlayerSpec(name='edge_first', settings={'corners': False}, model=None" in out
    assert "PlayerSettingError: Player 'edge_first' has no setting 'sides'" in out
    assert "Its settings: corners (true or false, default true): prefer corners" in out
    assert re.search(r"\| minimax:depth=1 +\| 6 +\| 6-0-0 ", out)
    assert re.search(r"\| edge_first:corners=false +\| 6 ", out)  # named by its spec
