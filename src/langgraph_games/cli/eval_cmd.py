"""``langgraph-games eval GAME --agent SPEC``: one agent over many episodes, paper metrics.

For the maze, Match-2 and Minesweeper the defaults are the papers' protocols (see
:mod:`langgraph_games.eval.protocols`): ``eval maze --level 2 --player eeb:local`` plays
the 30 evaluation maps of level 2. ``--ablation`` runs the paper's ablation and prints
its table: Minesweeper's Table 1 (every prompt variant of ``--model``, by mine count),
the maze's and Match-2's Table 7 (``EEB`` against ``Full-Vision`` / ``NoProps``).
"""

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
from langgraph_games.eval.protocols import plan_ablation, plan_eval, protocol_for, run_specs
from langgraph_games.eval.runner import EvalSpec

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
        default=None,
        metavar="SPEC",
        help="the evaluated player: an LLM strategy (gamebot:local, eeb:local, "
        "ms_memory:local ...) or a search player (maze_explorer, minesweeper_solver, ...)",
    )
    parser.add_argument(
        "--ablation",
        action="store_true",
        help="run the paper's ablation: minesweeper Table 1 (all prompt variants of "
        "--model), maze/match2 Table 7 (EEB vs Full-Vision / NoProps for --player)",
    )
    parser.add_argument(
        "--model",
        default=None,
        help="model spec for an LLM agent given without one (e.g. local), and the model "
        "of the minesweeper --ablation (default local)",
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
        help="episodes per swept combination (default: the paper's protocol; "
        "otherwise 1, or 10 unswept)",
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
        help="maze level 1-3, match2 difficulty easy/medium/hard (default: all of them), "
        "else --option level=LEVEL",
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
    add_episode_flags(parser, max_retries=None)
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


def _specs(args: argparse.Namespace) -> list[EvalSpec]:
    options = parse_options(args.option)
    level = None if args.level is None else parse_options([f"level={args.level}"])["level"]
    plan: dict[str, Any] = {
        "options": options,
        "sweep": parse_sweep(args.sweep),
        "level": level,
        "episodes": args.episodes,
        "max_retries": args.max_retries,
        "fallback": args.fallback,
        "max_steps": args.steps or args.max_steps,
        "opponents": args.opponent,
        "seed": args.seed,
        "concurrency": args.concurrency,
        "model": model_settings(args),
    }
    if args.ablation:
        protocol = protocol_for(args.game)
        if protocol is not None and protocol.ablation_takes_model:
            if args.agent:
                raise ValueError(
                    f"the {args.game} ablation runs every prompt variant; give the model "
                    "with --model (e.g. --model local), not --player"
                )
            return plan_ablation(args.game, args.model or "local", **plan)
        if not args.agent:
            raise ValueError(f"the {args.game} ablation needs the evaluated --player")
        return plan_ablation(args.game, _agent(args), **plan)
    if not args.agent:
        raise ValueError("give the evaluated player with --player SPEC (or use --ablation)")
    return [plan_eval(args.game, _agent(args), label=args.label, **plan)]


def _agent(args: argparse.Namespace) -> str:
    agent = str(args.agent)
    if args.model and ":" not in agent:
        agent = f"{agent}:{args.model}"
    return agent


def run(args: argparse.Namespace) -> int:
    """Run or resume the evaluation (or ablation) and print the paper's table."""
    specs = _specs(args)
    try:
        table, reports = asyncio.run(run_specs(specs, args.out, progress=not args.quiet))
    except KeyboardInterrupt:
        print("\ninterrupted: finished episodes are saved; rerun the same command to resume")
        return 130
    print(table)
    errors = 0
    for report in reports:
        errors += report.errors
        print(
            f"results: {report.results_path} ({report.played} played now, {report.skipped} "
            f"already done, {report.errors} errors)"
        )
    return 0 if errors == 0 else 1
