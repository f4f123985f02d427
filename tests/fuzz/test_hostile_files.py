"""Fuzzing every reader of results files with damaged copies of files the commands wrote.

A few hundred seeded mutants here (a few seconds); ``LANGGRAPH_GAMES_FUZZ_FILES=2000`` (or
``python benchmarks/fuzz_inputs.py``) runs more. Every file must end in a report whose
notes name each line left out, or in a command's documented one-line error: never an
exception, a page that does not parse, or a line neither used nor named.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from fuzz.files import build_corpus, check_file, mutants
from langgraph_games.eval.reports.report import build_report
from langgraph_games.eval.running.records import load_results

FILES = int(os.environ.get("LANGGRAPH_GAMES_FUZZ_FILES", "300"))
SEED = 20_251_127


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return build_corpus(tmp_path_factory.mktemp("corpus"))


def test_the_seed_files_read_whole(corpus: list[Path], tmp_path: Path) -> None:
    """Files the commands write are used whole: no note, and every reader is clean."""
    kinds = {path.name.split("-")[0] + "-" + path.name.split("-")[1] for path in corpus}
    assert {"arena-tictactoe", "eval-maze", "eval-crafter", "train-maze"} <= kinds
    for path in corpus:
        loaded = load_results([path])
        assert loaded.notes == [], (path.name, loaded.notes)
        assert check_file(path, tmp_path / path.stem, plots=path.name.startswith("arena")) == []


def test_mutated_files_end_in_notes_or_documented_errors(
    corpus: list[Path], tmp_path: Path
) -> None:
    found = []
    for number, mutant in enumerate(mutants(corpus, SEED, FILES)):
        path = mutant.write(tmp_path / "files" / str(number))
        problems = check_file(path, tmp_path / "out" / str(number))
        if problems:
            found.append(f"{mutant.name} ({'; '.join(mutant.how)}): {problems[0]}")
    assert found == [], f"{len(found)} of {FILES} files: " + "\n".join(found[:10])


def _line(record: dict[str, object]) -> str:
    return json.dumps(record) + "\n"


def test_each_record_that_does_not_agree_with_itself_is_named_by_line(
    corpus: list[Path], tmp_path: Path
) -> None:
    [arena] = [p for p in corpus if p.name.startswith("arena-tictactoe")]
    good = json.loads(arena.read_text().splitlines()[0])
    seats3 = {**good, "seats": [*good["seats"], "random"]}
    short = {**good, "result": {**good["result"], "returns": [1.0]}}
    winner = {**good, "result": {**good["result"], "winners": [7]}}
    bad_key = json.loads(json.dumps(good))
    bad_key["trajectory"][0]["decisions"]["x"] = bad_key["trajectory"][0]["decisions"].pop("0")
    no_index = json.loads(json.dumps(good))
    del no_index["trajectory"][0]["decisions"]["0"]["attempts"][0]["scores"][0]["index"]
    other_game = json.loads(json.dumps(good))
    other_game["result"]["record"]["game"] = "connect4-v1"
    no_counters = {**good, "result": {**good["result"], "players": []}}
    path = tmp_path / "odd.jsonl"
    lines = [good, seats3, short, winner, bad_key, no_index, other_game, no_counters]
    path.write_text(
        "".join(_line(r) for r in lines)
        + '{"kind": "match", "seed": NaN}\n'
        + '{"kind": "match", "seed": 123456789012345678901234567890}\n'
    )
    loaded = load_results([path])
    assert [r.line for r in loaded.records] == [1]
    assert loaded.notes == [
        "odd.jsonl line 9: bad JSON: NaN is not a JSON number; skipped",
        "odd.jsonl line 10: bad JSON: an integer of 30 digits, beyond 64 bits; skipped",
        "odd.jsonl line 2: malformed (match record with 3 seats and 2 result.returns); skipped",
        "odd.jsonl line 3: malformed (match record with 1 result.returns for a game of 2 "
        "seat(s)); skipped",
        "odd.jsonl line 4: malformed (match record with result.winners 7, not one of its 2 "
        "seat(s)); skipped",
        "odd.jsonl line 5: malformed (match record with trajectory.0.decisions key 'x', not a "
        "seat); skipped",
        "odd.jsonl line 6: malformed (match record with a score at step 0 without index); skipped",
        "odd.jsonl line 7: malformed (match record of tictactoe-v1 with result.record of "
        "'connect4-v1'); skipped",
        "odd.jsonl line 8: malformed (match record with 0 result.players and 2 seats); skipped",
    ]


def test_metrics_a_table_cannot_read_are_left_out_of_it_by_line(
    corpus: list[Path], tmp_path: Path
) -> None:
    [maze] = [p for p in corpus if p.name.startswith("eval-maze")]
    good = json.loads(maze.read_text().splitlines()[0])
    no_success = json.loads(json.dumps(good))
    del no_success["metrics"]["success"]
    text_score = json.loads(json.dumps(good))
    text_score["metrics"]["score"] = "(1,1)"
    other_family = {**good, "family": "generic"}
    path = tmp_path / "maze.jsonl"
    path.write_text("".join(_line(r) for r in (good, no_success, text_score, other_family)))
    report = build_report([path])
    assert re.search(r"maze_explorer +\| 1 +\|", report.markdown())  # the good line only
    assert "maze.jsonl line 2: maze metrics without success; left out of the tables" in report.notes
    assert (
        "maze.jsonl line 3: maze metrics with score input should be a valid number; left out "
        "of the tables" in report.notes
    )
    assert (
        "maze.jsonl line 4: family 'generic' is not its game's family 'maze'; left out of "
        "the tables" in report.notes
    )
