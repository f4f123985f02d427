"""How records travel from workers to the one writer: pipes, batches, one fsync each."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from langgraph_games.eval import ResultsFile
from langgraph_games.eval.running import results as results_module
from langgraph_games.eval.running import workers_pool
from langgraph_games.eval.running.executor import Job
from langgraph_games.eval.running.records import PlayedRecord
from langgraph_games.eval.running.workers import (
    Event,
    Finished,
    Lost,
    Setup,
    Task,
    Usage,
    prepare,
)
from langgraph_games.eval.running.workers_dispatch import WorkerPool
from langgraph_games.eval.running.workers_pool import _Outbox, _Worker
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import registry
from workers_support import (
    PADDING,
    finish_fails,
    first_legal_move,
    long_winded,
    note_process,
    run_small_jobs,
)


def _counting_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(results_module.os, "fsync", fsync)
    return calls


def test_records_written_together_are_one_line_each_and_one_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fsyncs = _counting_fsyncs(monkeypatch)
    results = ResultsFile(tmp_path / "r.jsonl")
    results.append({"match_id": "a"})
    results.extend([{"match_id": "b"}, {"match_id": "c", "seats": ("x", "y")}])
    assert len(fsyncs) == 2
    assert (tmp_path / "r.jsonl").read_text().splitlines() == [
        '{"match_id":"a"}',
        '{"match_id":"b"}',
        '{"match_id":"c","seats":["x","y"]}',
    ]
    results.extend([])
    assert len(fsyncs) == 2  # nothing to write, nothing flushed


def test_a_record_that_cannot_be_encoded_is_named_and_the_others_are_written(
    tmp_path: Path,
) -> None:
    results = ResultsFile(tmp_path / "r.jsonl")
    with pytest.raises(TypeError, match=r"1 record\(s\) not written.*object"):
        results.extend([{"match_id": "a"}, {"match_id": "b", "bad": object()}, {"match_id": "c"}])
    assert [r["match_id"] for r in results.read().records] == ["a", "c"]
    with pytest.raises(TypeError, match="not written"):
        results.append({"bad": object()})
    assert len(results.read().records) == 2


def _frame(message: tuple[Any, ...]) -> bytes:
    data = pickle.dumps(message)
    return len(data).to_bytes(4, "big") + data


def test_a_workers_pipe_gives_whole_messages_however_the_bytes_arrive() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        worker = _Worker(process=cast(Any, None), inbox=None, pipe=cast(Any, pipe))
        record = {"match_id": "m", "text": "y" * 5000}
        stream = _frame(("decision", 1, {"calls": 1})) + _frame(("record", 1, 7, record))
        assert worker.read() == []  # nothing yet, and no blocking
        got: list[Event] = []
        for start in range(0, len(stream), 999):  # pieces that split headers and bodies
            os.write(write_end, stream[start : start + 999])
            got += worker.read()
        assert got == [Usage(1, {"calls": 1}), Finished(1, 7, record)]
        os.write(write_end, _frame(("record", 1, 8, record))[:100])  # then its writer dies
        os.close(write_end)
        assert worker.read() == [] and worker.ended  # half a message is not a message


async def _carried(messages: list[tuple[Any, ...]]) -> tuple[list[Event], bool]:
    """``messages`` put on a worker's outbox, as the parent's side reads them, and whether
    the parent saw the pipe end once the outbox closed."""
    reader, writer = multiprocessing.get_context("spawn").Pipe(duplex=False)
    if workers_pool._PIPE_TRANSPORT:
        os.set_blocking(reader.fileno(), False)
    worker = _Worker(process=cast(Any, None), inbox=None, pipe=reader)
    outbox = await _Outbox.open(writer)
    for message in messages:
        outbox.put(message)  # never blocks the loop, however much is waiting
    got: list[Event] = []
    closing = asyncio.ensure_future(outbox.close())
    while not worker.ended:
        got += worker.read()
        await asyncio.sleep(0.001)
    await closing
    reader.close()
    return got, worker.ended


@pytest.mark.parametrize("transport", [True, False], ids=["pipe-transport", "send-bytes"])
async def test_an_outbox_carries_messages_larger_than_the_pipe_in_order(
    transport: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers_pool, "_PIPE_TRANSPORT", transport)
    big = {"match_id": "big", "text": "z" * 300_000}  # several times a pipe's buffer
    messages: list[tuple[Any, ...]] = [
        ("decision", 0, {"calls": 1}),
        ("record", 0, 3, big),
        ("record", 0, 4, {"match_id": "small"}),
    ]
    if not transport:  # send_bytes waits for a reader: read while it writes
        got, ended = await asyncio.wait_for(_carried(messages[:1] + messages[2:]), 10)
        assert got == [Usage(0, {"calls": 1}), Finished(0, 4, {"match_id": "small"})]
        assert ended
        return
    got, ended = await asyncio.wait_for(_carried(messages), 10)
    assert got == [
        Usage(0, {"calls": 1}),
        Finished(0, 3, big),
        Finished(0, 4, {"match_id": "small"}),
    ]
    assert ended


def _jobs(script: Callable[[Any], str], count: int) -> list[Job]:
    recipe = registry.resolve_player("gamebot", model=ScriptedChatModel(script=script))
    game = make("connect4")
    return [Job(f"j{i}", [recipe, recipe], i, {"match_id": f"j{i}"}, game) for i in range(count)]


async def test_records_larger_than_a_pipe_come_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    played, errors = await run_small_jobs(_jobs(long_winded, 4), path, workers=2)
    records = ResultsFile(path).read().records
    assert (played, errors) == (4, 0)
    assert sorted(r["match_id"] for r in records) == ["j0", "j1", "j2", "j3"]
    for record in records:
        outputs = [
            output
            for step in record["trajectory"]
            for decision in step["decisions"].values()
            for attempt in decision["attempts"]
            for output in attempt["raw_outputs"]
        ]
        assert len(outputs) == 4 and all(len(o) > PADDING for o in outputs)


async def test_finish_runs_in_the_worker_before_the_record_is_written(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    dead = ScriptedChatModel(responses=[ConnectionError("endpoint down")])
    recipe = registry.resolve_player("gamebot", model=dead)
    bad = Job("bad", [recipe, recipe], 9, {"match_id": "bad"}, make("connect4"))
    jobs = [*_jobs(first_legal_move, 3), bad]
    played, errors = await run_small_jobs(jobs, path, workers=2, finish=note_process)
    by_id = {r["match_id"]: r for r in ResultsFile(path).read().records}
    assert (played, errors) == (4, 1)
    finished = [by_id[f"j{i}"] for i in range(3)]
    assert all(r["finished_game"] == "connect4" for r in finished)
    assert all(r["finished_in"] != os.getpid() for r in finished)  # not the writer
    assert "finished_in" not in by_id["bad"]  # an error's record is not finished


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_finish_that_fails_is_that_episodes_error(tmp_path: Path, workers: int) -> None:
    path = tmp_path / "r.jsonl"
    played, errors = await run_small_jobs(
        _jobs(first_legal_move, 3), path, workers=workers, finish=finish_fails
    )
    records = ResultsFile(path).read().records
    assert (played, errors) == (3, 3)  # every episode has its record: none waits forever
    assert sorted(r["match_id"] for r in records) == ["j0", "j1", "j2"]
    assert all(
        r["error"] == f"finishing the record failed: ValueError: no metrics for {r['match_id']}"
        for r in records
    )


class _Batches:
    """A backend in this process: every task sent comes back at the next look, together."""

    def __init__(self, lose_first: bool = False) -> None:
        self.sent: list[tuple[int, Task]] = []
        self.starts: list[int] = []
        self.lose_first = lose_first

    def cores(self) -> int:
        return 2

    def start(self, slot: int, setup: Setup) -> None:
        self.starts.append(slot)

    def send(self, slot: int, task: Task) -> None:
        self.sent.append((slot, task))

    def events(self, timeout: float) -> list[Event]:
        if self.lose_first:
            self.lose_first = False
            return [Lost(0, "worker process 0 ended (exit code -9)")]
        came: list[Event] = [Usage(slot, {"calls": 1}) for slot, _ in self.sent]
        came += [Finished(slot, t.index, _record(t)) for slot, t in self.sent]
        self.sent.clear()
        return came

    def close(self, *, at_once: bool) -> None:
        pass


def _record(task: Task) -> PlayedRecord:
    return cast(PlayedRecord, {"match_id": task.job_id, "status": "ok"})


def _setup_and_tasks(count: int) -> tuple[Setup, list[Task]]:
    fields = {"base": {"kind": "match", "spec_hash": "t"}, "options": EpisodeOptions()}
    setup, tasks, _ = prepare(
        _jobs(first_legal_move, count), slots=2, setup_fields=fields, pool=None
    )
    return setup, tasks


async def test_records_that_come_back_together_are_delivered_together() -> None:
    setup, tasks = _setup_and_tasks(5)
    batches: list[list[tuple[int, PlayedRecord]]] = []
    usages: list[dict[str, Any]] = []
    async with WorkerPool(_Batches(), setup, 2, concurrency=3) as pool:
        await pool.run(tasks, batches.append, usages.append)
    assert [[index for index, _ in batch] for batch in batches] == [[0, 1, 2], [3, 4]]
    assert all(record["match_id"] == f"j{index}" for batch in batches for index, record in batch)
    assert len(usages) == 5


async def test_a_lost_slots_tasks_are_sent_again_and_delivered_once() -> None:
    setup, tasks = _setup_and_tasks(4)
    backend = _Batches(lose_first=True)
    batches: list[list[tuple[int, PlayedRecord]]] = []
    async with WorkerPool(backend, setup, 2, concurrency=4) as pool:
        await pool.run(tasks, batches.append, lambda _: None)
    assert backend.starts == [0, 1, 0]  # slot 0 started again
    delivered = sorted(index for batch in batches for index, _ in batch)
    assert delivered == [0, 1, 2, 3]
