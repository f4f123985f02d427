"""``langgraph-games arena GAME --players A B ...``: a round-robin with the paper's metrics."""

from __future__ import annotations

import argparse
from typing import Any

from langgraph_games.cli import interrupted
from langgraph_games.cli._commands import add_command
from langgraph_games.cli._options import (
    MAX_MATCHES,
    Bounds,
    add_episode_flags,
    add_model_flags,
    add_scoring_flags,
    add_worker_flags,
    check_numbers,
    execution_of,
    model_settings,
    parse_options,
    scoring_of,
)
from langgraph_games.cli._paths import output_dir
from langgraph_games.cli._players import PLAYER_SPEC_HELP, players_epilog
from langgraph_games.eval.running.arena import ArenaSpec, run_arena
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.graphs.episode.options import EpisodeOptions

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``arena`` sub-command."""
    parser = add_command(
        sub,
        "arena",
        epilog=players_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="a two-player game id, e.g. tictactoe")
    parser.add_argument(
        "--players",
        nargs="+",
        required=True,
        metavar="SPEC",
        help=f"player specs: {PLAYER_SPEC_HELP}",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=10,
        help=f"matches per pair (default 10, at most {MAX_MATCHES:,})",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=4,
        help="matches at once (default 4)",
    )
    parser.add_argument("--no-swap", action="store_true", help="keep the same first player")
    parser.add_argument(
        "--seeding",
        choices=["mirrored", "per_match"],
        default="mirrored",
        help="mirrored (default): a pair's two seatings play the same seed, so both players "
        "get the same deals from both seats; per_match: every match its own seed",
    )
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="do not add the random player as the baseline row",
    )
    parser.add_argument("--out", default="runs", help="folder for results (default runs/)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_episode_flags(parser)
    add_worker_flags(parser)
    add_model_flags(parser)
    add_scoring_flags(parser)
    parser.set_defaults(run=run)


BOUNDS = {"matches": Bounds(1, MAX_MATCHES)}
"""The arena's own number options (beside the shared ones)."""


def run(args: argparse.Namespace) -> int:
    """Run or resume the arena and print its tables."""
    check_numbers(args, BOUNDS)
    output_dir("--out", args.out)
    spec = ArenaSpec(
        game=args.game,
        options=parse_options(args.option),
        players=args.players,
        matches=args.matches,
        seed=args.seed,
        swap_seats=not args.no_swap,
        seeding=args.seeding,
        baseline=not args.no_baseline,
        concurrency=args.concurrency,
        **execution_of(args),
        episode=EpisodeOptions(
            max_retries=args.max_retries, fallback=args.fallback, max_steps=args.max_steps
        ),
        model=model_settings(args),
    )
    try:
        report = run_loop(
            run_arena(spec, args.out, progress=not args.quiet, scoring=scoring_of(args))
        )
    except KeyboardInterrupt:
        return interrupted("finished matches are saved")
    print(report.markdown)
    print(
        f"results: {report.results_path} ({report.played} played now, {report.skipped} "
        f"already done, {report.errors} errors)"
    )
    print(f"summary: {report.summary_path} and {report.csv_path}")
    return 0 if report.errors == 0 else 1
