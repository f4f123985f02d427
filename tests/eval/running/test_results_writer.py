"""One writer per results file across processes: refused at once, naming the holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from expver_support import coach_script
from langgraph_games.eval import ResultsFile
from langgraph_games.eval.running.arena import ArenaSpec, results_path_for, run_arena
from langgraph_games.eval.running.results import ResultsFileBusyError
from langgraph_games.eval.running.training import TrainSpec, run_training, training_paths
from langgraph_games.games import make
from langgraph_games.models import ScriptedChatModel

_HOLDER = """
import sys
from langgraph_games.eval import ResultsFile

with ResultsFile(sys.argv[1]).writing():
    print("held", flush=True)
    sys.stdin.read()  # until the test kills it
"""


def test_one_run_writes_a_file_at_a_time_and_the_lock_goes_with_it(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lock = tmp_path / "r.jsonl.lock"
    first = ResultsFile(path)
    with first.writing():
        assert lock.read_text() == str(os.getpid())
        first.append({"match_id": "a"})
        with (
            pytest.raises(ResultsFileBusyError, match=r"by another run \(this process\)"),
            ResultsFile(path).writing(),
        ):
            pass
    assert not lock.exists()  # nothing left beside the results
    second = ResultsFile(path)
    with second.writing():
        second.append({"match_id": "b"})
    assert [r["match_id"] for r in ResultsFile(path)] == ["a", "b"]


def test_a_run_that_read_the_file_before_another_wrote_to_it_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    late = ResultsFile(path)
    assert late.finished_ids() == set()  # it reads: nothing done yet
    other = ResultsFile(path)
    with other.writing():
        other.append({"match_id": "a"})  # another run plays meanwhile, and ends
    with (
        pytest.raises(ResultsFileBusyError, match="written by another run after this one read"),
        late.writing(),
    ):
        pass
    assert late.finished_ids() == {"a"}  # read again, it may write
    with late.writing():
        late.append({"match_id": "b"})
    with ResultsFile(path).writing():  # one that never read has nothing to be stale about
        pass


def test_the_holder_is_named_and_its_death_frees_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        with (
            pytest.raises(ResultsFileBusyError, match=rf"\(process {holder.pid}\); wait"),
            ResultsFile(path).writing(),
        ):
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=120)
    assert (tmp_path / "r.jsonl.lock").exists()  # a crash leaves the file, not the lock
    with ResultsFile(path).writing():
        pass


async def test_an_arena_whose_file_another_run_writes_plays_nothing(tmp_path: Path) -> None:
    spec = ArenaSpec(game="tictactoe", players=["minimax", "random"], matches=2)
    path = results_path_for(spec, tmp_path)
    with (
        ResultsFile(path).writing(),
        pytest.raises(ResultsFileBusyError, match="being written by another run"),
    ):
        await run_arena(spec, tmp_path, progress=False)
    assert not path.exists()


async def test_a_training_run_whose_ledger_another_run_writes_plays_nothing(
    tmp_path: Path,
) -> None:
    spec = TrainSpec(game="maze", agent="eeb:coach")
    path, _ = training_paths(spec, tmp_path, make(spec.game, **spec.train_levels()[0].options))
    model = ScriptedChatModel(script=coach_script())
    with (
        ResultsFile(path).writing(),
        pytest.raises(ResultsFileBusyError, match="being written by another run"),
    ):
        await run_training(spec, tmp_path, model=model)
    assert not path.exists()


def test_appends_make_the_folder_and_end_a_truncated_line_first(tmp_path: Path) -> None:
    results = ResultsFile(tmp_path / "new" / "deeper" / "r.jsonl")
    results.append({"match_id": "a"})  # the folders are made with the file
    assert results.path.read_bytes() == b'{"match_id":"a"}\n'
    results.append({"match_id": "b"})  # after a whole line: no blank line between
    with results.path.open("ab") as handle:
        handle.write(b'{"match_id":"ha')  # a crash left half a line
    results.extend([{"match_id": "c"}, {"match_id": "d"}])
    lines = results.path.read_bytes().split(b"\n")
    assert lines == [
        b'{"match_id":"a"}',
        b'{"match_id":"b"}',
        b'{"match_id":"ha',
        b'{"match_id":"c"}',
        b'{"match_id":"d"}',
        b"",
    ]
    read = results.read()
    assert [r["match_id"] for r in read.records] == ["a", "b", "c", "d"]
    assert read.skipped[0][0] == 3
