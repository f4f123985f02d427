"""The embedded local model: tokens per second and seconds per TicTacToe move.

Usage: python benchmarks/local_model.py [--moves 4] [--max-tokens 384]

Plays GAMEBoT TicTacToe decisions with SmolLM2-135M through llama.cpp (the embedded
default model) and reports prompt tokens, completion tokens, prompt and generation
throughput, and wall time per decision (one model call each; no retries).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, table
from langgraph_games.games import GameSession
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import LocalChatModel
from langgraph_games.players import RandomPlayer, request_for


async def main_async(moves: int, max_tokens: int) -> None:
    model = LocalChatModel(max_tokens=max_tokens)
    load_start = time.perf_counter()
    await model.ainvoke("hi", max_tokens=1)  # loads the weights once
    load = time.perf_counter() - load_start
    player = gamebot_player(model, "tictactoe")
    session = GameSession("tictactoe", seed=0)
    rows, walls, inputs, outputs = [], [], 0, 0
    for move in range(moves):
        if session.done:
            break
        start = time.perf_counter()
        decision = await player.adecide(request_for(session))
        wall = time.perf_counter() - start
        walls.append(wall)
        usage = decision.usage
        inputs += usage.get("input_tokens", 0)
        outputs += usage.get("output_tokens", 0)
        rows.append(
            [
                move + 1,
                usage.get("input_tokens"),
                usage.get("output_tokens"),
                f"{wall:.2f}",
                decision.status.value,
                decision.action or "-",
            ]
        )
        action = decision.action or RandomPlayer().decide(request_for(session)).action
        session.step(action)
        if not session.done:
            session.step(RandomPlayer(seed=move).decide(request_for(session)).action)
    total = sum(walls)
    print(f"SmolLM2-135M via llama.cpp ({machine()}); model load {load:.2f} s\n")
    print(table(["decision", "prompt tok", "completion tok", "seconds", "status", "move"], rows))
    print(f"\nmedian seconds per TicTacToe move: {median(walls):.2f}")
    print(
        f"tokens per second (prompt + completion over wall time): {(inputs + outputs) / total:.1f}"
    )
    print(f"completion tokens per second (over wall time): {outputs / total:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=384)
    args = parser.parse_args()
    asyncio.run(main_async(args.moves, args.max_tokens))


if __name__ == "__main__":
    main()
