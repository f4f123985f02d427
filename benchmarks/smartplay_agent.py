"""What the SmartPlay agent graph costs per step, with a model that answers instantly.

Usage: python benchmarks/smartplay_agent.py [--episodes 3]

For each setting, in the same run:
- baseline: a hand-written loop doing the released protocol on a ``GameSession``: build
  question 1's messages, call the model, build question 2's, call it, match, step;
- the agent: the same episodes through ``run_episode`` with ``smartplay_player`` (the
  decision graph, the per-episode history kept by the player, the episode loop's
  trajectory and counters).
Both use the same instant scripted model (two calls per step), so the difference is the
framework's cost per step; the ratio is agent / baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import run_episode, smartplay_player
from langgraph_games.graphs.smartplay.prompts import match_action, session_messages, smartplay_view
from langgraph_games.models import ScriptedChatModel

SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("bandit", {}),
    ("rock_paper_scissors", {}),
    ("hanoi", {}),
    ("messenger", {"level": 2}),
    ("crafter", {"length": 100}),
]


def model_for(game_id: str) -> ScriptedChatModel:
    choice = {"bandit": "Pull slot machine 2.", "rock_paper_scissors": "Paper"}.get(
        game_id, "Move West"
    )
    return ScriptedChatModel(responses=["Let me think step by step.", choice])


async def baseline(game_id: str, options: dict[str, Any], episodes: int) -> tuple[int, float]:
    game = make(game_id, **options)
    model = model_for(game_id)
    steps = 0
    start = time.perf_counter()
    for seed in range(episodes):
        session = GameSession(game, seed=seed)
        while not session.done:
            first = await model.ainvoke(session_messages(session, 0))
            second = await model.ainvoke(session_messages(session, 1, [first.text]))
            actions = smartplay_view(game, session.state).actions
            session.step(actions[match_action(second.text, actions) or 0])
            steps += 1
    return steps, time.perf_counter() - start


async def agent(game_id: str, options: dict[str, Any], episodes: int) -> tuple[int, float]:
    game = make(game_id, **options)
    steps = 0
    start = time.perf_counter()
    for seed in range(episodes):
        player = smartplay_player(model_for(game_id), game)
        out = await run_episode(game, [player], seed=seed)
        steps += out["result"]["steps"]
    return steps, time.perf_counter() - start


async def main_async(episodes: int) -> None:
    rows = []
    for game_id, options in SETTINGS:
        label = game_id + "".join(f" {k}={v}" for k, v in options.items())
        await agent(game_id, options, 1)  # warm-up (world generation, imports)
        base_steps, base_s = await baseline(game_id, options, episodes)
        agent_steps, agent_s = await agent(game_id, options, episodes)
        base_ms = base_s / base_steps * 1e3
        agent_ms = agent_s / agent_steps * 1e3
        rows.append(
            [
                label,
                agent_steps,
                f"{base_ms:.2f}",
                f"{agent_ms:.2f}",
                f"{agent_ms - base_ms:.2f}",
                f"{agent_ms / base_ms:.1f}x",
            ]
        )
    print(
        f"SmartPlay agent, ms per step with an instant scripted model ({machine()}; "
        f"{episodes} episodes per setting)\n"
    )
    headers = ["setting", "steps", "baseline loop", "agent + episode loop", "overhead", "ratio"]
    print(table(headers, rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    asyncio.run(main_async(parser.parse_args().episodes))


if __name__ == "__main__":
    main()
