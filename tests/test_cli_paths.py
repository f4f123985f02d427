"""Output options are checked before any work starts: one line, exit code 2.

Every command's ``--out``/``--output``/``--store``/``--cache``/``--study-cache`` that is a
file where a folder is expected (or a folder where a file is), lies under a file, or is
somewhere the command cannot write, stops the command with ``error: --out 'x/y': 'x' is
a file, not a directory`` before a model loads (the model specs below name an endpoint
that does not answer: reaching it would give another error) and before anything is
written. ``replay`` on results whose games are all unknown says so and fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.eval.running.results import ResultsFile

DOWN = "openai:m@http://127.0.0.1:9/v1"  # no endpoint listens there

# Each command with the arguments it needs, and where the checked option goes.
DIR_OPTIONS = {
    "arena --out": ["arena", "tictactoe", "--players", f"gamebot:{DOWN}", "random", "--out"],
    "eval --out": ["eval", "maze", "--player", f"eeb:{DOWN}", "--out"],
    "train --out": ["train", "maze", "--model", DOWN, "--out"],
    "train --store": ["train", "maze", "--model", DOWN, "--store"],
    "smartplay --out": ["smartplay", "--agent", f"smartplay:{DOWN}", "--out"],
    "report --out": ["report", "RESULTS", "--out"],
    "replay --out": ["replay", "RESULTS", "--out"],
}
FILE_OPTIONS = {
    "study --output": ["study", "--model", DOWN, "--no-cache", "--output"],
    "study --cache": ["study", "--model", DOWN, "--cache"],
    "eval --study-cache": [
        "eval",
        "crafter",
        "--player",
        f"spring:{DOWN}",
        "--study",
        "doc.md",
        "--study-cache",
    ],
}


@pytest.fixture
def results(tmp_path: Path) -> Path:
    path = tmp_path / "results.jsonl"
    ResultsFile(path).append({"kind": "match", "game": "tictactoe-v1", "status": "error"})
    return path


def _run(argv: list[str], value: Path, results: Path) -> int:
    args = [str(results) if a == "RESULTS" else a for a in argv]
    return main([*args, str(value)])


def _one_line_error(capsys: pytest.CaptureFixture[str], option: str, value: Path) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert f": error: {option} {str(value)!r}: " in lines[0], lines[0]
    assert "Traceback" not in captured.err and captured.out == ""
    return lines[0]


def _unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot write in."""
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        return locked
    if Path("/sys").is_dir():  # root writes anywhere but in sysfs
        return Path("/sys")
    pytest.skip("no place this process cannot write")


@pytest.mark.parametrize("name", DIR_OPTIONS)
def test_a_folder_option_that_is_a_file_or_under_one_or_unwritable(
    name: str, tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    option = name.split()[1]
    blocker = tmp_path / "x"
    blocker.write_text("a file")
    for value in (blocker, blocker / "y"):
        assert _run(DIR_OPTIONS[name], value, results) == 2
        line = _one_line_error(capsys, option, value)
        assert line.endswith(f"{str(blocker)!r} is a file, not a directory")
    locked = _unwritable(tmp_path)
    value = locked / "runs"
    assert _run(DIR_OPTIONS[name], value, results) == 2
    assert f"cannot write in {str(locked)!r} (" in _one_line_error(capsys, option, value)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["x", "results.jsonl"] + (["locked"] if locked.parent == tmp_path else [])
    )  # nothing was written


@pytest.mark.parametrize("name", FILE_OPTIONS)
def test_a_file_option_that_is_a_folder_or_under_a_file(
    name: str, tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    option = name.split()[1]
    folder = tmp_path / "folder"
    folder.mkdir()
    assert _run(FILE_OPTIONS[name], folder, results) == 2
    line = _one_line_error(capsys, option, folder)
    assert line.endswith(f"{str(folder)!r} is a directory, not a file")
    blocker = tmp_path / "x"
    blocker.write_text("a file")
    value = blocker / "context.txt"
    assert _run(FILE_OPTIONS[name], value, results) == 2
    line = _one_line_error(capsys, option, value)
    assert line.endswith(f"{str(blocker)!r} is a file, not a directory")


def test_replay_of_unknown_games_only_fails_and_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.jsonl"
    for game in ("curling-v1", "curling-v1", "chess-v2"):
        ResultsFile(path).append({"kind": "match", "game": game, "status": "finished"})
    out = tmp_path / "pages"
    assert main(["replay", str(path), "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert "3 record(s) skipped because their game is not registered here" in error
    assert "'curling-v1' (2), 'chess-v2' (1)" in error
    assert "registered games: " in error and "tictactoe-v1" in error
    assert not out.exists()


READERS = {
    "report": ["report", "PATH", "--no-plots", "--out", "OUT"],
    "replay": ["replay", "PATH", "--out", "OUT"],
    "leaderboard": ["leaderboard", "PATH", "--bootstrap", "0", "--out", "OUT"],
}


def _reader(name: str, path: Path, out: Path) -> list[str]:
    return [str(path) if a == "PATH" else str(out) if a == "OUT" else a for a in READERS[name]]


@pytest.mark.parametrize("name", READERS)
def test_a_results_folder_is_read_as_its_jsonl_files(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "runs"
    argv = ["arena", "tictactoe", "--players", "random", "minimax", "--matches", "1"]
    assert main([*argv, "--out", str(folder), "-q"]) == 0
    (folder / "notes.txt").write_text("not results")
    capsys.readouterr()
    [results] = folder.glob("*.jsonl")
    assert main(_reader(name, folder, tmp_path / "a")) == 0
    from_folder = capsys.readouterr()
    assert main(_reader(name, results, tmp_path / "b")) == 0
    from_file = capsys.readouterr()
    assert from_folder.err == from_file.err == ""
    assert from_folder.out.replace(str(tmp_path / "a"), "OUT") == from_file.out.replace(
        str(tmp_path / "b"), "OUT"
    )


@pytest.mark.parametrize("name", READERS)
def test_an_empty_folder_or_a_missing_file_is_refused_in_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    accepted = "give .jsonl results files written by arena, eval, smartplay or train"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not results")
    for path, problem in (
        (empty, f"{str(empty)!r} is a folder with no .jsonl file in it; "),
        (
            tmp_path / "nope.jsonl",
            f"results file {tmp_path / 'nope.jsonl'} does not exist; ",
        ),
    ):
        assert main(_reader(name, path, tmp_path / "out")) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and captured.out == ""
        assert f"{name}: error: {problem}{accepted}" in captured.err


def test_a_spec_the_arena_refuses_is_one_line_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", "random", "random", "--out", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pydantic" not in err and "http" not in err
    assert "arena: error: --players: player specs must be distinct" in err
    assert main([*argv, "--matches", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
