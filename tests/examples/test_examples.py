"""Every example runs offline with its defaults and shows what its docstring promises."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(
    name: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    path = EXAMPLES / name
    monkeypatch.setattr(sys, "argv", [str(path), *args])
    runpy.run_path(str(path), run_name="__main__")
    return capsys.readouterr().out


def test_every_example_is_tested() -> None:
    tested = {"custom_question_dag.py", "tool_agent_connect4.py", "run_arena.py"}
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
    assert re.search(r"\| random +\| 8 +\| 0-0-8 +\| -1\.00", out)
    assert len(list(tmp_path.glob("arena-tictactoe-*.jsonl"))) == 1
    again = run_example("run_arena.py", ["--out", str(tmp_path)], monkeypatch, capsys)
    assert "(0 played, 12 already there)" in again
