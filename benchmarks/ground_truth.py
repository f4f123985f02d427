"""Ground-truth time per state: median and p99 per game, over states from random play.

Usage: python benchmarks/ground_truth.py [--playouts 200]

States come from seeded random play-outs; each is timed once for its acting player,
with the engines' move caches cleared first so every timing is cold. Aim: median < 1 ms.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, percentile, table  # noqa: E402
from playouts import cold_caches  # noqa: E402

from langgraph_games.games import GameSession, list_games, make  # noqa: E402


def states_of(game_id: str, playouts: int) -> list[GameSession]:
    game = make(game_id)
    rng = random.Random(7)
    sessions = []
    for seed in range(playouts):
        session = GameSession(game, seed=seed)
        while not session.done:
            sessions.append(session.copy())
            session.step({p: rng.choice(session.legal_actions(p)) for p in session.current_players})
    return sessions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=200, help="random games per game id")
    args = parser.parse_args()
    rows = []
    for info in list_games():
        if not info.subproblems:
            continue
        sessions = states_of(info.id, args.playouts)
        timings = []
        for session in sessions:
            cold_caches()
            player = session.current_players[0]
            start = time.perf_counter()
            session.game.ground_truth(session.state, player)
            timings.append(time.perf_counter() - start)
        rows.append(
            [
                info.id,
                len(timings),
                f"{median(timings) * 1e3:.3f}",
                f"{percentile(timings, 99) * 1e3:.3f}",
                f"{max(timings) * 1e3:.3f}",
            ]
        )
    print(f"Ground truth per state, cold caches ({machine()})\n")
    print(table(["game", "states", "median ms", "p99 ms", "max ms"], rows))


if __name__ == "__main__":
    main()
