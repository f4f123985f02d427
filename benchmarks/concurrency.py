"""Concurrent matches against a model with a fixed latency, against the ideal throughput.

Usage: python benchmarks/concurrency.py [--latency 0.1] [--sizes 1 8 64]

N Connect Four matches run at once through the arena's executor path (``run_episode`` under
``asyncio``), both seats played by the GAMEBoT agent on a scripted model that takes
``latency`` seconds per call. Every match stops after 6 moves (no Connect Four game ends
sooner), so each makes exactly 6 calls one after another and the ideal run takes
6 x latency: an ideal throughput of N / latency calls per second. The efficiency is
achieved / ideal. Aim: at least 90% at N = 64.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel

_LEGAL = re.compile(r"moves: \[(.*?)\]")


def first_legal_move(messages) -> str:
    """Answer both subproblems with None and play the first legal move listed."""
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(messages[-1].text)[-1])
    return (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )


MOVES = 6


async def run(n: int, latency: float) -> tuple[int, float]:
    model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
    player = gamebot_player(model, "connect4")
    options = EpisodeOptions(max_retries=0, max_steps=MOVES)
    start = time.perf_counter()
    await asyncio.gather(
        *(run_episode("connect4", [player, player], seed=i, options=options) for i in range(n))
    )
    return len(model.calls), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64])
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        calls, elapsed = asyncio.run(run(n, args.latency))
        achieved = calls / elapsed
        # Each match makes its calls one after another; N matches overlap.
        ideal = n / args.latency
        rows.append(
            [
                n,
                calls,
                f"{elapsed:.2f}",
                f"{achieved:,.1f}",
                f"{ideal:,.1f}",
                f"{100 * achieved / ideal:.1f}%",
            ]
        )
    print(
        f"Concurrent matches, scripted model with {args.latency * 1e3:.0f} ms latency "
        f"({machine()})\n"
    )
    print(table(["N", "model calls", "seconds", "calls/s", "ideal N/latency", "efficiency"], rows))


if __name__ == "__main__":
    main()
