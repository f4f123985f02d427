"""Replay pages and reports: time and size per step, and report time over many records.

Usage: python benchmarks/replay_report.py [--records 1000]

For one played episode per game family, the time to build its replay page (states
rebuilt, every state drawn, decisions gathered, HTML written) against the baseline of
only rebuilding the session from its record (``GameSession.from_dict``), and the page
size per step. Then the time ``build_report`` takes over a results file of N match
records (the arena summary path), per 1,000 records.
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
from langgraph_games.eval.reports.replay import build_replay, render_page
from langgraph_games.eval.reports.report import build_report
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import run_episode
from langgraph_games.players import make_player

GAMES = (
    ("tictactoe", {}, "minimax"),
    ("checkers", {}, "random"),
    ("maze", {"level": 3}, "maze_explorer"),
    ("minesweeper", {"rows": 16, "cols": 16, "mines": 40}, "minesweeper_solver"),
    ("crafter", {"length": 300}, "random"),
)


def _episode(game_id: str, options: dict[str, object], spec: str) -> dict[str, object]:
    game = make(game_id, **options)
    players = [make_player(spec, seed=i) for i in range(game.num_players)]
    episode = asyncio.run(run_episode(game, players, seed=1))
    return {
        "kind": "episode",
        "episode_id": game_id,
        "game": game.versioned_id,
        "seats": [spec] * game.num_players,
        "status": "finished",
        **episode,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1000)
    args = parser.parse_args()
    print(f"replay pages and reports ({machine()})\n")
    rows = []
    render_page(build_replay(_episode("tictactoe", {}, "random")))  # imports, assets: warm up
    for game_id, options, spec in GAMES:
        record = _episode(game_id, options, spec)
        result = record["result"]
        assert isinstance(result, dict)
        start = time.perf_counter()
        session = GameSession.from_dict(result["record"])
        baseline = time.perf_counter() - start
        start = time.perf_counter()
        page = render_page(build_replay(record))
        took = time.perf_counter() - start
        steps = len(session.states)
        rows.append(
            [
                game_id,
                steps,
                f"{1000 * took / steps:.2f}",
                f"{took / baseline:.1f}x",
                f"{len(page.encode()) / steps / 1024:.1f}",
            ]
        )
    print(table(["game", "frames", "ms/frame", "vs from_dict", "KiB/frame"], rows))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "arena.jsonl"
        record = _episode("tictactoe", {}, "random")
        lines = []
        for i in range(args.records):
            lines.append(json.dumps({**record, "kind": "match", "match_id": f"m{i}",
                                     "seats": ["a", "b"] if i % 2 else ["b", "a"]}))  # fmt: skip
        path.write_text("\n".join(lines) + "\n")
        start = time.perf_counter()
        report = build_report([path])
        took = time.perf_counter() - start
    assert not report.empty
    print(f"\nbuild_report over {args.records} match records: {took:.2f} s "
          f"({1000 * took / args.records:.2f} s per 1,000)")  # fmt: skip


if __name__ == "__main__":
    main()
