"""EvoEmpirBench maze and Match-2, Minesweeper: steps per second, solver and generator times.

Usage: python benchmarks/eeb_minesweeper.py [--seconds 1] [--boards 300]

1. Steps per second per game through the pure rules (``legal_actions`` + validated
   ``apply``, uniformly random legal actions) and through each game's search player
   (decision + step), which is what an evaluation without a model costs.
2. Minesweeper solver time per board: boards taken from seeded games played by the solver
   itself (every decision point), from the paper's 9x9 boards up to expert 16x30; the share
   of boards solved exactly (no frontier component over the search budget) is shown.
3. Generator time per maze map and per Match-2 level.
4. The prompt agents' cost per decision with a model that answers instantly: the bare
   scripted call (baseline, same run), then one decision through the EvoEmpirBench graph
   (maze, Match-2) and the Minesweeper Agent graph (+Memory, and ``variant=cells`` which also
   scores its reported cells against the solver); overhead = decision - bare call.

There is no reference engine for these games, so no ratio to one; the players' column
is shown as a fraction of the random-play rate in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, percentile, rate, table
from langgraph_games.games import GameSession, make
from langgraph_games.games.match2.levels import generate_level
from langgraph_games.games.maze.generator import DEFAULT_SIZES, generate_map
from langgraph_games.games.minesweeper.truth import analyse
from langgraph_games.games.state import derive_rng
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.eeb.graph import create_eeb_agent
from langgraph_games.graphs.minesweeper.graph import (
    MS_STRATEGIES,
    create_minesweeper_agent,
)
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
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
    main_agents(args.seconds)


AGENTS = [
    ("eeb maze level 3", "maze", {"level": 3}, "Thinking. Action: 9", None),
    (
        "eeb match2 easy",
        "match2",
        {},
        '```json\n{"action": {"type": "hammer", "pos": [0, 0]}}\n```',
        None,
    ),
    ("minesweeper +Memory", "minesweeper", {}, "r,0,0", "memory"),
    (
        "minesweeper variant=cells",
        "minesweeper",
        {},
        "[Intermediate Thinking Results 1: (0,0)]\n[Intermediate Thinking Results 2: None]\nr,0,0",
        "cells",
    ),
]


async def _per_call(fn, seconds: float) -> float:
    await fn()  # warm-up
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        await fn()
        calls += 1
    return (time.perf_counter() - start) / calls * 1000


async def agent_costs(seconds: float) -> list[list[str]]:
    rows = []
    for label, game_id, options, reply, strategy in AGENTS:
        session = GameSession(make(game_id, **options), seed=1)
        model = ScriptedChatModel(responses=[reply])
        if strategy is None:
            graph = create_eeb_agent(model, session.game)
        else:
            graph = create_minesweeper_agent(model, variant=MS_STRATEGIES[strategy])
        data = request_to_input(request_for(session))
        await graph.ainvoke(data)
        prompt = model.calls[-1]
        bare = await _per_call(lambda m=model, p=prompt: m.ainvoke(p), seconds)
        decision = await _per_call(lambda g=graph, d=data: g.ainvoke(d), seconds)
        rows.append([label, f"{bare:.3f}", f"{decision:.3f}", f"{decision - bare:.3f}"])
    return rows


def main_agents(seconds: float) -> None:
    print("\nPrompt agents: ms per decision with an instant scripted model")
    rows = asyncio.run(agent_costs(seconds))
    print(table(["agent", "bare call", "decision", "overhead"], rows))


if __name__ == "__main__":
    main()
