"""``langgraph-games train`` wall time with one process vs worker processes.

Usage: python benchmarks/train_workers.py [--kinds latency cpu] [--latency 0.1]
       [--workers 2] [--test-maps 8] [--max-steps 10] [--rounds 2]

The Agent-ExpVer loop (``run_training``, as ``langgraph-games train maze`` runs it) on a
scripted model of fixed cost per call, with ``--workers 1`` and then ``--workers N`` in the
same run, each from an empty folder (so the workers' start-up is in the figure). The
model answers every GeoLink prompt with the same move (so every episode takes exactly
``--max-steps`` calls), InsightForce with a fixed lesson and TruthWeaver with "SEPARATE".
Rounds that change nothing are evaluated again (``reevaluate_unchanged``), so the run
plays ``rounds + 1`` test batches of ``--test-maps`` episodes (at most ``--test-maps`` at
once) and ``2 x rounds`` training episodes one after another.

Model kinds:

- ``latency``: each call waits ``--latency`` seconds without using the CPU (an endpoint):
  one process already overlaps the test episodes, so workers can only add their start-up;
- ``cpu``: each call does about ``--latency`` seconds of pure-Python work on this
  process's CPU (calibrated at the start), one call at a time per process, as the
  embedded llama.cpp model (one lock per process): workers play the test episodes on
  more cores.

Printed: the wall time of each run, the episodes it played, and the ratio of the one-process
time to the workers' time (above 1: the workers are faster); and whether both runs wrote the
same per-round table (they must).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.messages import BaseMessage

from _common import machine, table
from langgraph_games.eval.running.training import TrainSpec, run_training
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.graphs.expver import ExpVerOptions
from langgraph_games.models import ScriptedChatModel

LESSON = (
    "Experience Summary: Due to aimless moves, the goal was missed. Next time, I should "
    "walk the shortest open path to the goal.\nStrengths:\n- Keep moving along open cells\n"
    "Weaknesses:\n- Avoid wasting steps at the edge"
)
WORK_ENV = "LGG_BENCH_WORK"
"""Loop iterations a ``cpu`` call spends (calibrated here; worker processes read it)."""


def spin(iterations: int) -> int:
    """Pure CPU work (no system calls): ``iterations`` additions."""
    total = 0
    for i in range(iterations):
        total += i
    return total


def calibrate(seconds: float) -> int:
    """Iterations of :func:`spin` that take about ``seconds`` of CPU here."""
    start = time.process_time()
    spin(1_000_000)
    per = (time.process_time() - start) / 1_000_000
    return max(1, int(seconds / per))


def answer(messages: list[BaseMessage]) -> str:
    """TruthWeaver, InsightForce and GeoLink, told apart by their system prompts."""
    system = str(messages[0].content)
    if "(called truths)" in system:
        return "SEPARATE"
    if "You are a coach" in system:
        return LESSON
    return "I weigh the moves. Action: 6"


def busy_answer(messages: list[BaseMessage]) -> str:
    """:func:`answer` after ``$LGG_BENCH_WORK`` iterations of CPU work."""
    spin(int(os.environ.get(WORK_ENV, "0")))
    return answer(messages)


def model(kind: str, latency: float) -> ScriptedChatModel:
    if kind == "latency":
        return ScriptedChatModel(script=answer, latency_s=latency)
    return ScriptedChatModel(script=busy_answer)


def spec(args: argparse.Namespace, workers: int) -> TrainSpec:
    return TrainSpec(
        game="maze",
        agent="eeb:bench",
        train_maps=1,
        test_maps=args.test_maps,
        expver=ExpVerOptions(
            rounds=args.rounds,
            reevaluate_unchanged=True,
            concurrency=args.test_maps,
            episode=EpisodeOptions(max_retries=0, max_steps=args.max_steps),
        ),
        workers=workers,
    )


def timed(args: argparse.Namespace, kind: str, workers: int, out: Path) -> tuple[float, int, str]:
    start = time.perf_counter()
    report = asyncio.run(run_training(spec(args, workers), out, model=model(kind, args.latency)))
    return time.perf_counter() - start, report.played, report.table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", nargs="+", default=["latency", "cpu"])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per call")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--test-maps", type=int, default=8)
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ[WORK_ENV] = str(calibrate(args.latency))
    load = os.getloadavg()[0]
    rows = []
    for kind in args.kinds:
        with tempfile.TemporaryDirectory() as scratch:
            one = timed(args, kind, 1, Path(scratch) / "one")
            many = timed(args, kind, args.workers, Path(scratch) / "many")
        same = "yes" if one[2] == many[2] else "NO"
        rows.append([kind, 1, f"{one[0]:.2f}", one[1], "1.00", ""])
        rows.append(
            [kind, args.workers, f"{many[0]:.2f}", many[1], f"{one[0] / many[0]:.2f}", same]
        )
    print(
        f"train maze on a scripted model, {args.latency * 1e3:.0f} ms per call ({machine()}, "
        f"load average {load:.2f} at the start)"
    )
    print(f"{args.rounds} rounds, {args.test_maps} test maps, {args.max_steps} steps per episode\n")
    headers = ["model", "workers", "seconds", "episodes", "speed-up vs 1", "same table"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
