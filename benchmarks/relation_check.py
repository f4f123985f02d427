"""What TruthWeaver's model calls cost a training run, per round: calls and seconds.

Usage: python benchmarks/relation_check.py [--rounds 16] [--latency 0.5] [--test-maps 30]

Runs ``run_training`` on the maze with the scripted direction coach of the tests (two
lessons that contradict each other, see ``tests/direction_support.py``), every model call
taking ``--latency`` seconds as a remote endpoint's would. It counts the calls TruthWeaver
makes (the relation check's, or the merge prompt's of versions before it) and the seconds
spent inside ``TruthWeaver.insert_many`` (model calls, contests' replays and store writes),
and prints them per round beside the run's other model calls.

The script uses only ``run_training``, ``TrainSpec`` and ``TruthWeaver``, so it runs
unchanged on an earlier tree's sources (``PYTHONPATH=<tree>/src python
benchmarks/relation_check.py``): that gives the "before" figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
os.environ.setdefault("LANGGRAPH_GAMES_WORKERS", "1")

from langchain_core.messages import BaseMessage

from _common import machine, table
from direction_support import direction_script
from langgraph_games.eval.running.training import TrainSpec, run_training
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.parts import ExpVerOptions
from langgraph_games.memory import TruthWeaver
from langgraph_games.models import ScriptedChatModel

calls: Counter[str] = Counter()
spent = {"weave": 0.0}


def kind(messages: Sequence[BaseMessage]) -> str:
    system = str(messages[0].content)
    if "one lesson per meaning" in system or "(called truths)" in system:
        return "truthweaver"
    if system.startswith("You are a coach") or "You sort notes" in system:
        return "insightforce"
    return "geolink"


def timed_script(latency: float) -> Any:
    def script(messages: Sequence[BaseMessage]) -> str:
        who = kind(messages)
        calls[who] += 1
        if who != "geolink":  # the agent's calls are not what this measures
            time.sleep(latency)
        return direction_script(messages)

    return script


def patch_weaver() -> None:
    original = TruthWeaver.insert_many

    def insert_many(self: TruthWeaver, *args: Any, **kw: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(self, *args, **kw)
        finally:
            spent["weave"] += time.perf_counter() - started

    TruthWeaver.insert_many = insert_many  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per model call")
    parser.add_argument("--test-maps", type=int, default=30)
    args = parser.parse_args()
    patch_weaver()
    model = ScriptedChatModel(script=timed_script(args.latency), name_="coach")
    spec = TrainSpec(
        game="maze",
        agent="eeb:coach",
        test_maps=args.test_maps,
        expver=ExpVerOptions(rounds=args.rounds, episode=EpisodeOptions(max_steps=20)),
    )
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        report = asyncio.run(run_training(spec, out, model=model))
        total = time.perf_counter() - started
    rounds = args.rounds
    print(f"{machine()}; {rounds} rounds, {args.latency:g} s per TruthWeaver/InsightForce call")
    print(f"final truths: {len(report.truths)} active")
    for text in report.truths:
        print(f"  {text}")
    figures = [
        ("TruthWeaver model calls", calls["truthweaver"]),
        ("TruthWeaver seconds (inside insert_many)", spent["weave"]),
        ("InsightForce calls", calls["insightforce"]),
        ("GeoLink calls", calls["geolink"]),
        ("run seconds", total),
    ]
    rows = [[name, f"{value:.3g}", f"{value / rounds:.3g}"] for name, value in figures]
    print(table(["", "total", "per round"], rows))


if __name__ == "__main__":
    main()
