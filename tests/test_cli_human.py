"""``langgraph-games play --players human ...``: a person at the terminal, fed through stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import langgraph_games

CELLS = [f"({r},{c})" for r in range(3) for c in range(3)]


def _play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    src = str(Path(langgraph_games.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "langgraph_games.cli", "play", "tictactoe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_a_person_plays_a_whole_game_through_stdin() -> None:
    """Each line is tried in turn: taken cells are refused with the reason and asked again."""
    done = _play("--players", "human", "minimax", stdin="\n".join(["hello", *CELLS]) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "X (human) to move." in out
    assert "Legal moves: (0,0), (0,1), (0,2), (1,0), (1,1), (1,2), (2,0), (2,1), (2,2)" in out
    assert "Your move as X (seat 0): type one of the legal moves, e.g. (0,0)." in out
    assert "Your answer was rejected: 'hello' names no move of TicTacToe." in out
    assert "Your answer was rejected: (0,2) is not a legal move now." in out
    # The person plays the first free cell each time; minimax (exact) wins.
    assert "Move 1: X plays (0,0)" in out and "Move 3: X plays (0,1)" in out
    assert "Result after 6 moves: O (minimax) wins (X -1, O +1)" in out
    assert "Traceback" not in done.stderr


def test_every_move_is_shown_with_the_board_after_it() -> None:
    """The rule player's reply, played in the person's step, gets its own move and board."""
    done = _play("--players", "human", "minimax", stdin="\n".join(CELLS) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for number in range(1, 7):
        assert out.count(f"Move {number}: ") == 1, number
    after_first = out.split("Move 1: X plays (0,0)")[1].split("Move 2: O plays")[0]
    assert "X" in after_first and "O" not in after_first  # the board after move 1 only
    after_second = out.split("Move 2: O plays")[1].split("X (human) to move.")[0]
    assert "O" in after_second


def test_end_of_input_abandons_the_game_cleanly() -> None:
    done = _play("--players", "minimax", "human", "-q", stdin="(1,1)\n")
    assert done.returncode == 1
    assert done.stdout.count("O (human) to move.") == 2
    assert done.stdout.rstrip().endswith("Game abandoned (input ended).")
    assert "Result after" not in done.stdout
    assert done.stderr == ""
