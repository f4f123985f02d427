"""Typed ExpVer ledger records: main's training file opens, reads back and resumes.

A malformed ledger line is refused with its line and key named.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from expver_support import install_coach
from langgraph_games.cli import main
from langgraph_games.eval.running.jobs import job_record
from langgraph_games.eval.running.records import RunFields, is_failed, load_results, validate_line
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.training import (
    FileLedger,
    TrainSpec,
    describe_event,
    round_table,
)
from langgraph_games.graphs.expver.parts import ExpVerError
from langgraph_games.graphs.expver.records import validate_ledger_record
from table_support import table_blocks

DATA = Path(__file__).parent / "data"
TRAIN = ["train", "maze", "--rounds", "2", "--model", "coach", "-q"]
"""The command that wrote ``main-train.jsonl`` (on main, before the ledger was typed)."""


def main_lines() -> list[dict[str, Any]]:
    return [json.loads(x) for x in (DATA / "main-train.jsonl").read_text().splitlines()]


def spec() -> TrainSpec:
    return TrainSpec.model_validate(
        json.loads((DATA / "main-train.manifest.json").read_text())["spec"]
    )


def main_table() -> str:
    """main's rounds as this code's table shows them (main's own summary had fewer columns:
    ``main-train.summary.md``); the columns main's records lack read as ``-``."""
    return (DATA / "main-train.table.md").read_text().strip()


def test_mains_training_file_opens_and_reads_back_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "train.jsonl"
    shutil.copy(DATA / "main-train.jsonl", path)
    raw = main_lines()
    ledger = FileLedger(ResultsFile(path), spec())
    assert list(ledger.records.values()) == raw  # each line validated, kept as read
    rounds = [r for r in ledger.records.values() if r["kind"] == "round"]
    assert round_table(rounds) == main_table()
    loaded = load_results([path])  # the reports' boundary reads it too
    assert loaded.notes == [] and [r.record for r in loaded.records] == raw


def test_a_training_run_resumes_from_mains_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # main's file cut after the baseline (round 0): a run killed there, resumed by this code.
    install_coach(monkeypatch)
    manifest = json.loads((DATA / "main-train.manifest.json").read_text())
    path = tmp_path / f"train-maze-{manifest['spec_hash']}.jsonl"
    baseline = (DATA / "main-train.jsonl").read_text().splitlines(keepends=True)[:3]
    assert json.loads(baseline[-1])["id"] == "round/0/test"
    path.write_text("".join(baseline))
    assert main([*TRAIN, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "(10 episodes played now)" in out  # of 12: the baseline's 2 were there
    # The same table, but for the rounds played now saying how many truths were reverted.
    reverted = [c.strip() for c in main_table().splitlines()[0].split("|")].index("reverted")
    shown = table_blocks(out, costs=False)[0].splitlines()
    expected = main_table().splitlines()
    assert len(shown) == len(expected)
    for row, want in zip(shown, expected, strict=True):
        got, wanted = ([c.strip() for c in line.split("|")] for line in (row, want))
        assert got[:reverted] + got[reverted + 1 :] == wanted[:reverted] + wanted[reverted + 1 :]
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r["id"] for r in lines] == [r["id"] for r in main_lines()][:3] + [
        r["id"] for r in lines[3:]
    ]
    assert sorted(r["id"] for r in lines) == sorted(r["id"] for r in main_lines())
    # Written again by this code: every record keeps main's keys in main's order (the
    # relation check's counts come after them), and the round records (no clock readings
    # in them) hold main's values.
    mains = {r["id"]: r for r in main_lines()}
    newer = {"same_meaning", "supported", "refined", "superseded", "restored", "refused",
             "contests", "refusals", "truths_reverted"}  # fmt: skip
    for record in lines:
        old = list(mains[record["id"]])
        assert [k for k in record if k in old] == old and set(record) - set(old) <= newer
        if record["kind"] == "round":
            assert {k: record[k] for k in old} == mains[record["id"]]


def _bad(index: int, change: dict[str, Any], drop: str | None = None) -> dict[str, Any]:
    record = json.loads(json.dumps(main_lines()[index]))
    record.update(change)
    if drop is not None:
        del record[drop]
    return record


@pytest.mark.parametrize(
    ("index", "change", "drop", "message"),
    [
        (0, {}, "metrics", r"episode record without metrics"),
        (0, {"round": "1"}, None, r"episode record with round input should be a valid integer"),
        (9, {}, "promoted", r"round record without promoted"),
        (9, {"levels": "L1"}, None, r"round record with levels input should be a valid list"),
        (2, {}, "accepted_scores", r"round record without accepted_scores"),
        (10, {"next_cursor": 2.5}, None, r"round record with next_cursor input should be"),
        (2, {"split": "replay"}, None, r"record of kind 'round' and split 'replay' is no ledger"),
    ],
)  # fmt: skip
def test_a_malformed_ledger_line_is_refused_naming_the_line_and_key(
    tmp_path: Path, index: int, change: dict[str, Any], drop: str | None, message: str
) -> None:
    # Indexes into main's file: 0 an episode, 9 round/1/train, 2 and 10 round/0 and 1/test.
    lines = main_lines()
    lines[index] = _bad(index, change, drop)
    path = tmp_path / "train.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(ExpVerError, match=rf"train.jsonl line {index + 1}: {message}"):
        FileLedger(ResultsFile(path), spec())


def test_ledger_types_take_mains_lines_and_name_what_is_not_one() -> None:
    for record in main_lines():
        assert validate_ledger_record(record) is record
    with pytest.raises(ValueError, match=r"kind 'match' and split None is no ledger record"):
        validate_ledger_record({"kind": "match", "id": "m1"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"human_seat": "1"}, r"match record with human_seat input should be a valid integer"),
        ({"source": 3}, r"match record with source input should be a valid string"),
    ],
)
def test_serve_keys_of_a_match_line_are_typed(change: dict[str, Any], message: str) -> None:
    match: dict[str, Any] = {"kind": "match", "game": "tictactoe-v1", "seats": ["a", "b"]}
    match["result"] = {"returns": [1, -1], "players": [{}, {}]}
    assert validate_line({**match, "source": "serve", "human_seat": 0})
    with pytest.raises(ValueError, match=message):
        validate_line({**match, **change})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": []}, r"match record with options input should be a valid dictionary"),
        ({"round": "2"}, r"match record with round input should be a valid integer"),
    ],
)
def test_the_executors_keys_of_a_failed_line_are_typed(
    change: dict[str, Any], message: str
) -> None:
    failed = {"kind": "match", "status": "error", "error": "RuntimeError: down", "round": 1}
    assert validate_line({**failed, "options": {}})
    with pytest.raises(ValueError, match=message):
        validate_line({**failed, **change})


def test_job_records_keep_mains_key_order_and_read_back() -> None:
    # The executor's and the workers' error records come from one builder, in main's order.
    base: RunFields = {"kind": "match", "spec_hash": "abc"}
    record = job_record(
        base,
        {"match_id": "m1", "round": 0},
        game="tictactoe-v1",
        options={},
        seed=3,
        seats=["a", "b"],
        started_at=1.5,
    )
    assert list(record) == [
        "kind", "spec_hash", "match_id", "round", "game", "options", "seed", "seats",
        "started_at", "status",
    ]  # fmt: skip
    lost = job_record(base, {"match_id": "m2"}, game="tictactoe-v1", seed=1, seats=[], error="x")
    assert list(lost)[-3:] == ["seats", "status", "error"]
    for line in (record, lost):
        checked = validate_line(json.loads(json.dumps(line)))
        assert is_failed(checked)
    with pytest.raises(ValueError, match=r"match record with seed input should be a valid int"):
        validate_line({**lost, "seed": "1"})


def test_progress_lines_of_typed_events_and_none_for_another_writers() -> None:
    [baseline] = [r for r in main_lines() if r["id"] == "round/0/test"]
    event = {"event": "baseline", "record": baseline}
    line = "round 0 test: success 0%, score -1000.0: baseline"
    assert describe_event(event) == line
    assert describe_event({"event": "progress", "n": 3}) is None
