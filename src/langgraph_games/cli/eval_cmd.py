"""``langgraph-games eval GAME --agent SPEC``: one agent over many episodes, paper metrics."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from langgraph_games.cli._options import (
    add_episode_flags,
    add_model_flags,
    model_settings,
    parse_options,
)
from langgraph_games.eval.runner import EvalSpec, run_eval
from langgraph_games.graphs.episode import EpisodeOptions

__all__ = ["add_parser", "parse_sweep", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``eval`` sub-command."""
    parser = sub.add_parser(
        "eval", help="evaluate one agent over many episodes with the game's paper metrics"
    )
    parser.add_argument("game", help="game id, e.g. maze, minesweeper, crafter, bandit")
    parser.add_argument(
        "--agent",
        "--player",
        dest="agent",
        required=True,
        metavar="SPEC",
        help="the evaluated player: an LLM strategy (gamebot:local, ...) or "
        "a search player (maze_explorer, minesweeper_solver, random ...)",
    )
    parser.add_argument(
        "--model", default=None, help="model spec for an LLM agent given without one (e.g. local)"
    )
    parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="SPEC",
        help="player of the next seat (repeat for more seats)",
    )
    parser.add_argument(
        "--episodes",
        type=int,
        default=None,
        help="episodes per swept combination (default 1, or 10 unswept)",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="KEY=VALUES",
        help="sweep an option: map_index=1..30 or variant=a,b (repeatable)",
    )
    parser.add_argument(
        "--level",
        default=None,
        help="shorthand for --option level=LEVEL (maze 1-3, match2 easy/...)",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=None,
        help="stop each episode after N moves (same as --max-steps)",
    )
    parser.add_argument("--label", default=None, help="row label in the table")
    parser.add_argument("--concurrency", type=int, default=4, help="episodes at once")
    parser.add_argument("--out", default="runs", help="folder for results (default runs/)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_episode_flags(parser)
    add_model_flags(parser)
    parser.set_defaults(run=run)


def parse_sweep(items: list[str]) -> dict[str, list[Any]]:
    """``["map_index=1..3", "variant=a,b"]`` -> ``{"map_index": [1, 2, 3], ...}``.

    Raises:
        ValueError: An item is not ``key=values`` or a range is malformed.
    """
    sweep: dict[str, list[Any]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise ValueError(f"sweep {item!r} is not key=values (e.g. map_index=1..30)")
        if ".." in values:
            low, _, high = values.partition("..")
            try:
                sweep[key.strip()] = list(range(int(low), int(high) + 1))
            except ValueError as exc:
                raise ValueError(f"sweep {item!r}: a range is low..high integers") from exc
            continue
        parsed = []
        for value in values.split(","):
            try:
                parsed.append(json.loads(value))
            except json.JSONDecodeError:
                parsed.append(value.strip())
        sweep[key.strip()] = parsed
    return sweep


def run(args: argparse.Namespace) -> int:
    """Run or resume the evaluation and print the paper's table."""
    options = parse_options(args.option)
    if args.level is not None:
        options["level"] = parse_options([f"level={args.level}"])["level"]
    agent = args.agent
    if args.model and ":" not in agent:
        agent = f"{agent}:{args.model}"
    sweep = parse_sweep(args.sweep)
    repeats = args.episodes if args.episodes is not None else (1 if sweep else 10)
    spec = EvalSpec(
        game=args.game,
        options=options,
        agent=agent,
        opponents=args.opponent,
        sweep=sweep,
        repeats=repeats,
        seed=args.seed,
        label=args.label,
        concurrency=args.concurrency,
        episode=EpisodeOptions(
            max_retries=args.max_retries,
            fallback=args.fallback,
            max_steps=args.steps or args.max_steps,
        ),
        model=model_settings(args),
    )
    try:
        report = asyncio.run(run_eval(spec, args.out, progress=not args.quiet))
    except KeyboardInterrupt:
        print("\ninterrupted: finished episodes are saved; rerun the same command to resume")
        return 130
    print(report.table)
    print(
        f"results: {report.results_path} ({report.played} played now, {report.skipped} "
        f"already done, {report.errors} errors)"
    )
    return 0 if report.errors == 0 else 1
