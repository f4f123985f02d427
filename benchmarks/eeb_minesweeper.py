"""EvoEmpirBench maze and Match-2, Minesweeper: steps per second, solver and generator times.

Usage: python benchmarks/eeb_minesweeper.py [--seconds 1] [--boards 300]

1. Steps per second per game through the pure rules (``legal_actions`` + validated
   ``apply``, uniformly random legal actions) and through each game's search player
   (decision + step), which is what an evaluation without a model costs.
2. Minesweeper solver time per board: boards taken from seeded games played by the solver
   itself (every decision point), from the paper's 9x9 boards up to expert 16x30; the share
   of boards solved exactly (no frontier component over the search budget) is shown.
3. Generator time per maze map and per Match-2 level.

There is no reference engine for these games, so no ratio to one; the players' column
is shown as a fraction of the random-play rate in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, percentile, rate, table  # noqa: E402

from langgraph_games.games import GameSession, make  # noqa: E402
from langgraph_games.games.match2.levels import generate_level  # noqa: E402
from langgraph_games.games.maze.generator import DEFAULT_SIZES, generate_map  # noqa: E402
from langgraph_games.games.minesweeper.truth import analyse  # noqa: E402
from langgraph_games.games.state import derive_rng  # noqa: E402
from langgraph_games.players import (  # noqa: E402
    Match2Greedy,
    MazeExplorer,
    MinesweeperSolver,
    request_for,
)

GAMES = [
    ("maze level 1", "maze", {"level": 1}, MazeExplorer),
    ("maze level 2", "maze", {"level": 2}, MazeExplorer),
    ("maze level 3", "maze", {"level": 3}, MazeExplorer),
    ("match2 easy", "match2", {"difficulty": "easy"}, Match2Greedy),
    ("match2 hard", "match2", {"difficulty": "hard"}, Match2Greedy),
    ("minesweeper 9x9/3", "minesweeper", {"mines": 3}, MinesweeperSolver),
    (
        "minesweeper 16x16/40",
        "minesweeper",
        {"rows": 16, "cols": 16, "mines": 40, "max_steps": None, "invalid_moves": "reject"},
        MinesweeperSolver,
    ),
]

BOARDS = [(9, 9, 3), (9, 9, 10), (16, 16, 40), (16, 30, 99)]


def random_steps(game_id: str, options: dict):
    game = make(game_id, **options)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one() -> int:
        state = game.initial_state(next(seeds))
        steps = 0
        while game.current_players(state):
            state, _ = game.apply(state, {0: rng.choice(game.legal_actions(state, 0))})
            steps += 1
        return steps

    return one


def player_steps(game_id: str, options: dict, factory):
    game = make(game_id, **options)
    player = factory()
    seeds = iter(range(10**9))

    def one() -> int:
        session = GameSession(game, seed=next(seeds))
        while not session.done:
            session.step(player.decide(request_for(session)).action)
        return len(session.actions)

    return one


def solver_boards(rows: int, cols: int, mines: int, count: int) -> list[str]:
    game = make("minesweeper", rows=rows, cols=cols, mines=mines, max_steps=None)
    player = MinesweeperSolver()
    views: list[str] = []
    seed = 0
    while len(views) < count:
        session = GameSession(game, seed=seed)
        seed += 1
        while not session.done and len(views) < count:
            views.append(session.state.view)
            session.step(player.decide(request_for(session)).action)
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--boards", type=int, default=300, help="solver boards per size")
    args = parser.parse_args()
    print(f"{machine()}\n")

    rows = []
    for label, game_id, options, factory in GAMES:
        pure = rate(random_steps(game_id, options), args.seconds)
        played = rate(player_steps(game_id, options, factory), args.seconds)
        rows.append([label, f"{pure:,.0f}", f"{played:,.0f}", f"{played / pure:.2f}"])
    print(f"Steps per second ({args.seconds:g} s per cell)")
    print(table(["game", "random (rules)", "search player", "player/random"], rows))

    rows = []
    for r, c, m in BOARDS:
        views = solver_boards(r, c, m, args.boards)
        times, exact = [], 0
        for view in views:
            start = time.perf_counter()
            result = analyse(view, r, c, m)
            times.append((time.perf_counter() - start) * 1000)
            exact += result.exact
        rows.append(
            [
                f"{r}x{c}, {m} mines",
                len(views),
                f"{median(times):.3f}",
                f"{percentile(times, 99):.3f}",
                f"{max(times):.2f}",
                f"{100 * exact / len(views):.1f}%",
            ]
        )
    print("\nMinesweeper solver time per board (ms)")
    print(table(["board", "boards", "median", "p99", "max", "exact"], rows))

    rows = []
    for level, size in DEFAULT_SIZES.items():
        n = 200
        start = time.perf_counter()
        for i in range(n):
            generate_map(derive_rng("bench", level, i), size, level)
        rows.append(
            [
                f"maze level {level} ({size}x{size})",
                f"{(time.perf_counter() - start) / n * 1000:.3f}",
            ]
        )
    for difficulty in ("easy", "medium", "hard"):
        n = 200
        start = time.perf_counter()
        for i in range(n):
            generate_level(derive_rng("bench", difficulty, i), difficulty)
        rows.append([f"match2 {difficulty}", f"{(time.perf_counter() - start) / n * 1000:.3f}"])
    print("\nGenerator time per map or level (ms)")
    print(table(["generator", "ms"], rows))


if __name__ == "__main__":
    main()
