"""Episodes on Ray actors: same records as one process, a killed actor, resume, no Ray."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import workers_support
from expver_support import coach
from langgraph_games.cli import _options as cli_options
from langgraph_games.cli import main
from langgraph_games.eval import ResultsFile, run_arena
from langgraph_games.eval.running import workers_ray
from langgraph_games.eval.running.executor import Job
from langgraph_games.eval.running.training import TrainSpec, run_training
from langgraph_games.eval.running.workers_ray import RAY_MISSING, have_ray
from langgraph_games.games import make
from langgraph_games.graphs.expver import ExpVerOptions
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import registry
from workers_support import (
    KILL_MARKER,
    assert_an_interrupted_run_resumes_once,
    dies_once,
    run_small_jobs,
    small_arena,
    stable,
)

needs_ray = pytest.mark.skipif(not have_ray(), reason="Ray is not installed (the 'ray' extra)")


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Path]:
    """One local Ray cluster for the module; yields the kill marker's folder."""
    import ray

    folder = Path(tempfile.mkdtemp(prefix="lgg-ray-"))
    saved = {key: os.environ.get(key) for key in ("PYTHONPATH", KILL_MARKER)}
    # Ray's workers inherit this environment: the sources, and the tests' script module.
    paths = [str(Path(workers_support.__file__).parent), *sys.path]
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    os.environ[KILL_MARKER] = str(folder / "killed-once")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield folder
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@needs_ray
async def test_a_ray_arena_writes_the_records_of_one_process(
    ray_cluster: Path, tmp_path: Path
) -> None:
    one = await run_arena(small_arena(), tmp_path / "one", progress=False)
    on_ray = await run_arena(
        small_arena(executor="ray", workers=2), tmp_path / "ray", progress=False
    )
    assert one.results_path.name == on_ray.results_path.name  # the executor is not hashed
    by_id = {r["match_id"]: stable(r) for r in ResultsFile(one.results_path).read().records}
    records = ResultsFile(on_ray.results_path).read().records
    assert on_ray.played == one.played == len(records) == 6
    assert {r["match_id"]: stable(r) for r in records} == by_id
    assert stable(one.rows) == stable(on_ray.rows)


@needs_ray
async def test_training_on_ray_writes_the_ledger_and_table_of_one_process(
    ray_cluster: Path, tmp_path: Path
) -> None:
    spec = TrainSpec(game="maze", agent="eeb:coach", test_maps=3, expver=ExpVerOptions(rounds=1))
    reports = [
        await run_training(
            spec.model_copy(update=update), tmp_path / name, model=ScriptedChatModel(script=coach)
        )
        for name, update in (("one", {}), ("ray", {"executor": "ray", "workers": 2}))
    ]
    assert reports[0].results_path.name == reports[1].results_path.name
    one, on_ray = (ResultsFile(r.results_path).read().records for r in reports)
    assert {r["id"]: stable(r) for r in on_ray} == {r["id"]: stable(r) for r in one}
    assert len(on_ray) == len(one) and reports[1].played == reports[0].played == 10
    assert reports[1].table == reports[0].table


@needs_ray
async def test_a_killed_ray_worker_loses_no_episode_and_writes_none_twice(
    ray_cluster: Path, tmp_path: Path
) -> None:
    recipe = registry.resolve_player("gamebot", model=ScriptedChatModel(script=dies_once))
    game = make("connect4")
    jobs = [Job(f"j{i}", [recipe, recipe], i, {"match_id": f"j{i}"}, game) for i in range(6)]
    path = tmp_path / "r.jsonl"
    played, errors = await run_small_jobs(jobs, path, workers=2, executor="ray")
    assert (ray_cluster / "killed-once").exists()  # an actor's process did die mid-episode
    records = ResultsFile(path).read().records
    assert (played, errors) == (6, 0)
    assert sorted(r["match_id"] for r in records) == [f"j{i}" for i in range(6)]
    assert all(r["status"] != "error" and len(r["trajectory"]) == 4 for r in records)


@needs_ray
async def test_an_interrupted_ray_run_resumes_and_plays_each_match_once(
    ray_cluster: Path, tmp_path: Path
) -> None:
    await assert_an_interrupted_run_resumes_once(
        small_arena(executor="ray", workers=2, matches=8), tmp_path
    )


def test_asking_for_ray_without_it_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_options, "have_ray", lambda: False)
    argv = ["arena", "tictactoe", "--players", "random", "--matches", "2", "--out"]
    assert main([*argv, str(tmp_path), "--executor", "ray", "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"langgraph-games arena: error: {RAY_MISSING}"
    assert "pip install -e '.[ray]' in a source checkout" in err
    assert not list(tmp_path.glob("*.jsonl"))  # nothing started


def test_a_ray_address_without_the_ray_executor_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", "random", "--matches", "2", "--out", str(tmp_path)]
    assert main([*argv, "--ray-address", "ray://head:10001", "-q"]) == 2
    assert "--ray-address is for --executor ray" in capsys.readouterr().err


async def test_the_ray_executor_without_ray_is_a_clear_error_in_the_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers_ray, "have_ray", lambda: False)
    with pytest.raises(ValueError, match=r"pip install -e '\.\[ray\]' in a source checkout"):
        await run_arena(small_arena(executor="ray"), tmp_path, progress=False)


@needs_ray
def test_ray_is_imported_only_by_a_run_that_uses_it() -> None:
    """Importing Ray takes about half a second: no command or worker process pays it unasked."""
    code = (
        "import sys\n"
        "import langgraph_games.cli._running, langgraph_games.cli._options\n"
        "import langgraph_games.eval.running.workers_pool\n"
        "from langgraph_games.eval.running.workers_ray import have_ray\n"
        "assert have_ray()\n"
        "print('ray' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr
