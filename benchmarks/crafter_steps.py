"""Crafter steps per second through our game session against the raw ``crafter`` package.

Usage: python benchmarks/crafter_steps.py [--steps 2000] [--seeds 3]

Both sides play the same uniformly random actions from the same seeds until the player dies
(or ``--steps`` per seed). Step rates exclude world generation, which is timed on its own:
the raw package's ``reset`` against ours (exact list-based noise), and our copy of an
already generated world. "Session" is ``GameSession.step`` (validation, the new state, the
events and the text-view snapshot); "session + observe" also builds the descriptor text
every step, as an agent loop does. "Replay" rebuilds a finished episode from its record in
a cold process state (generation + replay) and from warm caches (look-ups only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import crafter

from _common import machine, median, table
from langgraph_games.games import GameSession, make
from langgraph_games.games.crafter import (
    ACTION_NAMES,
    _live,
    clear_caches,
)


def action_plans(seeds: int, steps: int) -> list[list[int]]:
    rng = random.Random(0)
    return [[rng.randrange(17) for _ in range(steps)] for _ in range(seeds)]


def raw_episode(seed: int, plan: list[int]) -> tuple[int, float, float]:
    """(steps, reset seconds, stepping seconds) with the untouched package."""
    env = crafter.Env(seed=seed)
    started = time.perf_counter()
    env.reset()
    reset = time.perf_counter() - started
    started = time.perf_counter()
    steps = 0
    for action in plan:
        _obs, _reward, done, _info = env.step(action)
        steps += 1
        if done:
            break
    return steps, reset, time.perf_counter() - started


def our_episode(seed: int, plan: list[int], observe: bool) -> tuple[int, float, float]:
    session = GameSession(make("crafter"), seed=seed)
    started = time.perf_counter()
    session.observe()  # generates (or copies) the world
    reset = time.perf_counter() - started
    started = time.perf_counter()
    for action in plan:
        session.step(ACTION_NAMES[action])
        if observe:
            session.observe()
        if session.done:
            break
    return len(session.actions), reset, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="step cap per episode")
    parser.add_argument("--seeds", type=int, default=3, help="episodes (seeds 0..n-1)")
    args = parser.parse_args()
    plans = action_plans(args.seeds, args.steps)

    raw = [raw_episode(seed, plan) for seed, plan in enumerate(plans)]
    clear_caches()
    cold = [our_episode(seed, plan, observe=False) for seed, plan in enumerate(plans)]
    clear_caches()
    observed = [our_episode(seed, plan, observe=True) for seed, plan in enumerate(plans)]
    warm = [our_episode(seed, plan, observe=False) for seed, plan in enumerate(plans)]

    def rate(runs: list[tuple[int, float, float]]) -> float:
        return sum(r[0] for r in runs) / sum(r[2] for r in runs)

    raw_rate = rate(raw)
    rows = [
        ["raw crafter.Env.step (renders)", f"{raw_rate:,.0f}", "1.00"],
        ["our GameSession.step", f"{rate(cold):,.0f}", f"{rate(cold) / raw_rate:.2f}"],
        [
            "our GameSession.step + observe()",
            f"{rate(observed):,.0f}",
            f"{rate(observed) / raw_rate:.2f}",
        ],
        [
            "our GameSession.step, seen states",
            f"{rate(warm):,.0f}",
            f"{rate(warm) / raw_rate:.2f}",
        ],
    ]
    steps = [r[0] for r in raw]
    ours = [c[0] for c in cold]
    # The raw package is not deterministic (it despawns creatures in set order, which
    # follows memory addresses), so its episodes may last a different number of steps.
    print(f"Crafter steps per second ({machine()}; episode lengths raw {steps}, ours {ours})\n")
    print(table(["what", "steps/s", "ratio to raw"], rows))

    actions = [ACTION_NAMES[a] for a in plans[0][: ours[0]]]
    record = GameSession(make("crafter"), seed=0, actions=actions).to_dict()
    clear_caches()
    started = time.perf_counter()
    GameSession.from_dict(record).observe()
    cold_replay = time.perf_counter() - started
    started = time.perf_counter()
    GameSession.from_dict(record).observe()
    warm_replay = time.perf_counter() - started
    clear_caches()
    started = time.perf_counter()
    _live._fresh_env(99, 10_000)
    ours_generate = time.perf_counter() - started
    started = time.perf_counter()
    _live._fresh_env(99, 10_000)
    ours_copy = time.perf_counter() - started
    print()
    print(
        table(
            ["world generation and replay", "seconds"],
            [
                ["raw crafter reset (median)", f"{median([r[1] for r in raw]):.3f}"],
                ["our world generation (exact fast noise)", f"{ours_generate:.3f}"],
                ["our copy of a generated world", f"{ours_copy:.4f}"],
                [f"rebuild a {ours[0]}-step episode, cold caches", f"{cold_replay:.3f}"],
                [f"rebuild a {ours[0]}-step episode, warm caches", f"{warm_replay:.4f}"],
            ],
        )
    )


if __name__ == "__main__":
    main()
