"""Random play-outs per second: our engines against OpenSpiel and PettingZoo, same run.

Usage: python benchmarks/playouts.py [--seconds 2]

Each engine plays uniformly random legal moves to the end through its public API:
ours through the pure rules (``legal_actions`` + validated ``apply``) and through a
``GameSession``; OpenSpiel through ``pyspiel`` (C++); PettingZoo through its AEC loop with
``action_mask``. Ratios are ours / reference; > 1 means we are faster. PettingZoo has no
Othello or Checkers.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, rate, table  # noqa: E402

from langgraph_games.games import GameSession, make  # noqa: E402

SPIEL = {
    "tictactoe": "tic_tac_toe",
    "connect4": "connect_four",
    "othello": "othello",
    "checkers": "checkers",
}
ZOO = {"tictactoe": "tictactoe_v3", "connect4": "connect_four_v3"}


def ours_pure(game_id: str):
    game = make(game_id)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one() -> int:
        state = game.initial_state(next(seeds))
        while True:
            acting = game.current_players(state)
            if not acting:
                return 1
            player = acting[0]
            state, _ = game.apply(state, {player: rng.choice(game.legal_actions(state, player))})

    return one


def ours_session(game_id: str):
    game = make(game_id)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one() -> int:
        session = GameSession(game, seed=next(seeds))
        while not session.done:
            session.step(rng.choice(session.legal_actions()))
        return 1

    return one


def openspiel(game_id: str):
    import pyspiel

    game = pyspiel.load_game(SPIEL[game_id])
    rng = random.Random(0)

    def one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return one


def pettingzoo(game_id: str):
    import importlib

    import numpy as np

    module = importlib.import_module(f"pettingzoo.classic.{ZOO[game_id]}")
    env = module.env()
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one() -> int:
        env.reset(seed=next(seeds))
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal))
            env.step(action)
        return 1

    return one


def cold_caches() -> None:
    """Forget cached move lists so each measurement starts from the same cold state."""
    from langgraph_games.games.checkers.rules import legal_moves as checkers_moves
    from langgraph_games.games.othello.rules import legal_moves as othello_moves

    checkers_moves.cache_clear()
    othello_moves.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    rows = []
    for game_id in SPIEL:
        cold_caches()
        pure = rate(ours_pure(game_id), args.seconds)
        cold_caches()
        session = rate(ours_session(game_id), args.seconds)
        spiel = rate(openspiel(game_id), args.seconds)
        zoo = rate(pettingzoo(game_id), args.seconds) if game_id in ZOO else None
        rows.append(
            [
                game_id,
                f"{pure:,.0f}",
                f"{session:,.0f}",
                f"{spiel:,.0f}",
                f"{zoo:,.0f}" if zoo else "n/a",
                f"{pure / spiel:.2f}",
                f"{pure / zoo:.2f}" if zoo else "n/a",
            ]
        )
    print(f"Random play-outs per second ({machine()}, {args.seconds:g} s per cell)\n")
    print(
        table(
            [
                "game",
                "ours (rules)",
                "ours (session)",
                "OpenSpiel",
                "PettingZoo",
                "ours/OpenSpiel",
                "ours/PettingZoo",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
