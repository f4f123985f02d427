"""The command's processes: they end with it, one run writes a file, Ctrl-C is one line.

Every run here is a process of its own (``cli_runner.py``: the command line with scripted
models that the test can hold at a gate), with ``--workers 2``. The tests wait on events
(a record written, a model call held, a line printed, a process gone), never on a guess
of how long something takes, so they hold on a loaded machine.
"""

from __future__ import annotations

import re
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from langgraph_games.eval.running.workers_ray import have_ray
from process_support import (
    DEADLINE_S,
    Runs,
    command_line,
    interrupt,
    needs_proc,
    one_line,
    processes_marked,
    records,
    wait_until,
)

RAY_LOG = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+\s+(INFO|WARNING) ")
"""A line of Ray's own log (its start-up), not the command's."""

pytestmark = [
    needs_proc,
    pytest.mark.skipif(sys.platform == "win32", reason="process groups and Ctrl-C are POSIX"),
]


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[Runs]:
    """Runs of the command line in processes of their own, killed if left at the end."""
    with Runs(tmp_path) as started:
        yield started


EPISODES = 8
"""Matches (or episodes) of a run: more than two held at once and the two written first."""


def arena(out: Path) -> list[str]:
    """Connect Four matches of a scripted GAMEBoT player against random."""
    return [
        "arena", "connect4", "--players", "gamebot:gated", "random", "--no-baseline",
        "--matches", str(EPISODES), "--concurrency", "4", "--workers", "2", "--out", str(out), "-q",
    ]  # fmt: skip


def evaluation(out: Path) -> list[str]:
    """Evaluation episodes of the same player."""
    return [
        "eval", "connect4", "--player", "gamebot:gated", "--opponent", "random",
        "--episodes", str(EPISODES), "--concurrency", "4", "--workers", "2",
        "--out", str(out), "-q",
    ]  # fmt: skip


def training(out: Path) -> list[str]:
    """Two Agent-ExpVer rounds on four maze test maps (their episodes go to the workers)."""
    return [
        "train", "maze", "--rounds", "2", "--test-maps", "4", "--model", "coach",
        "--workers", "2", "--out", str(out), "-q",
    ]  # fmt: skip


COMMANDS: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "arena": (arena, "match_id"),
    "eval": (evaluation, "episode_id"),
    "train": (training, "id"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_ctrl_c_then_a_kill_mid_run_leave_no_process_and_the_rerun_resumes(
    command: str, runs: Runs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    argv, key = COMMANDS[command]

    # Ctrl-C (to the process group, as a terminal sends it) once two episodes are written
    # and the others are held in the workers: one line, exit 130, every process gone.
    process, marker = runs.gated(argv(out), out, after=2)
    wait_until(
        lambda: len(records(out)) >= 2 and bool(runs.blocked()),
        "records, then a hold",
        running=process,
    )
    _, err = interrupt(process)
    assert process.returncode == 130
    assert one_line(err).startswith("interrupted: finished ")
    runs.gone(marker)
    kept = {str(r[key]) for r in records(out)}
    assert len(kept) >= 2

    # The rerun resumes; SIGKILL it while both its workers are stuck in a model call: its
    # workers and the resource tracker end with it.
    runs.clear_gate()
    process, marker = runs.gated(argv(out), out, after=len(kept))
    wait_until(lambda: len(runs.blocked()) >= 2, "both workers to hold a call", running=process)
    started = [command_line(pid) for pid in processes_marked(marker)]
    assert sum("spawn_main" in line for line in started) == 2, started
    assert any("resource_tracker" in line for line in started), started
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=DEADLINE_S)
    runs.gone(marker)  # the workers notice at once, stuck as their event loops are

    # The next rerun finishes the run: nothing lost, nothing written twice.
    rerun, _ = runs.start(argv(out))
    stdout, stderr = rerun.communicate(timeout=DEADLINE_S)
    assert rerun.returncode == 0, stderr
    ids = [str(r[key]) for r in records(out)]
    assert len(ids) == len(set(ids)) and kept <= set(ids)
    if command != "train":
        assert len(ids) == EPISODES
        assert f"({EPISODES - len(kept)} played now, {len(kept)} already done" in stdout


def test_ctrl_c_while_the_workers_start_is_one_line(runs: Runs, tmp_path: Path) -> None:
    out = tmp_path / "out"
    process, marker = runs.gated(arena(out), out, after=0, LGG_HOLD_START="1")
    wait_until(
        lambda: len(list(runs.gate.glob("starting-*"))) >= 2, "workers starting", running=process
    )
    _, err = interrupt(process)  # the workers get it too, in the middle of their imports
    assert process.returncode == 130
    assert one_line(err).startswith("interrupted")
    runs.gone(marker)
    assert records(out) == []


@pytest.mark.skipif(not have_ray(), reason="Ray is not installed (the 'ray' extra)")
def test_ctrl_c_on_ray_is_one_line_and_leaves_no_process(runs: Runs, tmp_path: Path) -> None:
    # Search players (Ray's actors do not load this module's held models): far more
    # matches than are played before Ctrl-C, however slow the machine.
    out = tmp_path / "out"
    argv = [
        "arena", "connect4", "--players", "minimax:depth=5", "random", "--no-baseline",
        "--matches", "400", "--executor", "ray", "--workers", "2", "--out", str(out), "-q",
    ]  # fmt: skip
    process, marker = runs.start(argv)
    wait_until(lambda: len(records(out)) >= 2, "two matches on Ray", running=process)
    _, err = interrupt(process)
    assert process.returncode == 130
    ours = [line for line in err.splitlines() if not RAY_LOG.match(line)]
    assert one_line("\n".join(ours)).startswith("interrupted: finished matches are saved")
    runs.gone(marker)  # Ray's own processes too: the run started the cluster
    assert 2 <= len(records(out)) < 400


_INTERRUPT_IN_IMPORTS = """
import os, signal, sys

class InterruptAtImport:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("langchain_core", "langgraph"):
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)  # raised in the middle of that import
        return None

sys.meta_path.insert(0, InterruptAtImport())
from langgraph_games.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "tictactoe"],
        ["eval", "maze"],
        ["train", "maze"],
        ["smartplay"],
        ["study", "tictactoe"],
        ["play", "tictactoe"],
        ["serve"],
        ["mcp"],
    ],
    ids=lambda argv: argv[0],
)
def test_ctrl_c_while_a_command_loads_is_one_line(
    argv: list[str], runs: Runs, tmp_path: Path
) -> None:
    process, _ = runs.start(argv, python=["-c", _INTERRUPT_IN_IMPORTS])
    _, err = process.communicate(timeout=DEADLINE_S)
    assert (process.returncode, one_line(err)) == (130, "interrupted")


def test_a_second_run_of_the_same_command_is_refused_and_nothing_is_played_twice(
    runs: Runs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first, _ = runs.gated(arena(out), out, after=2)
    wait_until(
        lambda: len(records(out)) >= 2 and bool(runs.blocked()), "the first run", running=first
    )
    second, _ = runs.start(arena(out))  # not held: it would play everything left
    _, err = second.communicate(timeout=DEADLINE_S)
    assert second.returncode == 2
    line = one_line(err)
    assert line.startswith("langgraph-games arena: error: ")
    assert f"is being written by another run (process {first.pid})" in line
    runs.open_gate()
    stdout, err = first.communicate(timeout=DEADLINE_S)
    assert first.returncode == 0, err
    ids = [r["match_id"] for r in records(out)]
    assert len(ids) == len(set(ids)) == EPISODES
    assert f"({EPISODES} played now, 0 already done, 0 errors)" in stdout
    assert not list(out.glob("*.lock"))  # the writer's lock goes with its run


def test_a_script_without_a_main_guard_stops_at_once_saying_how_to_fix_it(
    runs: Runs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    script = tmp_path / "unguarded.py"
    argv = ["arena", "tictactoe", "--players", "minimax", "random", "--no-baseline"]
    argv += ["--matches", "4", "--workers", "2", "--out", str(out), "-q"]
    script.write_text(
        f"from langgraph_games.cli import main\n\nprint('exit', main({argv!r}))\n",
        encoding="utf-8",
    )
    process, marker = runs.start([], python=[str(script)])
    stdout, err = process.communicate(timeout=DEADLINE_S)
    assert stdout.splitlines() == ["exit 2"]  # the workers never ran the command
    line = one_line(err)
    assert "worker process" in line and "could not start" in line and str(script) in line
    assert 'Put that call under `if __name__ == "__main__":`' in line
    assert records(out) == []
    runs.gone(marker)


def test_a_worker_that_fails_to_start_stops_the_run_and_is_not_started_again(
    runs: Runs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    process, marker = runs.start(arena(out), LGG_FAIL_START="1")
    _, err = process.communicate(timeout=DEADLINE_S)
    assert process.returncode == 2
    failures = err.count("RuntimeError: this worker cannot start here")
    assert 1 <= failures <= 2  # each worker once at most: none is started again
    last = err.strip().splitlines()[-1]
    assert last.startswith("langgraph-games arena: error: worker process ")
    assert "could not start (exit code 1; its error is printed above)" in last
    assert records(out) == []
    runs.gone(marker)
