"""Appends from many episodes share an fsync, and each still returns only once on disk."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval.running.group_append import GroupAppend
from langgraph_games.eval.running.results import ResultsFile


class _Flushes:
    """Records the file's size at each ``fsync`` (of the results file's descriptor)."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sizes: list[int] = []
        real = os.fsync

        def fsync(fd: int) -> None:
            real(fd)
            self.sizes.append(path.stat().st_size)

        monkeypatch.setattr(os, "fsync", fsync)


def _watched_appender(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, _Flushes, GroupAppend]:
    """A results file, its recorded flushes, and an appender to it."""
    path = tmp_path / "results.jsonl"
    return path, _Flushes(path, monkeypatch), GroupAppend(ResultsFile(path))


async def test_records_waiting_together_share_a_flush_and_each_returns_once_flushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, flushes, appender = _watched_appender(tmp_path, monkeypatch)
    on_disk_when_returned: list[bool] = []

    async def one(i: int) -> None:
        await appender.append({"id": i, "text": "x" * 200})
        line = f'"id":{i},'.encode()
        flushed = path.read_bytes()[: max(flushes.sizes, default=0)]
        on_disk_when_returned.append(line in flushed)

    await asyncio.gather(*(one(i) for i in range(40)))
    records = ResultsFile(path).read()
    assert sorted(r["id"] for r in records.records) == list(range(40))
    assert not records.skipped
    assert on_disk_when_returned == [True] * 40  # each covered by an fsync before returning
    assert 1 <= len(flushes.sizes) < 40  # shared: fewer flushes than records


async def test_one_record_at_a_time_is_flushed_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, flushes, appender = _watched_appender(tmp_path, monkeypatch)
    for i in range(3):
        await appender.append({"id": i})
        assert len(flushes.sizes) == i + 1  # nothing waits for company
    assert [r["id"] for r in ResultsFile(path).read().records] == [0, 1, 2]


async def test_a_record_that_is_not_json_fails_alone(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    appender = GroupAppend(ResultsFile(path))
    outcomes = await asyncio.gather(
        appender.append({"id": 1}),
        appender.append({"id": 2, "bad": object()}),
        appender.append({"id": 3}),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], TypeError) and "object" in str(outcomes[1])
    assert [r["id"] for r in ResultsFile(path).read().records] == [1, 3]


async def test_a_failed_flush_fails_every_append_of_its_pass_and_the_next_pass_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "results.jsonl"
    real = os.fsync
    failing = threading.Event()
    failing.set()

    def fsync(fd: int) -> None:
        if failing.is_set():
            failing.clear()
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    appender = GroupAppend(ResultsFile(path))
    outcomes = await asyncio.gather(
        *(appender.append({"id": i}) for i in range(3)), return_exceptions=True
    )
    assert all(isinstance(o, OSError) and "No space" in str(o) for o in outcomes)
    await appender.append({"id": 9})  # the disk is back: the next append is flushed
    assert 9 in [r["id"] for r in ResultsFile(path).read().records]


async def test_a_cancelled_caller_still_gets_its_record_written(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    results = ResultsFile(path)
    started, release = threading.Event(), threading.Event()
    extend_each = results.extend_each

    def slow(records: Any) -> Any:
        started.set()
        release.wait(10)
        return extend_each(records)

    results.extend_each = slow  # type: ignore[method-assign]
    appender = GroupAppend(results)
    caller = asyncio.ensure_future(appender.append({"id": 5}))
    await asyncio.to_thread(started.wait, 10)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    release.set()
    await appender.drain()
    assert [r["id"] for r in ResultsFile(path).read().records] == [5]
