"""steady_gc: the run's start frozen, the young generation collected less often, all restored."""

from __future__ import annotations

import gc

import pytest

from langgraph_games.cli import main
from langgraph_games.eval.running.gc_tuning import YOUNG_THRESHOLD, steady_gc


def test_settings_inside_and_restored_after() -> None:
    before = gc.get_threshold()
    with steady_gc():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_nested_blocks_keep_the_outer_settings_until_it_ends() -> None:
    before = gc.get_threshold()
    with steady_gc():
        with steady_gc(young=123):
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before


def test_restored_when_the_block_raises() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), steady_gc():
        raise RuntimeError("boom")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_cycles_are_still_collected_inside() -> None:
    with steady_gc():
        collected = []

        class Node:
            def __del__(self) -> None:
                collected.append(1)

        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        del a, b
        gc.collect()
        assert collected == [1, 1]


def test_the_command_line_runs_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(
        "langgraph_games.cli.games_cmd.run", lambda args: seen.append(gc.get_threshold()[0]) or 0
    )
    assert main(["games"]) == 0
    assert seen == [YOUNG_THRESHOLD]
