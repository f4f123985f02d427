"""Minimax nodes per second per game, at each game's default depth.

Usage: python benchmarks/minimax.py [--positions 20]

Positions come from seeded random openings of 0-10 plies; each is searched once from
cold move caches. Reports nodes per second and seconds per move.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, table  # noqa: E402
from playouts import cold_caches  # noqa: E402

from langgraph_games.games import GameSession  # noqa: E402
from langgraph_games.players import DEFAULT_DEPTHS, MinimaxPlayer, request_for  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions per game")
    args = parser.parse_args()
    rows = []
    for game_id, depth in DEFAULT_DEPTHS.items():
        rng = random.Random(3)
        nodes = 0
        elapsed = 0.0
        per_move = []
        for seed in range(args.positions):
            session = GameSession(game_id, seed=seed)
            for _ in range(rng.randrange(11)):
                if session.done:
                    break
                session.step(rng.choice(session.legal_actions()))
            if session.done:
                continue
            cold_caches()
            player = MinimaxPlayer(seed=seed)
            start = time.perf_counter()
            player.decide(request_for(session))
            spent = time.perf_counter() - start
            elapsed += spent
            per_move.append(spent)
            nodes += player.nodes
        rows.append(
            [
                game_id,
                "exact" if depth is None else depth,
                f"{nodes:,}",
                f"{nodes / elapsed:,.0f}",
                f"{median(per_move):.3f}",
            ]
        )
    print(f"Minimax with alpha-beta ({machine()})\n")
    print(table(["game", "depth", "nodes", "nodes/s", "median s/move"], rows))


if __name__ == "__main__":
    main()
