"""Engine steps per second for Pong, Surround, Texas Hold'em and Negotiation v2.

Usage: python benchmarks/engine_steps.py [--seconds 2]

A step is one (joint) action applied through the validated pure API (``legal_actions`` +
``apply``) or through a ``GameSession``, with uniformly random legal actions, games
restarted as they end. Where a reference engine of the same game exists in the bench
dependencies it runs in the same process on the same kind of play: PettingZoo's
``texas_holdem_no_limit_v6`` (rlcard, the engine GAMEBoT used) and OpenSpiel's
``negotiation``; the ratio is ours / reference (> 1 means we are faster). Atari Pong and
Surround (ALE, GPL) are not a dependency, so they have no reference column.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, rate, table
from langgraph_games.games import GameSession, make

GAMES = ("pong", "surround", "texas_holdem", "negotiation")


def ours_pure(game_id: str):
    game = make(game_id)
    rng = random.Random(0)
    seeds = iter(range(10**9))
    state = game.initial_state(next(seeds))

    def batch() -> int:
        nonlocal state
        for _ in range(200):
            acting = game.current_players(state)
            if not acting:
                state = game.initial_state(next(seeds))
                acting = game.current_players(state)
            joint = {p: rng.choice(game.legal_actions(state, p)) for p in acting}
            state, _ = game.apply(state, joint)
        return 200

    return batch


def ours_session(game_id: str):
    game = make(game_id)
    rng = random.Random(1)
    seeds = iter(range(10**9))
    session = GameSession(game, seed=next(seeds))

    def batch() -> int:
        nonlocal session
        for _ in range(200):
            if session.done:
                session = GameSession(game, seed=next(seeds))
            session.step({p: rng.choice(session.legal_actions(p)) for p in session.current_players})
        return 200

    return batch


def pettingzoo_holdem():
    import numpy as np
    from pettingzoo.classic import texas_holdem_no_limit_v6

    env = texas_holdem_no_limit_v6.env()
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one_hand() -> int:
        env.reset(seed=next(seeds))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
        return steps

    return one_hand


def openspiel_negotiation():
    import pyspiel

    game = pyspiel.load_game("negotiation")
    rng = random.Random(0)

    def one_game() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return one_game


REFERENCES = {
    "texas_holdem": ("PettingZoo NLHE (rlcard)", pettingzoo_holdem),
    "negotiation": ("OpenSpiel negotiation", openspiel_negotiation),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    rows = []
    for game_id in GAMES:
        pure = rate(ours_pure(game_id), args.seconds)
        session = rate(ours_session(game_id), args.seconds)
        name, factory = REFERENCES.get(game_id, ("n/a", None))
        reference = rate(factory(), args.seconds) if factory else None
        rows.append(
            [
                game_id,
                f"{pure:,.0f}",
                f"{session:,.0f}",
                name,
                f"{reference:,.0f}" if reference else "n/a",
                f"{pure / reference:.2f}" if reference else "n/a",
            ]
        )
    print(
        f"Engine steps per second, random legal actions ({machine()}, "
        f"{args.seconds:g} s per cell)\n"
    )
    print(
        table(
            [
                "game",
                "ours (rules)",
                "ours (session)",
                "reference",
                "reference steps/s",
                "ours/reference",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
