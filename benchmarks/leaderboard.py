"""The leaderboard's cost: ratings and bootstrap intervals against the report's arena table.

Usage: python benchmarks/leaderboard.py [--matches 100 1000] [--bootstrap 200]

For a results file of N TicTacToe match records between four players (random play, so
every record carries a full trajectory), the time of the report's arena table
(``summarize``: one scoring pass, the baseline) and of ``build_leaderboard`` with no
bootstrap (the point ratings, averaged over 100 orderings) and with B replicates; the
time per replicate and the ratio to the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.eval.ratings.leaderboard import RatingSettings, build_leaderboard
from langgraph_games.eval.ratings.matches import load_matches
from langgraph_games.eval.running.arena import summarize
from langgraph_games.games import make
from langgraph_games.graphs import run_episode
from langgraph_games.players import make_player

PLAYERS = ("alpha", "beta", "gamma", "delta")


def _file(folder: Path, matches: int) -> Path:
    game = make("tictactoe")
    lines = []
    for i in range(matches):
        players = [make_player("random", seed=2 * i), make_player("random", seed=2 * i + 1)]
        episode = asyncio.run(run_episode(game, players, seed=i))
        a, b = PLAYERS[i % 4], PLAYERS[(i // 4 + 1 + i) % 4]
        if a == b:
            b = PLAYERS[(PLAYERS.index(a) + 1) % 4]
        record = {"kind": "match", "match_id": f"m{i}", "game": game.versioned_id,
                  "seats": [a, b], "status": "finished", **episode}  # fmt: skip
        lines.append(json.dumps(record))
    path = folder / f"arena-{matches}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--bootstrap", type=int, default=200)
    args = parser.parse_args()
    print(f"leaderboard ({machine()}), {args.bootstrap} bootstrap replicates\n")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in args.matches:
            path = _file(Path(folder), n)
            found = load_matches([path])
            baseline = _timed(lambda path=path: summarize(path))
            point = _timed(lambda f=found: build_leaderboard(f, RatingSettings(bootstrap=0)))
            full = _timed(
                lambda f=found: build_leaderboard(f, RatingSettings(bootstrap=args.bootstrap))
            )
            per_replicate = (full - point) / args.bootstrap
            rows.append(
                [
                    n,
                    f"{baseline:.3f}",
                    f"{point:.3f}",
                    f"{full:.2f}",
                    f"{1000 * per_replicate:.1f}",
                    f"{per_replicate / baseline:.2f}x",
                    f"{point + 1000 * per_replicate:.1f}",
                ]
            )
    print(
        table(
            [
                "matches",
                "report table s",
                "point ratings s",
                f"B={args.bootstrap} s",
                "ms/replicate",
                "replicate vs table",
                "B=1000 s (est.)",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
