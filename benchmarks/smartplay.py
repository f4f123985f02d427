"""Steps per second of the SmartPlay games, and what the baseline's prompt costs per step.

Usage: python benchmarks/smartplay.py [--seconds 1]

For each SmartPlay setting, uniformly random actions are played to the end of episodes:
through the pure rules (``apply``), through a ``GameSession`` (which keeps every state),
and through a session that also renders what the two-question baseline sends each step
(observation, manual and history messages). The released environments cannot run here
(gym 0.21, VGDL and MineDojo do not install), so there is no reference column; the last
column is the prompt-building share of a step (session+prompt over session).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, rate, table
from langgraph_games.games import GameSession, make
from langgraph_games.graphs.smartplay.prompts import session_messages

SETTINGS = [
    ("bandit", {}),
    ("rock_paper_scissors", {}),
    ("hanoi", {}),
    ("messenger", {"level": 1}),
    ("messenger", {"level": 2}),
]


def pure(game_id: str, options: dict[str, int]):
    game = make(game_id, **options)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def run() -> int:
        state = game.initial_state(next(seeds))
        steps = 0
        while not game.is_terminal(state):
            action = rng.choice(game.legal_actions(state, 0))
            state, _ = game.apply(state, {0: action})
            steps += 1
        return steps

    return run


def session(game_id: str, options: dict[str, int], prompt: bool = False):
    game = make(game_id, **options)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def run() -> int:
        s = GameSession(game, seed=next(seeds))
        while not s.done:
            if prompt:
                session_messages(s, 0)
            s.step(rng.choice(s.legal_actions()))
        return len(s.actions)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    rows = []
    for game_id, options in SETTINGS:
        label = game_id + "".join(f" {k}={v}" for k, v in options.items())
        rules = rate(pure(game_id, options), args.seconds)
        plain = rate(session(game_id, options), args.seconds)
        prompted = rate(session(game_id, options, prompt=True), args.seconds)
        rows.append(
            [
                label,
                f"{rules:,.0f}",
                f"{plain:,.0f}",
                f"{prompted:,.0f}",
                f"{plain / prompted:.1f}x",
            ]
        )
    print(f"SmartPlay steps per second ({machine()}, {args.seconds:g} s per cell)\n")
    print(table(["setting", "rules", "session", "session+prompt", "prompt cost"], rows))


if __name__ == "__main__":
    main()
