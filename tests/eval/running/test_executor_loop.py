"""The executor keeps slow synchronous work off the event loop that runs the episodes."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langgraph_games.eval.running.executor import Job, run_jobs
from langgraph_games.eval.running.players import ModelPool, resolve
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions


class _SpyResults(ResultsFile):
    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.on_loop: list[bool] = []

    def extend_each(self, records: Iterable[Mapping[str, object]]) -> list[TypeError | None]:
        records = list(records)
        self.on_loop += [threading.current_thread() is threading.main_thread()] * len(records)
        return super().extend_each(records)


async def test_records_are_finished_and_appended_in_a_worker_thread(tmp_path: Path) -> None:
    """Metrics replay the episode; the append encodes and fsyncs: neither blocks the loop."""
    results = _SpyResults(tmp_path / "results.jsonl")
    finished_on_loop: list[bool] = []

    def finish(record: dict[str, Any], game: Any) -> None:
        finished_on_loop.append(threading.current_thread() is threading.main_thread())
        record["finished"] = True

    game = make("tictactoe")
    pool = ModelPool()
    jobs = [
        Job(
            job_id=str(m),
            seats=[resolve("random", pool), resolve("random", pool)],
            seed=m,
            extra={"match_id": str(m)},
            game=game,
        )
        for m in range(3)
    ]
    played, errors = await run_jobs(
        jobs,
        base={"kind": "match"},
        results=results,
        options=EpisodeOptions(),
        concurrency=2,
        progress=False,
        total=3,
        finish=finish,
    )
    assert (played, errors) == (3, 0)
    assert results.on_loop == [False] * 3 and finished_on_loop == [False] * 3
    records = results.read().records
    assert sorted(r["match_id"] for r in records) == ["0", "1", "2"]
    assert all(r["finished"] for r in records)
