"""The command line: listing games, playing one, and errors for bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from langgraph_games.cli import main


def test_games_lists_every_game_with_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "-v"]) == 0
    out = capsys.readouterr().out
    for game_id in ["tictactoe-v1", "connect4-v1", "othello-v1", "checkers-v1"]:
        assert game_id in out
    assert "two-for-one" in out and "not in I" in out


def test_play_prints_each_board_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tictactoe", "--players", "minimax", "random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("TicTacToe (seed 0): X (minimax) vs O (random)")
    moves = [line for line in out.splitlines() if line.startswith("Move ")]
    assert moves[0] == "Move 1: X plays " + moves[0].split("plays ")[1]
    assert out.count("   0 1 2") == len(moves) + 1
    assert "Result after" in out and "X (minimax) wins" in out


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "connect4", "--players", "random", "random", "--seed", "3", "-q"])
    first = capsys.readouterr().out
    main(["play", "connect4", "--players", "random", "random", "--seed", "3", "-q"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "Unknown game 'chess'. Registered games: "),
        (["play", "othello", "-o", "size=4"], "'size' is not an option"),
        (["play", "othello", "--players", "minimax", "gpt"], "Unknown player 'gpt'"),
        (["play", "othello", "--players", "minimax"], "has 2 seats"),
        (["play", "othello", "-o", "size"], "is not key=value"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_console_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "langgraph_games.cli", "play", "tictactoe", "-q"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Result after" in result.stdout
