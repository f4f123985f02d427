"""The command line: listing games, playing one, and errors for bad input."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from langgraph_games.cli import build_parser, main
from langgraph_games.cli._commands import COMMANDS
from langgraph_games.players import player_entries
from process_support import DEADLINE_S, Runs, one_line, records, wait_until
from table_support import rows_by_first, table_blocks


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[Runs]:
    """Runs of the command line in processes of their own, killed if left at the end."""
    with Runs(tmp_path) as started:
        yield started


def test_games_lists_every_game_with_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "-v"]) == 0
    out = capsys.readouterr().out
    for game_id in ["tictactoe-v1", "connect4-v1", "othello-v1", "checkers-v1"]:
        assert game_id in out
    assert "two-for-one" in out and "not in I" in out


def test_games_lists_every_player_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())  # long lines are wrapped
    for entry in player_entries():
        assert f"  {entry.form()}\n" in out
        assert entry.description in flat
        for info in entry.infos():
            assert f"- {info.name}: {info.type}, default {info.default}; {info.description}" in flat
    assert "- depth: int, default none; plies searched" in out
    assert "gamebot_cot" not in out and "Older names" not in out  # former names are gone


@pytest.mark.parametrize("command", ["play", "arena", "eval", "smartplay", "train"])
def test_help_lists_the_players(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Player specs: name[:key=value...][:<model spec>]" in out
    assert "spring[:variant=<one of full, actions, no_context," in out
    assert "- samples: int, default 300; deals simulated per decision" in out


def test_play_prints_each_board_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tictactoe", "--players", "minimax", "random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("TicTacToe (seed 0): X (minimax) vs O (random)")
    moves = [line for line in out.splitlines() if line.startswith("Move ")]
    assert moves[0] == "Move 1: X plays " + moves[0].split("plays ")[1]
    assert out.count("   0 1 2") == len(moves) + 1
    assert "Result after" in out and "X (minimax) wins" in out
    # each board is the one after its move: X's marks on the last board are X's moves
    last_board = out.split(moves[-1])[1].split("Result after")[0]
    xs = {
        (r, c)
        for r, row in enumerate(last_board.strip().splitlines()[1:])
        for c, mark in enumerate(row.split()[1:])
        if mark == "X"
    }
    played = {line.split("plays ")[1] for line in moves if " X plays " in line}
    assert {f"({r},{c})" for r, c in xs} == played


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
        (["play", "othello", "--players", "minimax:deep=2", "random"], "no setting 'deep'"),
        (["play", "othello", "--players", "minimax:depth=two", "random"], "depth='two' must be"),
        (["play", "othello", "--players", "gamebot:variant=x", "random"], "must be one of"),
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


_LOADED_BY_HELP = """
import sys
from langgraph_games.cli import build_parser, main
from langgraph_games.cli._commands import COMMANDS
try:
    main(["--help"])
except SystemExit:
    pass
heavy = {"langgraph", "langchain_core", "chromadb", "langgraph_games.eval"}
print(sorted(heavy & {*sys.modules, *(m.split(".")[0] for m in sys.modules)}))
"""


def test_top_level_help_lists_every_command_without_loading_them() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _LOADED_BY_HELP], capture_output=True, text=True, check=True
    )
    listed, loaded = result.stdout.rsplit("\n", 2)[:2]
    assert loaded == "[]", f"--help loaded {loaded}"
    for name, (_, help_text) in COMMANDS.items():
        assert name in listed and " ".join(help_text.split()[:4]) in " ".join(listed.split())


def test_a_command_gets_its_options_whatever_comes_before_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "tictactoe", "-q", "--seed", "3"]) == 0
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'no-such-command'" in err and "'arena'" in err
    full = build_parser()  # every command's options, for code that inspects them
    assert full.parse_args(["arena", "tictactoe", "--players", "random", "random"]).game == (
        "tictactoe"
    )


def test_arena_and_report_commands(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    argv = [
        "arena",
        "tictactoe",
        "--players",
        "minimax",
        "--matches",
        "2",
        "--out",
        str(tmp_path),
        "-q",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    # Both matches play seed 0, minimax first then second (a mirrored pair).
    assert rows_by_first(out)["minimax"][:3] == ["2", "1-1-0", "0.50"]
    results = next(tmp_path.glob("*.jsonl"))
    assert main(["report", str(results)]) == 0
    # report prints exactly the tables arena printed (the per-player and head-to-head).
    assert len(table_blocks(out)) == 2
    assert table_blocks(capsys.readouterr().out) == table_blocks(out)
    # a folder is read as its .jsonl files
    assert main(["report", str(tmp_path), "--no-plots"]) == 0
    assert table_blocks(capsys.readouterr().out) == table_blocks(out)
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_ctrl_c_keeps_finished_matches_and_a_rerun_resumes(runs: Runs, tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = ["arena", "connect4", "--players", "gamebot:gated", "random", "--no-baseline"]
    argv += ["--matches", "12", "--concurrency", "1", "--workers", "1", "--out", str(out), "-q"]
    # Its model is held once two matches are written: Ctrl-C comes in the middle of the
    # run, however slow the machine (no race with the run's end).
    process, _ = runs.gated(argv, out, after=2)
    wait_until(lambda: bool(runs.blocked("main")), "two matches, then a hold", running=process)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=DEADLINE_S)
    assert process.returncode == 130
    assert one_line(err) == (
        "interrupted: finished matches are saved; rerun the same command to resume"
    )
    kept = len(records(out))
    assert kept == 2
    rerun, _ = runs.start(argv)
    stdout, err = rerun.communicate(timeout=DEADLINE_S)
    assert rerun.returncode == 0, err
    assert f"{12 - kept} played now, {kept} already done" in stdout
    ids = [r["match_id"] for r in records(out)]
    assert len(ids) == len(set(ids)) == 12
