"""``--label NAME=SPEC``: short names in records, tables, manifest and leaderboard; bad labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena
from table_support import tables

LONG = "minimax:depth=1"


def _spec(**labels: str) -> ArenaSpec:
    return ArenaSpec(game="tictactoe", players=[LONG], matches=2, labels=labels)


async def test_a_label_names_the_player_everywhere_and_the_manifest_keeps_the_spec(
    tmp_path: Path,
) -> None:
    report = await run_arena(_spec(mm=LONG), tmp_path, progress=False)
    records = ResultsFile(report.results_path).read().records
    assert {name for r in records for name in r["seats"]} == {"mm", "random"}
    assert {r["player"] for r in report.rows} == {"mm", "random"}
    (players, *_) = tables(report.markdown)
    assert {row[0] for row in players[1:]} == {"mm", "random"} and LONG not in report.markdown
    manifest = json.loads(report.results_path.with_suffix(".manifest.json").read_text())
    assert manifest["spec"]["players"] == [LONG] and manifest["spec"]["labels"] == {"mm": LONG}
    assert manifest["names"] == {LONG: "mm", "random": "random"}
    assert manifest["roster"] == [LONG, "random"]
    again = await run_arena(_spec(mm=LONG), tmp_path, progress=False)
    assert again.results_path == report.results_path and again.skipped == 2  # resumes


def test_the_hash_follows_the_labels_and_is_unchanged_without_them() -> None:
    plain = ArenaSpec(game="tictactoe", players=[LONG], matches=2)
    assert _spec().spec_hash() == plain.spec_hash()  # no labels: the former hash
    assert _spec(mm=LONG).spec_hash() != plain.spec_hash()
    assert _spec(mm=LONG).spec_hash() != _spec(shallow=LONG).spec_hash()  # a new file
    assert _spec(mm=LONG).spec_hash() == _spec(mm=LONG).spec_hash()


def test_the_leaderboard_shows_the_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", LONG, "--label", f"mm={LONG}", "--matches", "2"]
    assert main([*argv, "--out", str(tmp_path), "-q", "--workers", "1"]) == 0
    capsys.readouterr()
    (results,) = tmp_path.glob("arena-*.jsonl")
    assert main(["leaderboard", str(results), "--bootstrap", "0", "-q"]) == 0
    (players, *_) = tables(capsys.readouterr().out)
    assert {row[1].rstrip(" *") for row in players[1:]} == {"mm", "random"}


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (["mm"], "--label 'mm': expected NAME=SPEC"),
        ([f"={LONG}"], "the name is empty"),
        ([f"mm={LONG}", "mm=random"], "the name 'mm' is given twice"),
        (["mm=minimax:depth=3"], "'minimax:depth=3' is not one of the players"),
        ([f"a={LONG}", f"b={LONG}"], f"'{LONG}' is already labelled 'a'"),
        ([f"random={LONG}"], "'random' is the spec of another player"),
    ],
)
def test_bad_labels_are_one_line_errors(
    labels: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", LONG, "--out", str(tmp_path)]
    for label in labels:
        argv += ["--label", label]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not list(tmp_path.glob("*.jsonl"))


def test_random_is_a_player_only_with_the_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", LONG, "minimax", "--out", str(tmp_path)]
    assert main([*argv, "--label", "r=random", "--no-baseline"]) == 2
    assert "'random' is not one of the players" in capsys.readouterr().err
    spec = ArenaSpec(game="tictactoe", players=[LONG], labels={"r": "random", "d1": LONG})
    assert spec.names() == {LONG: "d1", "random": "r"}
