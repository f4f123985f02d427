"""Where the CPU of a model call goes: a cProfile of concurrent matches, grouped by package.

Usage: python benchmarks/profile_calls.py [--matches 64] [--top 15] [--no-steady-gc]

N Connect Four matches at once (GAMEBoT on both seats, an instant scripted model, 6 moves
each, as ``concurrency.py``), run once to warm up, then under cProfile inside
:func:`~langgraph_games.eval.running.gc_tuning.steady_gc` (as the executor runs). Prints
the CPU per model call without the profiler, then the profiled own time per model call
grouped by where the code lives (LangGraph, LangChain, asyncio, this package by
sub-package, the collector, the rest), then the functions with the most own time.
Profiling inflates small Python calls, so the groups are shares, not absolute costs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import sys
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from concurrency import MOVES, first_legal_move
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel

GROUPS = (
    ("langgraph/", "LangGraph"),
    ("langchain_core/", "LangChain core"),
    ("asyncio/", "asyncio"),
    ("langgraph_games/games/", "ours: games (engines, ground truth, readers)"),
    ("langgraph_games/graphs/episode/", "ours: episode loop"),
    ("langgraph_games/graphs/", "ours: strategy graphs (prompts, parsing, scoring)"),
    ("langgraph_games/models/", "ours: models (scripted model, usage, limits)"),
    ("langgraph_games/", "ours: other"),
    ("pydantic", "pydantic"),
)


def group_of(filename: str) -> str:
    """The group a profiled function's file belongs to."""
    for marker, name in GROUPS:
        if marker in filename:
            return name
    if filename.startswith("~") or filename.startswith("<"):
        return "builtins (isinstance, dict, ...)"
    return "other Python"


async def matches(player: object, n: int) -> None:
    options = EpisodeOptions(max_retries=0, max_steps=MOVES)
    await asyncio.gather(
        *(run_episode("connect4", [player, player], seed=i, options=options) for i in range(n))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--no-steady-gc", action="store_true")
    args = parser.parse_args()
    model = ScriptedChatModel(script=first_legal_move)
    player = gamebot_player(model, "connect4")
    asyncio.run(matches(player, 8))
    tuned = nullcontext() if args.no_steady_gc else steady_gc()
    with tuned:
        before, start = len(model.calls), time.process_time()
        asyncio.run(matches(player, args.matches))
        calls = len(model.calls) - before
        cpu_ms = (time.process_time() - start) / calls * 1e3
        profile = cProfile.Profile()
        collections = gc.get_stats()[0]["collections"]
        profile.enable()
        asyncio.run(matches(player, args.matches))
        profile.disable()
        collected = gc.get_stats()[0]["collections"] - collections
    stats = pstats.Stats(profile)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())
    groups: dict[str, float] = {}
    for (filename, _line, _name), entry in raw.items():
        groups[group_of(filename)] = groups.get(group_of(filename), 0.0) + entry[2]
    print(
        f"{args.matches} Connect Four matches at once, GAMEBoT on both seats, instant model "
        f"({machine()}; steady_gc {'off' if args.no_steady_gc else 'on'})\n"
    )
    print(f"CPU per model call, not profiled: {cpu_ms:.3f} ms ({calls} calls)")
    print(f"young-generation collections while profiled: {collected}\n")
    rows = [
        [name, f"{seconds / calls * 1e3:.3f}", f"{seconds / total:.0%}"]
        for name, seconds in sorted(groups.items(), key=lambda item: -item[1])
    ]
    print(table(["where (own time)", "profiled ms per call", "share"], rows))
    print()
    top = sorted(raw.items(), key=lambda item: -item[1][2])[: args.top]
    rows = [
        [
            f"{Path(filename).parent.name}/{Path(filename).name}:{line}({name})",
            str(entry[1]),
            f"{entry[2] / calls * 1e3:.3f}",
        ]
        for (filename, line, name), entry in top
    ]
    print(table(["function", "calls", "own ms per model call"], rows))


if __name__ == "__main__":
    main()
