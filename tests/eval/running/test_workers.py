"""Episodes over worker processes: same records as one process, resume, errors, lost workers."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import pickle
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from langgraph_games.cli._options import add_worker_flags, workers_of
from langgraph_games.eval import ResultsFile, run_arena
from langgraph_games.eval.running import workers_pool
from langgraph_games.eval.running.event_loop import LOOP_ENV
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.executor import Job
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.running.workers import (
    EndpointShare,
    SlotPlayer,
    default_workers,
    endpoint_shares,
    portable,
    prepare,
    split_limit,
)
from langgraph_games.eval.running.workers_dispatch import slots_for
from langgraph_games.eval.running.workers_pool import ProcessBackend, _Worker, take_waiting
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.limiter import limiter_for
from langgraph_games.players import registry
from workers_support import (
    KILL_MARKER,
    assert_an_interrupted_run_resumes_once,
    dies_once,
    first_legal_move,
    run_small_jobs,
    small_arena,
    stable,
)


async def test_two_workers_write_the_records_of_one_process(tmp_path: Path) -> None:
    one = await run_arena(small_arena(workers=1), tmp_path / "one", progress=False)
    two = await run_arena(small_arena(workers=2), tmp_path / "two", progress=False)
    assert one.results_path.name == two.results_path.name  # workers are not in the hash
    by_id = {r["match_id"]: stable(r) for r in ResultsFile(one.results_path).read().records}
    records = ResultsFile(two.results_path).read().records
    assert two.played == one.played == len(records) == 6
    assert {r["match_id"]: stable(r) for r in records} == by_id
    assert stable(one.rows) == stable(two.rows)


async def test_an_interrupted_worker_run_resumes_and_plays_each_match_once(
    tmp_path: Path,
) -> None:
    await assert_an_interrupted_run_resumes_once(small_arena(workers=2, matches=8), tmp_path)


def _jobs(model: ScriptedChatModel, count: int) -> list[Job]:
    recipe = registry.resolve_player("gamebot", model=model)
    game = make("connect4")
    return [Job(f"j{i}", [recipe, recipe], i, {"match_id": f"j{i}"}, game) for i in range(count)]


async def test_an_episode_error_in_a_worker_is_its_record(tmp_path: Path) -> None:
    dead = ScriptedChatModel(responses=[ConnectionError("endpoint down")])
    path = tmp_path / "r.jsonl"
    played, errors = await run_small_jobs(_jobs(dead, 3), path, workers=2)
    records = ResultsFile(path).read().records
    assert (played, errors) == (3, 3)
    assert sorted(r["match_id"] for r in records) == ["j0", "j1", "j2"]
    assert all("endpoint down" in r["error"] for r in records)


def _read_on(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Make the parent read its workers on its event loop only, or in a thread only."""

    def refused(*args: object, **kwargs: object) -> Any:
        raise AssertionError(f"the parent was to read its workers {how}")

    if how == "on the loop":
        assert ProcessBackend().watchable, "POSIX pipes are watched on the loop"
        monkeypatch.setattr(ProcessBackend, "events", refused)
    else:
        monkeypatch.setattr(ProcessBackend, "watchable", property(lambda self: False))
        monkeypatch.setattr(ProcessBackend, "next_events", refused)


@pytest.mark.parametrize("how", ["on the loop", "in a thread"])
async def test_a_killed_worker_loses_no_episode_and_writes_none_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _read_on(monkeypatch, how)
    monkeypatch.setenv(KILL_MARKER, str(tmp_path / "killed-once"))
    path = tmp_path / "r.jsonl"
    jobs = _jobs(ScriptedChatModel(script=dies_once), 6)
    played, errors = await run_small_jobs(jobs, path, workers=2)
    assert (tmp_path / "killed-once").exists()  # a worker did die
    records = ResultsFile(path).read().records
    assert (played, errors) == (6, 0)
    assert sorted(r["match_id"] for r in records) == [f"j{i}" for i in range(6)]
    assert all(r["status"] != "error" and len(r["trajectory"]) == 4 for r in records)


def test_a_killed_worker_is_replaced_on_uvloop_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvloop")
    _read_on(monkeypatch, "on the loop")
    monkeypatch.setenv(LOOP_ENV, "uvloop")  # the command line's loop: its own add_reader
    monkeypatch.setenv(KILL_MARKER, str(tmp_path / "killed-once"))
    path = tmp_path / "r.jsonl"
    jobs = _jobs(ScriptedChatModel(script=dies_once), 6)
    assert run_loop(run_small_jobs(jobs, path, workers=2)) == (6, 0)
    assert (tmp_path / "killed-once").exists()
    assert sorted(r["match_id"] for r in ResultsFile(path).read().records) == [
        f"j{i}" for i in range(6)
    ]


@pytest.mark.parametrize("how", ["on the loop", "in a thread"])
async def test_a_message_the_parent_cannot_read_stops_the_run_with_its_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _read_on(monkeypatch, how)

    def unreadable(self: _Worker, messages: list[Any]) -> list[Any]:
        raise ValueError(f"cannot read {len(messages)} message(s)")

    monkeypatch.setattr(_Worker, "_events", unreadable)
    with pytest.raises(ValueError, match=r"cannot read \d+ message"):
        await asyncio.wait_for(
            run_small_jobs(
                _jobs(ScriptedChatModel(script=first_legal_move), 4),
                tmp_path / "r.jsonl",
                workers=2,
            ),
            timeout=120,
        )
    assert not multiprocessing.active_children()  # the workers were stopped with the run
    assert ResultsFile(tmp_path / "r.jsonl").read().records == []


def test_endpoint_shares_sum_to_the_endpoints_bound() -> None:
    assert split_limit(5, 2) == [3, 2]
    assert split_limit(7, 3) == [3, 2, 2]
    assert split_limit(2, 4) == [1, 1]  # fewer slots than workers: two workers
    for limit in range(1, 20):
        for workers in range(1, 9):
            shares = split_limit(limit, workers)
            assert sum(shares) == limit and len(shares) == min(limit, workers)
            assert max(shares) - min(shares) <= 1


def test_a_named_models_bounds_are_split_and_applied_in_workers() -> None:
    pool = ModelPool()
    model = ScriptedChatModel(script=first_legal_move, name_="shares-test")
    pool.models["scripted-endpoint"] = model
    recipe = registry.resolve_player("gamebot", model=model)
    limiter_for(model).set_limit(5)
    seat = portable(recipe, pool)
    assert seat.model == "scripted-endpoint"  # loaded again by spec in each worker
    assert portable(recipe, None).model is model  # an object not from the pool is sent
    shares = endpoint_shares([seat], [recipe], workers=2)["scripted-endpoint"]
    assert shares == EndpointShare(calls=[3, 2], rate=None, max_retry_wait=60.0)
    fresh = ScriptedChatModel(script=first_legal_move, name_="shares-test-worker")
    shares.apply(fresh, 1)
    assert limiter_for(fresh).stats().limit == 2


def test_workers_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="workers"):
        small_arena(workers=0)


async def test_no_jobs_start_no_workers(tmp_path: Path) -> None:
    assert await run_small_jobs([], tmp_path / "r.jsonl", workers=4) == (0, 0)
    assert asyncio.get_running_loop().is_running()


def test_the_workers_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = argparse.ArgumentParser()
    add_worker_flags(parser)
    monkeypatch.delenv("LANGGRAPH_GAMES_WORKERS", raising=False)
    assert workers_of(parser.parse_args([])) == "auto"
    assert workers_of(parser.parse_args(["--workers", "3"])) == 3
    assert workers_of(parser.parse_args(["--workers", "auto"])) == "auto"
    assert workers_of(parser.parse_args(["--workers", "0"])) == default_workers() >= 1
    with pytest.raises(ValueError, match=r"--workers is 'auto' or a number of processes >= 0"):
        workers_of(parser.parse_args(["--workers", "-1"]))
    with pytest.raises(ValueError, match=r"got 'two'"):
        workers_of(parser.parse_args(["--workers", "two"]))
    monkeypatch.setenv("LANGGRAPH_GAMES_WORKERS", "1")
    assert workers_of(parser.parse_args([])) == 1
    assert workers_of(parser.parse_args(["--workers", "2"])) == 2
    monkeypatch.setenv("LANGGRAPH_GAMES_WORKERS", "-3")
    with pytest.raises(ValueError, match=r"LANGGRAPH_GAMES_WORKERS is 'auto' or a number"):
        workers_of(parser.parse_args([]))


def test_auto_is_one_worker_per_core_and_never_more_than_the_episodes_in_flight() -> None:
    assert slots_for("auto", 3, 8, 16) == 3
    assert slots_for("auto", 50, 8, 16) == 8
    assert slots_for("auto", 50, 8, 4) == 4  # no more than the episodes in flight
    assert slots_for("auto", 0, 8, 4) == 1
    assert slots_for(4, 2, 8, 1) == 4  # an explicit count is kept (run_on_workers trims it)


def test_the_embedded_model_gets_its_share_of_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGGRAPH_GAMES_LLAMA_THREADS", raising=False)
    pool = ModelPool()
    model = ScriptedChatModel(script=first_legal_move, name_="embedded-stand-in")
    pool.models["local"] = model  # named by the embedded model's spec
    recipe = registry.resolve_player("gamebot", model=model)
    game = make("connect4")
    jobs = [Job(f"j{i}", [recipe, recipe], i, {}, game) for i in range(8)]
    fields = {"base": {}, "options": EpisodeOptions(), "progress": False}
    setup, tasks, count = prepare(jobs, slots=3, setup_fields=fields, pool=pool, cores=8)
    assert count == 3 and setup.model_settings["n_threads"] == 2 and len(tasks) == 8
    setup, _, _ = prepare(jobs[:2], slots=4, setup_fields=fields, pool=pool, cores=8)
    assert setup.model_settings["n_threads"] == 4  # two jobs: two workers
    setup, _, _ = prepare(jobs, slots=16, setup_fields=fields, pool=pool, cores=8)
    assert setup.model_settings["n_threads"] == 1  # at least one
    given = ModelPool(n_threads=3)
    given.models["local"] = model
    setup, _, _ = prepare(jobs, slots=2, setup_fields=fields, pool=given, cores=8)
    assert setup.model_settings["n_threads"] == 3  # the run's own setting is kept
    monkeypatch.setenv("LANGGRAPH_GAMES_LLAMA_THREADS", "2")
    setup, _, _ = prepare(jobs, slots=2, setup_fields=fields, pool=pool, cores=8)
    assert "n_threads" not in setup.model_settings  # chosen by hand: the model reads it
    monkeypatch.delenv("LANGGRAPH_GAMES_LLAMA_THREADS")
    pool.models["scripted-endpoint"] = pool.models.pop("local")
    setup, _, _ = prepare(jobs, slots=2, setup_fields=fields, pool=pool, cores=8)
    assert "n_threads" not in setup.model_settings  # not the embedded model


def test_a_worker_slot_plays_every_task_of_a_game_on_one_engine() -> None:
    model = ScriptedChatModel(script=first_legal_move)
    recipe = registry.resolve_player("gamebot", model=model)
    jobs = [
        Job(f"m{i}", [recipe, recipe], i, {"match_id": f"m{i}"}, make("connect4")) for i in range(3)
    ]
    fields = {"base": {"kind": "match", "spec_hash": "x"}, "options": EpisodeOptions(max_steps=2)}
    setup, tasks, _ = prepare(jobs, slots=1, setup_fields=fields, pool=None)
    copies = [pickle.loads(pickle.dumps(task)) for task in tasks]  # as a worker receives them
    slot = SlotPlayer(0, setup)
    engines = {id(slot.game_of(task)) for task in copies}
    assert len({id(task.game) for task in copies}) == 3 and len(engines) == 1
    other = pickle.loads(pickle.dumps(replace(tasks[0], game=make("tictactoe"))))
    assert id(slot.game_of(other)) not in engines  # another game, another engine


def test_a_worker_takes_every_waiting_task_in_one_hop_and_stops_at_none() -> None:
    tasks, inbox = multiprocessing.get_context("spawn").Pipe(duplex=False)
    if workers_pool._PIPE_TRANSPORT:
        os.set_blocking(inbox.fileno(), False)
    parent = _Worker(process=cast(Any, None), inbox=inbox, pipe=cast(Any, None))
    for item in ["a", "b", "c", None, "after"]:
        parent.put(pickle.dumps(item))  # as the parent writes them
    assert not parent.outgoing  # all in the pipe: nothing waits to be written
    assert take_waiting(tasks) == ["a", "b", "c", None]
    assert take_waiting(tasks) == ["after"]
    inbox.close()  # the parent has gone
    with pytest.raises(EOFError):
        take_waiting(tasks)
    tasks.close()


def test_tasks_larger_than_the_pipe_wait_in_the_parent_without_blocking_it() -> None:
    tasks, inbox = multiprocessing.get_context("spawn").Pipe(duplex=False)
    if workers_pool._PIPE_TRANSPORT:
        os.set_blocking(inbox.fileno(), False)
    parent = _Worker(process=cast(Any, None), inbox=inbox, pipe=cast(Any, None))
    big = ["x" * 300_000, "y" * 300_000]  # several times a pipe's buffer
    started = time.monotonic()
    for item in [*big, None]:
        parent.put(pickle.dumps(item))  # returns at once, the rest waits in the parent
    assert time.monotonic() - started < 5
    got: list[Any] = []

    def worker_side() -> None:  # the worker's reader, in its own thread as in a worker
        while None not in got:
            got.extend(take_waiting(tasks))

    reader = threading.Thread(target=worker_side, daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while parent.outgoing and time.monotonic() < deadline:
        parent.flush()  # as the parent's loop does between its waits
        time.sleep(0.001)
    reader.join(60)
    assert got == [*big, None] and not parent.outgoing
    inbox.close()
    tasks.close()
