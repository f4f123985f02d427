"""Replay pages of records holding hostile text and ids: the page draws, the data reads back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cdp import Browser
from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena
from langgraph_games.eval.reports.replay import build_replay, render_page, write_replays
from langgraph_games.eval.reports.replay.page import PAGE_NAME_CHARS, page_name

HOSTILE = (
    "<!-- a comment opens </script><script>throw new Error('escaped')</script> "
    "<\\!-- a backslash \u2028 line \u2029 separators & <b>bold</b> ]]> \x00 end"
)
DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)


@pytest.fixture
async def scripted_match(tmp_path: Path, scripted_strategies: None) -> dict[str, Any]:
    """One TicTacToe match: ``perfect`` (X) against ``clumsy`` (O, illegal first answer)."""
    spec = ArenaSpec(game="tictactoe", players=["perfect", "clumsy"], matches=1, baseline=False)
    report = await run_arena(spec, tmp_path / "run", progress=False)
    [record] = ResultsFile(report.results_path).read().records
    return record


def _hostile(record: dict[str, Any]) -> dict[str, Any]:
    """The record with hostile text in a reply, an intermediate answer, a seat and a label."""
    changed = json.loads(json.dumps(record))
    attempt = changed["trajectory"][1]["decisions"]["1"]["attempts"][0]
    attempt["raw_outputs"] = [HOSTILE, "\ud800 half a pair"]
    attempt["intermediate"]["1"] = HOSTILE
    changed["seats"] = [f"perfect {HOSTILE}", "clumsy"]
    return changed


def test_any_reply_text_round_trips_through_the_data_block(scripted_match: dict[str, Any]) -> None:
    record = _hostile(scripted_match)
    replay = build_replay(record)  # type: ignore[arg-type]
    page = render_page(replay)
    [data] = DATA.findall(page)
    for unsafe in ("<", ">", "&", "\u2028", "\u2029", "\ud800"):
        assert unsafe not in data
    assert json.loads(data) == json.loads(json.dumps(replay))  # every text exactly as it was
    raw = json.loads(data)["steps"][1]["decisions"][0]["attempts"][0]["raw"]
    assert raw == [HOSTILE, "\ud800 half a pair"]
    page.encode("utf-8")  # no lone surrogate left outside the data block


def test_a_page_with_hostile_text_draws_in_a_browser(
    scripted_match: dict[str, Any], browser: Browser, tmp_path: Path
) -> None:
    written = write_replays([("run.jsonl line 1", _hostile(scripted_match))], tmp_path / "pages")
    [page] = written.pages
    browser.open(page.as_uri())
    assert browser.evaluate("document.querySelector('#counter').innerText") == "Step 0 / 5"
    browser.press("ArrowRight")
    shown = browser.evaluate("document.querySelector('.attempt.rejected pre.reasoning').innerText")
    assert "<!-- a comment opens </script><script>throw new Error('escaped')</script>" in shown
    assert "<\\!-- a backslash" in shown
    errors = [e for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]
    assert errors == []


def test_page_names_are_bounded_safe_and_distinct(
    scripted_match: dict[str, Any], tmp_path: Path
) -> None:
    long_id = {**scripted_match, "match_id": "m" * 5000}
    assert len(page_name(long_id)) == PAGE_NAME_CHARS  # type: ignore[arg-type]
    slash, underscore = ({**scripted_match, "match_id": i} for i in ("a/../b", "a_.._b"))
    names = {page_name(slash), page_name(underscore)}  # type: ignore[arg-type]
    assert len(names) == 2 and all(re.fullmatch(r"[A-Za-z0-9_.-]+\.html", n) for n in names)
    assert page_name(scripted_match).endswith(f"-{scripted_match['match_id']}.html")  # type: ignore[arg-type]
    records = [long_id, slash, underscore, scripted_match, scripted_match]
    written = write_replays([(f"line {i}", r) for i, r in enumerate(records)], tmp_path / "p")
    assert len({p.name for p in written.pages}) == 5  # the same id twice: two pages
    assert all(p.parent == tmp_path / "p" and len(p.name) <= PAGE_NAME_CHARS for p in written.pages)


def test_an_id_that_matches_nothing_is_one_line_whatever_the_ids_hold(
    scripted_match: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "odd.jsonl"
    ResultsFile(results).append({**scripted_match, "match_id": "line\nbreak\u2028" + "m" * 500})
    argv = ["replay", str(results), "--match", "zzz\n", "--out", str(tmp_path / "out")]
    assert main(argv) == 2
    [error] = capsys.readouterr().err.strip().splitlines()
    assert error.startswith("langgraph-games replay: error: no match or episode id starts with")
    assert "'line\\nbreak\\u2028mmm" in error and len(error) < 300
