"""``langgraph-games leaderboard RESULTS...``: ratings with intervals, per game and overall."""

from __future__ import annotations

import argparse
from pathlib import Path

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import add_scoring_flags, check_numbers, scoring_of
from langgraph_games.cli._paths import results_files
from langgraph_games.cli._progress import progress_bar, stage
from langgraph_games.eval.ratings.leaderboard import RatingSettings, build_leaderboard
from langgraph_games.eval.ratings.matches import load_matches
from langgraph_games.eval.ratings.render import leaderboard_markdown, write_leaderboard
from langgraph_games.eval.ratings.systems import SKILL_MODELS

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``leaderboard`` sub-command."""
    parser = add_command(
        sub,
        "leaderboard",
        description="Rate the players of two-seat matches in results files: Elo and "
        "openskill ratings, O, I and win rates with bootstrap intervals, per game and "
        "overall, and how many more matches each pair needs to be told apart.",
    )
    parser.add_argument(
        "results",
        nargs="*",
        help=".jsonl results files written by arena (or eval), or folders holding them",
    )
    parser.add_argument("--game", default=None, help="only this game (e.g. tictactoe)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap replicates for the intervals (default 1000; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of orderings and resampling")
    parser.add_argument(
        "--min-matches",
        type=int,
        default=10,
        metavar="N",
        help="a player with fewer matches on a board is marked provisional (*) (default 10)",
    )
    parser.add_argument(
        "--skill-model",
        default="bradley_terry",
        choices=sorted(SKILL_MODELS),
        help="openskill model (default bradley_terry)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="folder for leaderboard.md, .json and .png (default: leaderboard/ beside "
        "the first results file)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_scoring_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the boards and what was left out; write them with the plot."""
    check_numbers(args)  # --bootstrap is checked by RatingSettings, in one line too
    settings = RatingSettings(
        bootstrap=args.bootstrap,
        seed=args.seed,
        skill_model=args.skill_model,
        scoring=scoring_of(args),
        min_matches=args.min_matches,
    )
    paths = results_files(args.results)
    with stage(f"reading {len(paths)} file(s)", enabled=not args.quiet):
        found = load_matches(paths, game=args.game)
    with progress_bar("bootstrap", settings.bootstrap, "rep", enabled=not args.quiet) as tick:
        leaderboard = build_leaderboard(found, settings, on_replicate=tick)
    out = Path(args.out) if args.out else paths[0].parent / "leaderboard"
    with stage(f"writing {out}", enabled=not args.quiet):
        written = write_leaderboard(leaderboard, out)
    print(leaderboard_markdown(leaderboard))
    print(f"wrote {written.markdown}")
    print(f"wrote {written.json}")
    if written.plot is not None:
        print(f"wrote {written.plot}")
    if written.plot_skipped:
        print(written.plot_skipped)
    return 0
