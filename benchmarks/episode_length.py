"""Per-step cost of long episodes, with no checkpointer, ``InMemorySaver`` and SQLite.

Usage: python benchmarks/episode_length.py [--lengths 100 1000 10000] [--quick]
       [--snapshot-steps N]

Plays one Pong episode per length and checkpointer setting between two Pong trackers
that the loop asks as it asks a model (``instant`` off, so every step is a node of its own
and, with a checkpointer, a checkpoint: what an episode against a model pays per step,
with an instant model). Prints, per setting and length: the wall and CPU milliseconds per
step over the whole episode, the wall milliseconds per step of its first and last tenth,
and the checkpoint bytes per step (checkpoints, channel blobs and saved writes, as the
saver holds them). The baseline of the same run is the same moves as plain calls (the
session and the two trackers, no graph). The last lines give each setting's per-step
figure at the longest length as a ratio to its figure at the shortest (the target is 1.2x
at most): CPU time first, which other jobs on the machine disturb less than wall time.

``--quick`` leaves out the SQLite episode of the longest length (minutes on a slow disk).

With a checkpointer, the episode's channels save only each step's writes, never their whole
value (LangGraph's own bound of a whole value every 5,000 supersteps skips them), so
reading a checkpoint replays every write since the episode's start. ``--snapshot-steps N``
runs the benchmark with the channels saving their whole value every N steps instead
(``LANGGRAPH_GAMES_SNAPSHOT_STEPS``; the script starts itself again with it, as it is read
once, on import). The header prints the setting in use. The "read ms" column is the time to
read the finished episode's state back from the saver (``aget_state``: what a resume does
first), which replays the writes since the last whole value.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from _common import machine, table
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.games import GameSession
from langgraph_games.games.registry import make
from langgraph_games.graphs import EpisodeOptions, create_episode_graph, run_episode
from langgraph_games.players import PongTracker, request_for
from langgraph_games.players.base import Decision, DecisionRequest

SETTINGS = ("none", "memory", "sqlite")
SNAPSHOT_ENV = "LANGGRAPH_GAMES_SNAPSHOT_STEPS"


class AskedTracker(PongTracker):
    """A Pong tracker the loop asks as it asks a model: one node per step."""

    instant = False

    def __init__(self, clock: list[float] | None = None) -> None:
        super().__init__()
        self.clock = clock

    def decide(self, request: DecisionRequest) -> Decision:
        if self.clock is not None:
            self.clock.append(time.perf_counter())
        return super().decide(request)


def _engine() -> Any:
    return make("pong", max_steps=100_000)


def plain_moves(steps: int) -> float:
    """Seconds to play ``steps`` joint moves as plain calls (the session, the trackers)."""
    session = GameSession(_engine(), seed=0)
    seats = (PongTracker(), PongTracker())
    start = time.perf_counter()
    for _ in range(steps):
        joint = {
            p: seats[p].decide(request_for(session, p, previous_observations=())).action
            for p in (0, 1)
        }
        session.step(joint)
    return time.perf_counter() - start


def memory_bytes(saver: InMemorySaver) -> int:
    """Bytes an ``InMemorySaver`` holds: checkpoints, metadata, blobs and writes."""
    total = 0
    for spaces in saver.storage.values():
        for checkpoints in spaces.values():
            for (_, checkpoint), (_, metadata), _ in checkpoints.values():
                total += len(checkpoint) + len(metadata)
    total += sum(len(blob) for _, blob in saver.blobs.values())
    for writes in saver.writes.values():
        total += sum(len(value[1]) for _, _, value, _ in writes.values())
    return total


def sqlite_bytes(path: str) -> int:
    """Bytes of the checkpoints, metadata and writes in a SQLite saver's database."""
    with sqlite3.connect(path) as db:
        saved = db.execute("SELECT sum(length(checkpoint) + length(metadata)) FROM checkpoints")
        written = db.execute("SELECT sum(length(value)) FROM writes")
        return int(saved.fetchone()[0] or 0) + int(written.fetchone()[0] or 0)


@asynccontextmanager
async def saver_of(setting: str, folder: str) -> AsyncIterator[tuple[Any, Callable[[], int]]]:
    """The checkpointer of ``setting`` and a function that counts its bytes."""
    if setting == "none":
        yield None, lambda: 0
    elif setting == "memory":
        memory = InMemorySaver()
        yield memory, lambda: memory_bytes(memory)
    else:
        path = str(Path(folder) / "episodes.sqlite")
        Path(path).unlink(missing_ok=True)
        async with AsyncSqliteSaver.from_conn_string(path) as saver:
            yield saver, lambda: sqlite_bytes(path)


async def episode(setting: str, steps: int, folder: str) -> dict[str, float]:
    """Play one episode of ``steps`` joint moves; its per-step figures."""
    clock: list[float] = []
    seats = [AskedTracker(clock), AskedTracker()]
    async with saver_of(setting, folder) as (saver, size):
        wall, cpu = time.perf_counter(), time.process_time()
        out = await run_episode(
            _engine(),
            seats,
            seed=0,
            options=EpisodeOptions(max_steps=steps),
            checkpointer=saver,
            thread_id=f"pong-{steps}",
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        saved = size()
        read = time.perf_counter()
        if saver is not None:  # what a resume reads first: the state, rebuilt
            state = await create_episode_graph(checkpointer=saver).aget_state(
                {"configurable": {"thread_id": f"pong-{steps}"}}
            )
            assert len(state.values["trajectory"]) == steps
        read = time.perf_counter() - read
    result = out["result"]
    assert result is not None and result["steps"] == steps, result
    tenth = max(1, steps // 10)
    return {
        "ms": 1000 * wall / steps,
        "cpu_ms": 1000 * cpu / steps,
        "first_ms": 1000 * (clock[tenth] - clock[0]) / tenth,
        "last_ms": 1000 * (clock[-1] - clock[-1 - tenth]) / tenth,
        "bytes": saved / steps,
        "read_ms": 1000 * read if saver is not None else float("nan"),
    }


async def main_async(lengths: list[int], settings: list[str], quick: bool) -> None:
    print(f"{machine()}, event loop: {loop_kind()}")
    every = os.environ.get(SNAPSHOT_ENV)
    print(f"whole-value snapshots: {f'every {every} steps' if every else 'never'} ({SNAPSHOT_ENV})")
    print("Pong, two trackers asked as models (a node per step)\n")
    rows: list[list[object]] = []
    figures: dict[tuple[str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for steps in lengths:
            plain = plain_moves(steps)
            rows.append(["plain calls", steps, f"{1000 * plain / steps:.3f}", *[""] * 5])
            for setting in settings:
                if quick and setting == "sqlite" and steps == max(lengths) and len(lengths) > 1:
                    rows.append([setting, steps, "left out (--quick)", *[""] * 5])
                    continue
                got = figures[setting, steps] = await episode(setting, steps, folder)
                rows.append(
                    [
                        setting,
                        steps,
                        f"{got['ms']:.3f}",
                        f"{got['cpu_ms']:.3f}",
                        f"{got['first_ms']:.3f}",
                        f"{got['last_ms']:.3f}",
                        f"{got['bytes']:.0f}",
                        "" if setting == "none" else f"{got['read_ms']:.0f}",
                    ]
                )
                print(*rows[-1], sep="  ", flush=True)
    print()
    headers = [
        "checkpointer",
        "steps",
        "ms/step",
        "CPU ms/step",
        "first tenth",
        "last tenth",
        "bytes/step",
        "read ms",
    ]
    print(table(headers, rows))
    print()
    for setting in settings:
        measured = sorted(steps for s, steps in figures if s == setting)
        if len(measured) < 2:
            continue
        low, high = figures[setting, measured[0]], figures[setting, measured[-1]]
        print(
            f"{setting}: {measured[-1]} steps / {measured[0]} steps: "
            f"{high['cpu_ms'] / low['cpu_ms']:.2f}x CPU per step, "
            f"{high['ms'] / low['ms']:.2f}x wall per step "
            f"(last tenth {high['last_ms'] / low['ms']:.2f}x), "
            f"{high['bytes'] / low['bytes'] if low['bytes'] else 0:.2f}x bytes per step"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[100, 1000, 10_000])
    parser.add_argument("--settings", nargs="+", choices=SETTINGS, default=list(SETTINGS))
    parser.add_argument("--quick", action="store_true", help="no SQLite at the longest length")
    parser.add_argument(
        "--snapshot-steps",
        type=int,
        help=f"run with {SNAPSHOT_ENV} set to this (default: as the environment has it)",
    )
    args = parser.parse_args()
    wanted = args.snapshot_steps
    if wanted is not None and os.environ.get(SNAPSHOT_ENV) != str(wanted):
        if wanted < 1:
            parser.error(f"--snapshot-steps must be at least 1, got {wanted}")
        # the setting is read once, when the episode state is imported: start again with it
        env = {**os.environ, SNAPSHOT_ENV: str(wanted)}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    with steady_gc():
        run_loop(main_async(sorted(args.lengths), args.settings, args.quick))


if __name__ == "__main__":
    main()
