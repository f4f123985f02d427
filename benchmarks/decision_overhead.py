"""Framework overhead per model call, with a model that answers instantly.

Usage: python benchmarks/decision_overhead.py [--decisions 300]

Measures, in the same run:
- the bare scripted model call (``ainvoke``) as the baseline;
- one GAMEBoT decision through its graph (prompt, model, parse, verify against ground
  truth), called directly (the same JSON input every time, and a JSON input built from the
  request each time, as a server sees) and through the player adapter;
- one step of the episode loop with that player on TicTacToe.
The overhead per call is (decision time - bare call time). Aim: under 2 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _common import machine, table
from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import RandomPlayer, request_for
from support import oracle


async def per_call(fn, n: int) -> float:
    await fn()  # warm-up
    start = time.perf_counter()
    for _ in range(n):
        await fn()
    return (time.perf_counter() - start) / n


async def main_async(n: int) -> None:
    session = GameSession("tictactoe", actions=["(1,1)", "(0,0)"])
    model = ScriptedChatModel(script=oracle("right"))
    player = gamebot_player(model, "tictactoe")
    request = request_for(session)
    graph_input = request_to_input(request)
    messages = (await player.graph.ainvoke(graph_input))["decision"] and None
    prompt = model.calls[-1]

    bare = await per_call(lambda: model.ainvoke(prompt), n)
    graph = await per_call(lambda: player.graph.ainvoke(graph_input), n)
    fresh = await per_call(lambda: player.graph.ainvoke(request_to_input(request)), n)
    adapter = await per_call(lambda: player.adecide(request), n)

    episodes = max(5, n // 20)
    calls_before = len(model.calls)
    start = time.perf_counter()
    for seed in range(episodes):
        await run_episode(
            "tictactoe",
            [player, RandomPlayer(seed=seed)],
            seed=seed,
            options=EpisodeOptions(max_retries=0),
        )
    elapsed = time.perf_counter() - start
    calls = len(model.calls) - calls_before
    per_episode_call = elapsed / calls
    del messages

    rows = [
        ["bare model call (baseline)", f"{bare * 1e3:.3f}", "-"],
        ["GAMEBoT decision graph", f"{graph * 1e3:.3f}", f"{(graph - bare) * 1e3:.3f}"],
        ["GAMEBoT graph, new JSON input", f"{fresh * 1e3:.3f}", f"{(fresh - bare) * 1e3:.3f}"],
        ["GAMEBoT player adapter", f"{adapter * 1e3:.3f}", f"{(adapter - bare) * 1e3:.3f}"],
        [
            "episode loop, per model call",
            f"{per_episode_call * 1e3:.3f}",
            f"{(per_episode_call - bare) * 1e3:.3f}",
        ],
    ]
    print(
        f"Framework overhead with an instant scripted model ({machine()}; {n} decisions, "
        f"{episodes} TicTacToe episodes)\n"
    )
    print(table(["path", "ms per call", "overhead ms"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(main_async(args.decisions))


if __name__ == "__main__":
    main()
