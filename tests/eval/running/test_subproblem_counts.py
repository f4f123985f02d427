"""Scores are written once per attempt; I is read from the per-seat counts of each result.

Files written before the results held the counts (and repeated the first attempt's answers
and scores on each decision) still read, and score the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval import ArenaSpec, Scoring, run_arena
from langgraph_games.eval.reports.replay import build_replay
from langgraph_games.eval.running.records import load_results, validate_line
from langgraph_games.eval.scoring.metrics import player_rows
from langgraph_games.graphs.episode import summarize_players
from langgraph_games.graphs.episode.records import first_answers, retried_scores

DATA = Path(__file__).parent / "data"
OLD_ONLY = ("intermediate", "scores", "retry_scores")


def _old_records() -> list[dict[str, Any]]:
    """Matches written by an earlier version: answers repeated, no subproblem counts."""
    text = (DATA / "main-gamebot.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _as_written_now(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as this version writes it: each attempt's answers once, counts in the result."""
    new = json.loads(json.dumps(record))
    for step in new["trajectory"]:
        for decision in step["decisions"].values():
            for key in OLD_ONLY:
                del decision[key]
    counters = summarize_players(new["trajectory"], len(new["seats"]))
    for seat, mine in zip(new["result"]["players"], counters, strict=True):
        seat["subproblems"] = mine["subproblems"]
    return new


def _as_written_before(record: Any) -> dict[str, Any]:
    """``record`` as an earlier version wrote it (the inverse of :func:`_as_written_now`)."""
    old = json.loads(json.dumps(record))
    for seat in old["result"]["players"]:
        del seat["subproblems"]
    for step in old["trajectory"]:
        for decision in step["decisions"].values():
            decision["intermediate"], decision["scores"] = first_answers(decision)
            decision["retry_scores"] = retried_scores(decision)
    return old


def _without_trajectory(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "trajectory": []} for r in records]


def _i_columns(rows: list[Any]) -> dict[str, tuple[Any, Any, Any]]:
    return {r["player"]: (r["I"], r["I_sub"], r["I_retry"]) for r in rows}


def test_an_old_file_scores_i_from_its_trajectory_as_the_counts_do() -> None:
    old = _old_records()
    assert all("subproblems" not in seat for r in old for seat in r["result"]["players"])
    new = [_as_written_now(r) for r in old]
    for record in new:
        validate_line(record)
    for choice in ("first", "all", "last"):
        scoring = Scoring(intermediate=choice)
        from_walk = _i_columns(player_rows(old, scoring))
        assert from_walk == _i_columns(player_rows(new, scoring)), choice
    # I of a decision's first answers comes from the counts alone, re-asked ones too.
    assert _i_columns(player_rows(_without_trajectory(new))) == _i_columns(player_rows(old))
    # Without counts, the trajectory is where I comes from: left out, no I.
    assert {r["I"] for r in player_rows(_without_trajectory(old))} == {None}


def test_old_decisions_read_as_their_first_attempt() -> None:
    record = _old_records()[0]
    decision = record["trajectory"][0]["decisions"]["0"]
    assert (decision["intermediate"], decision["scores"]) == first_answers(decision)
    trimmed = _as_written_now(record)
    assert build_replay(record) == build_replay(trimmed)  # same page either way


async def test_each_score_is_written_once_and_counted_per_seat(
    tmp_path: Path, scripted_strategies: None
) -> None:
    # clumsy answers illegally at its first decision and is re-asked.
    spec = ArenaSpec(game="tictactoe", players=["perfect", "clumsy"], matches=2, baseline=False)
    report = await run_arena(spec, tmp_path, progress=False)
    records = [r.record for r in load_results([report.results_path]).records]
    seen_retry = False
    for record in records:
        assert record["kind"] == "match"
        for seat, counters in enumerate(record["result"]["players"]):
            steps = record["trajectory"]
            decisions = [s["decisions"][str(seat)] for s in steps if str(seat) in s["decisions"]]
            assert all(not set(OLD_ONLY) & set(d) for d in decisions)
            firsts = [s for d in decisions for s in first_answers(d)[1]]
            again = [s for d in decisions for s in retried_scores(d)]
            seen_retry |= bool(again)
            tally = counters["subproblems"]
            for table, scores in ((tally["first"], firsts), (tally["retried"], again)):
                assert {k: v["count"] for k, v in table.items()} == {
                    str(i): sum(1 for s in scores if s["index"] == i)
                    for i in sorted({s["index"] for s in scores})
                }
                assert sum(v["tp"] for v in table.values()) == sum(s["tp"] for s in scores)
    assert seen_retry
    rows = {r["player"]: r for r in report.rows}
    assert rows["perfect"]["I"] == 1.0 and rows["clumsy"]["I_retry"] is not None
    # The report's I needs no trajectory; the former "last" rule still reads it.
    bare = _without_trajectory(records)  # type: ignore[arg-type]
    assert _i_columns(player_rows(bare)) == _i_columns(report.rows)
    last = player_rows(records, Scoring(intermediate="last"))  # type: ignore[arg-type]
    assert {r["I"] for r in player_rows(bare, Scoring(intermediate="last"))} == {None}
    assert {r["I"] for r in last} != {None}
    # The same matches as an earlier version wrote them score the same, re-asked ones too.
    before = [_as_written_before(r) for r in records]
    for choice in ("first", "all", "last"):
        scoring = Scoring(intermediate=choice)
        assert _i_columns(player_rows(before, scoring)) == _i_columns(
            player_rows(records, scoring)  # type: ignore[arg-type]
        )


def test_counts_of_another_type_are_named(tmp_path: Path) -> None:
    record = _as_written_now(_old_records()[0])
    record["result"]["players"][0]["subproblems"]["first"]["1"]["tp"] = "3"
    with pytest.raises(ValueError, match=r"result\.players\.0\.subproblems\.first\.1\.tp"):
        validate_line(record)
