"""Progress on stderr for report and replay (leaderboard's is in tests/eval/ratings), and -q."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_games.cli import _progress, main


@pytest.fixture
def results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A real two-match arena (its records carry the games that replay steps through)."""
    argv = ["arena", "tictactoe", "--players", "minimax:depth=1", "minimax", "--no-baseline"]
    argv += ["--matches", "2", "--out", str(tmp_path / "runs"), "-q"]
    assert main(argv) == 0
    capsys.readouterr()
    (path,) = (tmp_path / "runs").glob("arena-*.jsonl")
    return path


def test_quick_work_shows_nothing(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # DELAY (2 s) is far above what these take on any machine: no progress is printed.
    assert main(["report", str(results), "--no-plots"]) == 0
    assert "..." not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["report", "replay"])
def test_slow_work_shows_its_stages_and_q_silences_them(
    command: str,
    results: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(_progress, "DELAY", 0.0)  # as if every step ran past the delay
    argv = [command, str(results), "--out", str(tmp_path / "out")]
    if command == "report":
        argv.append("--no-plots")
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "reading 1 file(s)..." in captured.err and "reading 1 file(s): done in" in captured.err
    if command == "replay":
        assert "pages" in captured.err and "2/2" in captured.err  # a tick per record
    else:
        assert f"writing {tmp_path / 'out'}..." in captured.err
    assert "..." not in captured.out
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_a_stage_that_ends_before_the_delay_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with _progress.stage("quick"):
        pass
    assert capsys.readouterr().err == ""
