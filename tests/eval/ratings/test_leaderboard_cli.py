"""The leaderboard on a scripted arena: the report's O, I and W-D-L, the command and bad input."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, run_arena, summarize
from langgraph_games.eval.ratings.leaderboard import RatingSettings, build_leaderboard
from langgraph_games.eval.ratings.matches import load_matches
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from ratings_support import a_beats_b, write
from support import install_scripted_strategies
from table_support import tables


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scripted TicTacToe arena: perfect, sloppy, clumsy and random, 2 matches a pair."""
    out = tmp_path_factory.mktemp("arena")
    spec = ArenaSpec(game="tictactoe", players=["perfect", "sloppy", "clumsy"], matches=2)
    with pytest.MonkeyPatch.context() as monkeypatch:
        install_scripted_strategies(monkeypatch)
        report = asyncio.run(run_arena(spec, out, progress=False))
    return report.results_path


def test_o_i_and_wdl_are_the_reports(arena: Path) -> None:
    _, rows, _, _ = summarize(arena)
    board = build_leaderboard(load_matches([arena]), RatingSettings(bootstrap=50)).boards[0]
    assert {s.player for s in board.standings} == {r["player"] for r in rows}
    for row in rows:
        standing = next(s for s in board.standings if s.player == row["player"])
        assert standing.outcome.value == row["O"]
        assert standing.intermediate.value == row["I"]
        assert (standing.wins, standing.draws, standing.losses) == (
            row["wins"],
            row["draws"],
            row["losses"],
        )
        assert standing.matches == row["matches"] == 6
    assert len(board.pairs) == 6  # every pair of the round robin met


def test_command_prints_and_writes_the_leaderboard(
    arena: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board"
    argv = ["leaderboard", str(arena), "--bootstrap", "40", "--seed", "3", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("## tictactoe-v1: leaderboard over 12 matches")
    assert tables(printed)[0][0][:2] == ["#", "player"] and "### Pairs (A against B)" in printed
    assert "matches to tell apart" in printed and "40 bootstrap replicates" in printed
    for name in ("leaderboard.md", "leaderboard.json", "leaderboard.png"):
        assert f"wrote {out / name}" in printed
    assert (out / "leaderboard.png").read_bytes().startswith(b"\x89PNG")
    data = json.loads((out / "leaderboard.json").read_text())
    assert data["settings"]["bootstrap"] == 40 and data["settings"]["seed"] == 3
    (board,) = data["boards"]
    assert {s["player"] for s in board["standings"]} == {"random", "perfect", "sloppy", "clumsy"}
    assert len(board["pairs"]) == 6 and "text" in board["pairs"][0]["separation"]
    assert "![leaderboard](leaderboard.png)" in (out / "leaderboard.md").read_text()
    assert main(argv) == 0  # the same seed gives the same files
    assert json.loads((out / "leaderboard.json").read_text()) == data


def test_without_matplotlib_the_plot_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] == "matplotlib"] + ["matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "langgraph_games.eval.ratings.plot", raising=False)
    results = write(tmp_path / "ab.jsonl", a_beats_b())
    assert main(["leaderboard", str(results), "--bootstrap", "20"]) == 0
    printed = capsys.readouterr().out
    assert "plot skipped: matplotlib is not installed" in printed
    assert not (tmp_path / "leaderboard" / "leaderboard.png").exists()
    assert "plot skipped" in (tmp_path / "leaderboard" / "leaderboard.md").read_text()


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line
    return err


def test_no_files_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard"]) == 2
    assert "leaderboard: error: no results files given" in _error(capsys)


def test_missing_folder_and_unreadable_files_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl does not exist" in _error(capsys)
    assert main(["leaderboard", str(tmp_path)]) == 2
    assert "is a folder with no .jsonl file in it; give .jsonl results files" in _error(capsys)
    locked = write(tmp_path / "locked.jsonl", a_beats_b())
    real_open = Path.open

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", refuse)
    assert main(["leaderboard", str(locked)]) == 2
    assert "cannot read results file" in _error(capsys)


def test_files_without_two_seat_matches_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    assert main(["leaderboard", str(garbage)]) == 2
    err = _error(capsys)
    assert "no finished two-seat matches to rate" in err and "bad JSON" in err
    assert (
        main(["leaderboard", str(write(tmp_path / "ab.jsonl", a_beats_b())), "--game", "chess"])
        == 2
    )
    assert "Unknown game 'chess'" in _error(capsys)
    assert main(["leaderboard", str(tmp_path / "ab.jsonl"), "--bootstrap", "-5"]) == 2
    assert "bootstrap replicates must be 0 or more" in _error(capsys)


def test_two_seat_evaluation_episodes_are_rated(tmp_path: Path) -> None:
    spec = EvalSpec(game="tictactoe", agent="minimax", opponents=["random"], repeats=4)
    path = asyncio.run(run_eval(spec, tmp_path, progress=False)).results_path
    found = load_matches([path])
    assert len(found.matches) == 4 and found.counts == {}
    board = build_leaderboard(found, RatingSettings(bootstrap=20)).boards[0]
    best = board.standings[0]
    assert best.player == "minimax" and best.losses == 0
    assert best.elo.value is not None and best.elo.value > 1500
