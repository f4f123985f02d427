"""``--config FILE``: any command's options from a TOML or YAML file, the flags winning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langgraph_games.cli import main

_ARENA = """
players = ["minimax:depth=1", "random"]
matches = 2
max_steps = 3
no-swap = true
workers = "1"
quiet = true
"""


def _matches(out: Path) -> list[dict[str, object]]:
    (results,) = out.glob("*.jsonl")
    return [json.loads(line) for line in results.read_text().splitlines()]


def test_the_file_sets_the_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "run.toml"
    config.write_text(_ARENA + f'out = "{tmp_path / "out"}"\n')
    assert main(["arena", "tictactoe", "--config", str(config)]) == 0, capsys.readouterr().err
    records = _matches(tmp_path / "out")
    assert len(records) == 2  # matches = 2
    assert all(r["seats"] == ["minimax:depth=1", "random"] for r in records)  # no-swap
    assert all(r["result"]["steps"] == 3 for r in records)  # max_steps = 3 (underscores too)


def test_flags_win_over_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "run.yaml"  # the same keys in YAML
    config.write_text(
        "players: [minimax:depth=1, random]\nmatches: 2\nmax-steps: 3\nno_swap: true\n"
        f"workers: 1\nquiet: true\nout: {tmp_path / 'file-out'}\n"
    )
    argv = ["arena", "tictactoe", "--config", str(config), "--matches", "1",
            "--max-st", "2", "--out", str(tmp_path / "flag-out")]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().err
    assert not (tmp_path / "file-out").exists()
    records = _matches(tmp_path / "flag-out")
    assert len(records) == 1 and records[0]["result"]["steps"] == 2  # --max-st abbreviates


def test_an_unknown_key_is_one_line_naming_it_and_the_accepted_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "run.toml"
    config.write_text('matchs = 3\nplayers = ["random", "minimax"]\n')
    assert main(["arena", "tictactoe", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"langgraph-games arena: error: --config {config}: arena has no option")
    assert "'matchs'" in err and "accepted: " in err and "matches, max-retries" in err


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("bad.toml", "matches = \n", "not valid TOML"),
        ("bad.yaml", "matches: [1\n", "not valid YAML"),
        ("list.yaml", "- matches\n", "must hold one table of options, got list"),
        ("kind.toml", 'no-swap = "yes"\n', "no-swap is true or false, got 'yes'"),
        ("many.toml", "matches = [1, 2]\n", "matches takes one value, got a list"),
        ("missing.toml", None, "no such file"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str | None, why: str
) -> None:
    config = tmp_path / name
    if text is not None:
        config.write_text(text)
    assert (
        main(["arena", "tictactoe", "--players", "random", "minimax", "--config", str(config)]) == 2
    )
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"--config {config}: {why}" in err, err


def test_a_bad_value_is_refused_as_the_flag_would_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "run.toml"
    config.write_text('fallback = "never"\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "tictactoe", "--players", "random", "minimax", "--config", str(config)])
    assert exit_info.value.code == 2
    assert "argument --fallback: invalid choice: 'never'" in capsys.readouterr().err
