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
    """The exit code and the lines on stderr."""
    code = main(argv)
    return code, capsys.readouterr().err.strip().splitlines()


EVAL = ["eval", "maze", "--player", "maze_explorer", "-q"]
ARENA = ["arena", "tictactoe", "--players", "random", "random", "-q"]
TRAIN = ["train", "maze", "--model", "local", "-q"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*EVAL, "--episodes", "0"], "--episodes must be at least 1 and at most 100,000, got 0"),
        ([*EVAL, "--episodes", "200000"], "--episodes must be at least 1 and at most 100,000"),
        ([*EVAL, "--steps", "0"], "--steps must be at least 1, got 0"),
        ([*EVAL, "--truth-limit", "-1"], "--truth-limit must be at least 0, got -1"),
        ([*EVAL, "--concurrency", "0"], "--concurrency must be at least 1, got 0"),
        ([*EVAL, "--max-steps", "0"], "--max-steps must be at least 1, got 0"),
        ([*EVAL, "--max-retries", "21"], "--max-retries must be at least 0 and at most 20, got 21"),
        ([*EVAL, "--seed", str(10**30)], "--seed must be at least -1,000,000,000,000,000,000"),
        ([*EVAL, "--temperature", "nan"], "--temperature must be at least 0, got nan"),
        ([*EVAL, "--max-tokens", "0"], "--max-tokens must be at least 1, got 0"),
        (
            [*EVAL, "--max-retry-wait", "-1"],
            "--max-retry-wait is a number of seconds >= 0, got -1.0",
        ),
        ([*EVAL, "--study-concurrency", "0"], "--study-concurrency must be at least 1, got 0"),
        ([*ARENA, "--matches", "0"], "--matches must be at least 1 and at most 10,000, got 0"),
        ([*ARENA, "--concurrency", "-1"], "--concurrency must be at least 1, got -1"),
        ([*TRAIN, "--rounds", "0"], "--rounds must be at least 1 and at most 10,000, got 0"),
        ([*TRAIN, "--test-maps", "0"], "--test-maps must be at least 1, got 0"),
        ([*TRAIN, "--merge-threshold", "0"], "--merge-threshold must be more than 0 and at most 1"),
        ([*TRAIN, "--revert-tolerance", "-1"], "--revert-tolerance must be at least 0, got -1"),
        ([*TRAIN, "--min-gain", "inf"], "--min-gain must be a finite number, got inf"),
        (["smartplay", "--agent", "random", "--episodes", "0"], "--episodes must be at least 1"),
        (["smartplay", "--agent", "random", "--crafter-steps", "0"], "--crafter-steps must be"),
        (["leaderboard", "x.jsonl", "--seed", str(10**19)], "--seed must be at least"),
        (["play", "tictactoe", "--seed", str(-(10**19))], "--seed must be at least"),
    ],
)
def test_a_count_out_of_range_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if argv[0] in ("eval", "arena", "train", "smartplay"):
        argv = [*argv, "--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"langgraph-games {argv[0]}: error: {err[0].split(': error: ', 1)[1]}"]
    assert message in err[0]
    assert not (tmp_path / "out").exists()  # refused before any work


def test_a_number_that_is_no_number_is_argparses_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["play", "tictactoe", "--seed", "1e30"])
    assert exc.value.code == 2
    assert "argument --seed: invalid int value: '1e30'" in capsys.readouterr().err


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
