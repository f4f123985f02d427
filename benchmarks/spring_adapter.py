"""SPRING step latency along the whole adapter path, against the bare question DAG.

Usage: python benchmarks/spring_adapter.py [--latency 0.1] [--steps 10] [--variant full]

A scripted model answers every question after ``--latency`` seconds (``asyncio.sleep``,
as a remote endpoint would). Per Crafter step, in the same run:

- **DAG**: one ``ainvoke`` of SPRING's question DAG (the baseline);
- **player**: ``SpringPlayer.adecide`` on a request (the decision graph around the DAG,
  the observation memory, the Decision);
- **episode**: one step of ``run_episode`` (observe, decide, apply the Crafter action,
  trajectory), the episode's time divided by its steps;
- **eval**: ``run_eval`` of one episode (adds the player build, the results file and the
  Crafter metrics), divided by its steps.

Each layer is given with its extra milliseconds over the one before and its ratio to the
DAG. With ``--latency 0`` the figures are pure framework overhead.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from langchain_core.messages import BaseMessage

from _common import machine, median, table
from langgraph_games.eval.running import players as eval_players
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS, create_spring_agent
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for


def answer(messages: Sequence[BaseMessage]) -> str:
    return "Move West" if messages[-1].content == SPRING_QUESTIONS["qa"] else "ok"


async def dag_steps(model: ScriptedChatModel, variant: str, steps: int) -> float:
    game = make("crafter")
    agent = create_spring_agent(model, game, variant=variant)
    session = GameSession(game, seed=0)
    times, previous = [], []
    for _ in range(steps):
        started = time.perf_counter()
        await agent.ainvoke(
            {
                "observation": session.observe(),
                "recent_observations": previous[-1:],
                "legal_actions": list(session.legal_actions()),
                "step": len(session.actions),
            }
        )
        times.append(time.perf_counter() - started)
        previous.append(session.observe())
        session.step("Noop")
    return median(times)


async def player_steps(model: ScriptedChatModel, variant: str, steps: int) -> float:
    player = spring_player(model, "crafter", variant=variant)
    session = GameSession("crafter", seed=0)
    times = []
    for _ in range(steps):
        request = request_for(session)
        started = time.perf_counter()
        await player.adecide(request)
        times.append(time.perf_counter() - started)
        session.step("Noop")
    return median(times)


async def episode_step(model: ScriptedChatModel, variant: str, steps: int) -> float:
    player = spring_player(model, "crafter", variant=variant)
    started = time.perf_counter()
    await run_episode("crafter", [player], seed=0, options=EpisodeOptions(max_steps=steps))
    return (time.perf_counter() - started) / steps


async def eval_step(model: ScriptedChatModel, variant: str, steps: int) -> float:
    eval_players.load_chat_model = lambda spec, **settings: model  # type: ignore[assignment]
    strategy = "spring" if variant == "full" else f"spring:variant={variant}"
    spec = EvalSpec(
        game="crafter",
        agent=f"{strategy}:bench",
        repeats=1,
        episode=EpisodeOptions(max_steps=steps),
    )
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        await run_eval(spec, out, progress=False)
        return (time.perf_counter() - started) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per model call")
    parser.add_argument("--steps", type=int, default=10, help="steps per measurement")
    parser.add_argument("--variant", default="full", help="SPRING variant (default full)")
    args = parser.parse_args()
    GameSession("crafter", seed=0)  # generate the world once, outside the timings
    rows = []
    for latency in sorted({0.0, args.latency}):
        model = ScriptedChatModel(script=answer, latency_s=latency)
        layers = [
            ("DAG", asyncio.run(dag_steps(model, args.variant, args.steps))),
            ("player", asyncio.run(player_steps(model, args.variant, args.steps))),
            ("episode", asyncio.run(episode_step(model, args.variant, args.steps))),
            ("eval", asyncio.run(eval_step(model, args.variant, args.steps))),
        ]
        base = layers[0][1]
        before = base
        for name, seconds in layers:
            rows.append(
                [
                    f"{latency * 1000:.0f}",
                    name,
                    f"{seconds * 1000:.1f}",
                    f"{(seconds - before) * 1000:+.1f}",
                    f"{seconds / base:.3f}",
                ]
            )
            before = seconds
    print(
        f"SPRING ({args.variant}) step latency on Crafter, {args.steps} steps per layer "
        f"({machine()})\n"
    )
    print(table(["model ms", "layer", "ms / step", "extra ms vs previous", "ratio to DAG"], rows))


if __name__ == "__main__":
    main()
