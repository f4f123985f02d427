"""Shared pieces of the worker tests: model scripts (pickled by reference), small arenas."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena
from langgraph_games.eval.running.executor import Job, run_jobs
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.players import Decision, DecisionRequest, PlayerBuild, SearchPlayer

_LEGAL = re.compile(r"moves: \[(.*?)\]")
KILL_MARKER = "LGG_TEST_KILL_MARKER"


def first_legal_move(messages: Any) -> str:
    """Answer a GAMEBoT Connect Four prompt with the first legal move listed."""
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(messages[-1].text)[-1])
    return (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )


def dies_once(messages: Any) -> str:
    """Kill the calling process the first time any process calls it (a marker file says)."""
    marker = Path(os.environ[KILL_MARKER])
    try:
        marker.open("x").close()
    except FileExistsError:
        return first_legal_move(messages)
    os._exit(9)  # a worker killed mid-episode


TIMING = {"started_at", "duration_s", "latency_s", "seconds_per_decision"}


def stable(value: Any) -> Any:
    """``value`` without its timing fields (wall-clock times and latencies), at any depth."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


async def run_small_jobs(jobs: list[Job], path: Path, **kwargs: Any) -> tuple[int, int]:
    """``run_jobs`` of ``jobs`` into ``path``: 4 at once, 4 steps each, no retries, quiet."""
    return await run_jobs(
        jobs,
        base={"kind": "match", "spec_hash": "test"},
        results=ResultsFile(path),
        options=EpisodeOptions(max_retries=0, max_steps=4),
        concurrency=4,
        progress=False,
        total=len(jobs),
        **kwargs,
    )


def small_arena(**kwargs: Any) -> ArenaSpec:
    """Six quick TicTacToe matches, three at once (``kwargs`` override)."""
    base: dict[str, Any] = {
        "game": "tictactoe",
        "players": ["minimax:depth=2", "random"],
        "matches": 6,
        "concurrency": 3,
    }
    base.update(kwargs)
    return ArenaSpec(**base)


async def assert_an_interrupted_run_resumes_once(arena: ArenaSpec, folder: Path) -> None:
    """Stop ``arena`` (8 matches) after 3 records as a crash would, run it again: 8 ids, once.

    Records that came back from workers together are written together before their
    callbacks run, so the file may hold more than the 3 seen when the run stopped.
    """
    written = 0

    class Interrupted(Exception):
        pass

    def count(_: Any) -> None:
        nonlocal written
        written += 1
        if written == 3:
            raise Interrupted  # the parent dies in the middle (Ctrl-C, a crash)

    with pytest.raises(Interrupted):
        await run_arena(arena, folder, progress=False, on_match=count)
    path = next(folder.glob("*.jsonl"))
    done = len(ResultsFile(path).read().records)
    assert 3 <= done < 8
    report = await run_arena(arena, folder, progress=False)
    ids = [r["match_id"] for r in ResultsFile(path).read().records]
    assert report.skipped == done and report.played == 8 - done
    assert len(ids) == len(set(ids)) == 8


PADDING = 100_000
"""Characters of thinking before each answer of :func:`long_winded`: a record of a few
decisions is then larger than a pipe's buffer (64 KiB on Linux)."""


def long_winded(messages: Any) -> str:
    """:func:`first_legal_move` after a long preamble (kept in the record's raw outputs)."""
    return "thinking " * (PADDING // 9) + "\n" + first_legal_move(messages)


def note_process(record: dict[str, Any], game: Any) -> None:
    """A run's ``finish``: note which process finished the record, and its game."""
    record["finished_in"] = os.getpid()
    record["finished_game"] = game.id


def finish_fails(record: dict[str, Any], game: Any) -> None:
    """A run's ``finish`` with a bug: every record it is given makes it fail."""
    raise ValueError(f"no metrics for {record['match_id']}")


class FirstLegal(SearchPlayer):
    """Plays the first legal move (a player a test registers at run time, with no settings)."""

    def __init__(self, name: str = "first_legal") -> None:
        self.name = name

    def decide(self, request: DecisionRequest) -> Decision:
        """The first legal move."""
        return Decision(action=request.legal_actions[0])

    def describe(self) -> dict[str, Any]:
        """Its kind."""
        return {"kind": "first_legal"}


def build_first_legal(request: PlayerBuild[Any]) -> FirstLegal:
    """A module-level builder: its entry pickles, so workers get it without registering it."""
    return FirstLegal(request.name)
