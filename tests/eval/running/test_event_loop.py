"""The event loop of long runs: uvloop where installed, asyncio's own on request."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

from langgraph_games.cli import main as cli_main
from langgraph_games.eval import ResultsFile, run_arena
from langgraph_games.eval.running.event_loop import LOOP_ENV, loop_kind, run
from workers_support import small_arena, stable

HAVE_UVLOOP = importlib.util.find_spec("uvloop") is not None


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_setting_picks_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(_loop_module(), setting="asyncio").startswith("asyncio")
    monkeypatch.setenv(LOOP_ENV, "asyncio")
    assert loop_kind() == "asyncio"
    assert run(_loop_module()).startswith("asyncio")


@pytest.mark.skipif(not HAVE_UVLOOP, reason="uvloop is not installed here")
def test_auto_and_uvloop_run_on_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LOOP_ENV, raising=False)
    assert loop_kind() == "uvloop"
    assert run(_loop_module()).startswith("uvloop")
    assert run(_loop_module(), setting=" UVLOOP ").startswith("uvloop")


def test_an_unknown_setting_is_refused_and_the_coroutine_closed() -> None:
    coroutine = _loop_module()
    with pytest.raises(ValueError, match=r"'fast' is not an event loop; accepted: auto, uvloop"):
        run(coroutine, setting="fast")
    assert coroutine.cr_frame is None  # closed, so no "never awaited" warning


def test_the_command_line_names_a_bad_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(LOOP_ENV, "trio")
    argv = ["arena", "tictactoe", "--players", "random", "minimax:depth=1", "--matches", "1"]
    assert cli_main([*argv, "--out", str(tmp_path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"{LOOP_ENV}='trio' is not an event loop" in err and "auto, uvloop, asyncio" in err


@pytest.mark.skipif(not HAVE_UVLOOP, reason="uvloop is not installed here")
def test_both_loops_give_the_same_records(tmp_path: Path) -> None:
    records = {}
    for setting in ("asyncio", "uvloop"):
        folder = tmp_path / setting
        run(run_arena(small_arena(), folder, progress=False), setting=setting)
        path = next(folder.glob("*.jsonl"))
        lines = ResultsFile(path).read().records
        records[setting] = sorted((stable(r) for r in lines), key=lambda r: str(r.get("match_id")))
    assert len(records["uvloop"]) == 6
    assert records["uvloop"] == records["asyncio"]
