"""Bad numbers and sweeps are refused before any work, with one line naming the option."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import langgraph_games
from langgraph_games.cli import main
from langgraph_games.cli.eval_cmd import parse_sweep


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """The exit code and the lines on stderr (argparse exits, a refused run returns)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err.strip().splitlines()


EVAL = ["eval", "maze", "--player", "maze_explorer", "-q"]
ARENA = ["arena", "tictactoe", "--players", "random", "random", "-q"]
TRAIN = ["train", "maze", "--model", "local", "-q"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [*EVAL, "--episodes", "0"],
            "argument --episodes: a whole number from 1 to 100,000, got '0'",
        ),
        ([*EVAL, "--episodes", "-3"], "argument --episodes: a whole number from 1 to 100,000"),
        ([*EVAL, "--steps", "0"], "argument --steps: a whole number >= 1, got '0'"),
        ([*EVAL, "--truth-limit", "-1"], "argument --truth-limit: a whole number >= 0, got '-1'"),
        ([*EVAL, "--concurrency", "0"], "argument --concurrency: a whole number >= 1, got '0'"),
        ([*EVAL, "--max-steps", "0"], "argument --max-steps: a whole number >= 1"),
        ([*EVAL, "--max-retries", "21"], "argument --max-retries: a whole number from 0 to 20"),
        ([*EVAL, "--seed", "1e30"], "argument --seed: a whole number from -1,000,000,000,"),
        ([*EVAL, "--temperature", "nan"], "argument --temperature: a number >= 0, got 'nan'"),
        ([*EVAL, "--max-tokens", "0"], "argument --max-tokens: a whole number >= 1"),
        ([*EVAL, "--study-concurrency", "0"], "argument --study-concurrency: a whole number >= 1"),
        (
            [*ARENA, "--matches", "0"],
            "argument --matches: a whole number from 1 to 10,000, got '0'",
        ),
        ([*ARENA, "--concurrency", "-1"], "argument --concurrency: a whole number >= 1"),
        ([*TRAIN, "--rounds", "0"], "argument --rounds: a whole number from 1 to 10,000"),
        ([*TRAIN, "--test-maps", "0"], "argument --test-maps: a whole number >= 1"),
        ([*TRAIN, "--merge-threshold", "1.5"], "argument --merge-threshold: a number > 0 and <= 1"),
        ([*TRAIN, "--revert-tolerance", "-1"], "argument --revert-tolerance: a number >= 0"),
        ([*TRAIN, "--min-gain", "inf"], "argument --min-gain: a finite number, got 'inf'"),
        (["smartplay", "--agent", "random", "--episodes", "0"], "argument --episodes: a whole"),
        (["smartplay", "--agent", "random", "--crafter-steps", "0"], "argument --crafter-steps"),
        (["leaderboard", "x.jsonl", "--bootstrap", "-5"], "argument --bootstrap: a whole number"),
        (["play", "tictactoe", "--seed", "x"], "argument --seed: a whole number from"),
    ],
)
def test_a_count_out_of_range_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if argv[0] in ("eval", "arena", "train", "smartplay"):
        argv = [*argv, "--out", str(tmp_path / "out")]
    code, err = _run(argv, capsys)
    assert code == 2
    assert err[-1].startswith(f"langgraph-games {argv[0]}: error: "), err
    assert message in err[-1]
    assert not (tmp_path / "out").exists()  # refused before any work


@pytest.mark.parametrize(
    ("sweep", "message"),
    [
        (["map_index=1..1000000000"], "the sweeps name 1,000,000,000 combinations; at most 10,000"),
        (
            ["map_index=1..200", "seed=1..100"],
            "the sweeps name 20,000 combinations; at most 10,000",
        ),
        (["map_index=5..1"], "the range is empty (low..high with low <= high)"),
        (["map_index=1..x"], "a range is low..high integers"),
        (["map_index=1.." + "9" * 5000], "a range is low..high integers"),
        (["map_index=1..2", "map_index=3..4"], "'map_index' is swept twice"),
        (["=1..2"], "is not key=values"),
        (["map_index"], "is not key=values"),
    ],
)
def test_a_bad_sweep_is_refused_at_once_with_the_limit(
    sweep: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="sweep") as caught:
        parse_sweep(sweep)
    assert message in str(caught.value) and len(str(caught.value)) < 300
    argv = [*EVAL, "--out", str(tmp_path / "out")]
    for item in sweep:
        argv += ["--sweep", item]
    code, err = _run(argv, capsys)
    assert code == 2 and len(err) == 1 and message in err[0], err
    assert err[0].startswith("langgraph-games eval: error: sweep ")


def test_sweeps_within_the_limit_read_as_before() -> None:
    assert parse_sweep(["map_index=1..3", "variant= a, b,3"]) == {
        "map_index": [1, 2, 3],
        "variant": ["a", "b", 3],
    }
    assert len(parse_sweep(["map_index=1..100", "seed=1..100"])["seed"]) == 100


def test_a_run_planning_too_many_episodes_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [*EVAL, "--level", "1", "--sweep", "map_index=1..1000", "--episodes", "1000"]
    code, err = _run([*argv, "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and len(err) == 1
    assert "the run plans 1,000,000 episodes" in err[0] and "at most 100,000" in err[0]
    assert not any((tmp_path / "out").glob("*.jsonl"))


def test_a_human_seat_with_stdin_closed_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when descriptor 0 is closed
    code, err = _run(["play", "tictactoe", "--players", "human", "minimax", "-q"], capsys)
    assert code == 2
    assert err == [
        "langgraph-games play: error: 'human' is a person who types moves on standard input, "
        "which is closed; run the command at a terminal or pipe the moves in, one per line"
    ]


def _play_without_stdin(*players: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    src = str(Path(langgraph_games.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "langgraph_games.cli", "play", "tictactoe", "-q"]
    return subprocess.run(
        [*command, "--players", *players],
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(0),  # the child starts with descriptor 0 closed
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_closed_stdin_refuses_a_human_seat_and_lets_others_play() -> None:
    person = _play_without_stdin("human", "minimax")
    assert person.returncode == 2, person.stderr
    assert person.stderr.strip().startswith("langgraph-games play: error: 'human' is a person")
    assert "Traceback" not in person.stderr
    search = _play_without_stdin("minimax", "random")  # uvloop would abort on descriptor 0
    assert search.returncode == 0, search.stderr
    assert "Result after" in search.stdout
