"""``train --workers N``: the test levels over worker processes, same ledger, resume, flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from expver_support import coach
from langgraph_games.cli import _options as cli_options
from langgraph_games.cli import build_parser, main
from langgraph_games.cli.train_cmd import build_spec
from langgraph_games.eval.running import training, training_workers
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.training import TrainReport, TrainSpec, run_training
from langgraph_games.eval.running.training_workers import EpisodeFailedError
from langgraph_games.eval.running.workers_dispatch import WorkerPool
from langgraph_games.eval.running.workers_ray import RAY_MISSING
from langgraph_games.models import ScriptedChatModel
from workers_support import stable

ARGV = ["train", "maze", "--rounds", "2", "--test-maps", "4", "--model", "coach", "-q"]


def spec_of(*extra: str) -> TrainSpec:
    """The spec the command line gives (the defaults of ``train``)."""
    return build_spec(build_parser().parse_args([*ARGV, *extra]))


class CountingPool(WorkerPool):
    """The executor's pool, counting the episodes it is given (they play in workers)."""

    sent: ClassVar[list[str]] = []

    async def run(self, tasks: Any, deliver: Any, on_usage: Any) -> None:
        CountingPool.sent += [task.job_id for task in tasks]
        await super().run(tasks, deliver, on_usage)


async def train(spec: TrainSpec, out: Path) -> tuple[TrainReport, list[dict[str, Any]]]:
    report = await run_training(spec, out, model=ScriptedChatModel(script=coach))
    return report, ResultsFile(report.results_path).read().records


def by_id(records: list[dict[str, Any]]) -> dict[str, Any]:
    return {r["id"]: stable(r) for r in records}


async def test_two_workers_write_the_ledger_and_table_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(training_workers, "WorkerPool", CountingPool)
    CountingPool.sent = []
    one, one_records = await train(spec_of("--workers", "1"), tmp_path / "one")
    assert CountingPool.sent == []  # one worker: everything in this process
    two, two_records = await train(spec_of("--workers", "2"), tmp_path / "two")
    # Round 0 and round 1 each test 4 levels in the workers (round 2 changed nothing).
    assert len(CountingPool.sent) == 8 and all("/L1-eval" in s for s in CountingPool.sent)
    assert one.results_path.name == two.results_path.name  # workers are not in the hash
    assert len(two_records) == len(one_records) == len(by_id(two_records))
    assert by_id(two_records) == by_id(one_records)
    assert two.table == one.table and two.truths == one.truths
    assert two.played == one.played == 16
    assert [r["decision"] for r in two.rounds if r["split"] == "test"] == [
        "baseline", "kept", "unchanged"
    ]  # fmt: skip


async def test_a_run_with_workers_killed_mid_evaluation_resumes_to_the_same_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, whole = await train(spec_of("--workers", "1"), tmp_path / "whole")

    class Crash(Exception):
        pass

    add = training.FileLedger.add

    def crashing(self: training.FileLedger, record: Any) -> None:
        written = [i for i in self.records if i.startswith("r1/test/")]
        if record["id"].startswith("r1/test/") and len(written) == 2:
            raise Crash  # the parent dies between two test records of round 1
        add(self, record)

    monkeypatch.setattr(training.FileLedger, "add", crashing)
    with pytest.raises(Crash):
        await train(spec_of("--workers", "2"), tmp_path / "killed")
    [path] = (tmp_path / "killed").glob("*.jsonl")
    before = ResultsFile(path).read().records
    assert len([r for r in before if r["id"].startswith("r1/test/")]) == 2
    monkeypatch.setattr(training.FileLedger, "add", add)
    report, resumed = await train(spec_of("--workers", "2"), tmp_path / "killed")
    episodes = [len([r for r in rs if r["kind"] == "episode"]) for rs in (whole, before)]
    assert report.played == episodes[0] - episodes[1] == 6  # only what was not recorded
    assert len({r["id"] for r in resumed}) == len(resumed)  # nothing written twice
    assert by_id(resumed) == by_id(whole)


async def test_an_episode_failing_in_a_worker_stops_the_run_with_its_error(
    tmp_path: Path,
) -> None:
    dead = ScriptedChatModel(responses=[ConnectionError("endpoint down")])
    with pytest.raises(EpisodeFailedError, match=r"L1-eval0\d'.*endpoint down"):
        await run_training(spec_of("--workers", "2"), tmp_path, model=dead)
    written = [r for path in tmp_path.glob("*.jsonl") for r in ResultsFile(path).read().records]
    assert written == []  # nothing is recorded for a failed episode


def test_the_worker_flags_of_train(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGGRAPH_GAMES_WORKERS", raising=False)
    assert spec_of().workers == "auto"  # as arena and eval
    spec = spec_of("--workers", "3", "--concurrency", "2")
    assert (spec.workers, spec.executor, spec.ray_address) == (3, "local", None)
    assert spec.spec_hash() == spec_of("--workers", "1").spec_hash()
    monkeypatch.setenv("LANGGRAPH_GAMES_WORKERS", "2")
    assert spec_of().workers == 2
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        TrainSpec(game="maze", workers=0)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--workers", "-1"], "--workers is 'auto' or a number of processes >= 0, got '-1'"),
        (["--workers", "two"], "--workers is 'auto' or a number of processes >= 0, got 'two'"),
        (
            ["--ray-address", "ray://head:10001"],
            "--ray-address is for --executor ray; add --executor ray",
        ),
        (["--executor", "ray"], RAY_MISSING),
    ],
)
def test_bad_worker_flags_are_one_clear_line(
    extra: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(cli_options, "have_ray", lambda: False)
    assert main([*ARGV, "--out", str(tmp_path), *extra]) == 2
    assert capsys.readouterr().err.strip() == f"langgraph-games train: error: {message}"
    assert not list(tmp_path.iterdir())  # nothing started


def test_an_unknown_executor_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*ARGV, "--executor", "dask"])
    assert exit_.value.code == 2
    assert "invalid choice: 'dask' (choose from 'local', 'ray')" in capsys.readouterr().err
