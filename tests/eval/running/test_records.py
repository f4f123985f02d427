"""Typed records at the file boundary: main's files read back unchanged, bad lines are named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from langgraph_games.eval import ArenaSpec, run_arena, summarize
from langgraph_games.eval.running.records import load_results, validate_line

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["main-search", "main-gamebot"])
def test_files_written_by_main_read_back_unchanged(name: str, tmp_path: Path) -> None:
    # Written by main's arena (a search match and a GAMEBoT match with intermediate
    # scores) before the records were typed; the summary is what main printed then.
    for suffix in (".jsonl", ".manifest.json"):
        shutil.copy(DATA / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    path = tmp_path / f"{name}.jsonl"
    loaded = load_results([path])
    assert loaded.notes == []
    raw = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r.record for r in loaded.records] == raw  # validation hands back the line as is
    markdown, _, _, notes = summarize(path)
    assert notes == []
    assert markdown == (DATA / f"{name}.summary.md").read_text()


def test_a_line_of_the_wrong_type_is_skipped_with_the_key_named(tmp_path: Path) -> None:
    good = json.loads((DATA / "main-search.jsonl").read_text().splitlines()[0])
    bad_returns = {**good, "match_id": "bad1", "result": {**good["result"], "returns": "1,-1"}}
    bad_step = json.loads(json.dumps({**good, "match_id": "bad2"}))
    del bad_step["trajectory"][0]["decisions"]["0"]["attempts"][0]["status"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (good, bad_returns, bad_step)))
    loaded = load_results([path])
    assert [r.line for r in loaded.records] == [1]
    assert loaded.notes == [
        "mixed.jsonl line 2: malformed (match record with result.returns input should be "
        "a valid list); skipped",
        "mixed.jsonl line 3: malformed (match record without "
        "trajectory.0.decisions.0.attempts.0.status); skipped",
    ]


def test_validate_line_accepts_hand_made_minimal_lines_and_failures() -> None:
    match = {"kind": "match", "game": "tictactoe-v1", "seats": ["a", "b"]}
    match["result"] = {"returns": [1, -1], "players": [{"decisions": 1}, {"decisions": 1}]}
    assert validate_line(match) is match
    failed = {"kind": "episode", "status": "error", "error": "RuntimeError: down"}
    assert validate_line(failed) is failed
    with pytest.raises(ValueError, match=r"round record without round"):
        validate_line({"kind": "round", "label": "x"})


async def test_every_line_this_branch_writes_validates(tmp_path: Path) -> None:
    spec = ArenaSpec(game="tictactoe", players=["minimax:depth=1"], matches=2)
    report = await run_arena(spec, tmp_path, progress=False)
    lines = [json.loads(x) for x in report.results_path.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        validate_line(line)
        step = line["trajectory"][0]
        assert set(step) == {"step", "turn", "observations", "decisions", "actions", "events"}
