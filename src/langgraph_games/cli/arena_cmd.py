"""``langgraph-games arena GAME --players A B ...``: a round-robin with the paper's metrics.

By default the game's paper protocol sets the matches per pair, the re-asks and the token
limit (GAMEBoT: 20 matches, no re-asks, 4096 output tokens); a flag given explicitly wins,
and the table header and the manifest say which settings differ from the paper's.
``--protocol none`` gives the former defaults (10 matches, 2 re-asks, no token limit),
so a results file written with them keeps resuming.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from langgraph_games.cli import interrupted
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._game_options import OPTION_HELP, game_options_epilog
from langgraph_games.cli._options import (
    MAX_MATCHES,
    Bounds,
    add_episode_flags,
    add_model_flags,
    add_prices_flag,
    add_reader_flag,
    add_scoring_flags,
    add_worker_flags,
    check_numbers,
    execution_of,
    model_settings,
    parse_options,
    print_costs,
    scoring_of,
    with_reader,
)
from langgraph_games.cli._paths import output_dir
from langgraph_games.cli._players import PLAYER_SPEC_HELP, players_epilog
from langgraph_games.eval.protocols.plans import plan_arena
from langgraph_games.eval.running.arena import check_labels, run_arena
from langgraph_games.eval.running.event_loop import run as run_loop

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``arena`` sub-command."""
    parser = add_command(
        sub,
        "arena",
        epilog=players_epilog() + "\n\n" + game_options_epilog(),
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
        "--label",
        action="append",
        metavar="NAME=SPEC",
        help="name the player SPEC (as given to --players) NAME in results, tables and "
        "leaderboards; the manifest keeps the full spec (repeatable; a renamed player "
        "starts a new results file)",
    )
    parser.add_argument(
        "--protocol",
        choices=["paper", "none"],
        default="paper",
        help="paper (default): the game's paper protocol fills in --matches, "
        "--max-retries and --max-tokens when they are not given (GAMEBoT: 20 matches, "
        "no re-asks, 4096 output tokens); none: the former defaults (10 matches, 2 "
        "re-asks, no token limit), which resume results files written with them",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        help="matches per pair, at most "
        f"{MAX_MATCHES:,} (default: the paper protocol's, GAMEBoT's 20; else 10)",
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
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help=OPTION_HELP)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_episode_flags(parser, max_retries=None)
    add_worker_flags(parser)
    add_model_flags(parser)
    add_prices_flag(parser)
    add_scoring_flags(parser)
    add_reader_flag(parser)
    parser.set_defaults(run=run)


BOUNDS = {"matches": Bounds(1, MAX_MATCHES)}
"""The arena's own number options (beside the shared ones)."""


def parse_labels(
    items: Sequence[str], specs: Mapping[str, str], *, baseline: bool = True
) -> dict[str, str]:
    """``--label NAME=SPEC`` items as ``{name: spec}``, checked in one line each.

    Args:
        items: The flag's values.
        specs: ``{spec as given to --players: the spec the arena plays}`` (they differ
            where ``--reader`` added a setting).
        baseline: ``random`` joins the players (``--no-baseline`` not given).

    Raises:
        ValueError: An item without ``=``, an empty name, a name given twice, or (from
            :func:`check_labels`) a spec that is not a player.

    Example:
        >>> parse_labels(["mm=minimax:depth=2"], {"minimax:depth=2": "minimax:depth=2"})
        {'mm': 'minimax:depth=2'}
    """
    labels: dict[str, str] = {}
    for item in items:
        name, sep, spec = item.partition("=")
        if not sep:
            raise ValueError(
                f"--label {item!r}: expected NAME=SPEC, e.g. --label gpt=gamebot:openai:gpt-4o"
            )
        if name in labels:
            raise ValueError(f"--label {item}: the name {name!r} is given twice")
        labels[name] = specs.get(spec, spec)
    check_labels(labels, [*specs.values(), *(["random"] if baseline else [])])
    return labels


def run(args: argparse.Namespace) -> int:
    """Run or resume the arena and print its tables."""
    check_numbers(args, BOUNDS)
    output_dir("--out", args.out)
    given = list(args.players)
    args.players = with_reader(args.players, args.reader)
    labels = parse_labels(
        args.label or [],
        dict(zip(given, args.players, strict=True)),
        baseline=not args.no_baseline,
    )
    spec = plan_arena(
        args.game,
        args.players,
        protocol=args.protocol,
        matches=args.matches,
        max_retries=args.max_retries,
        fallback=args.fallback,
        max_steps=args.max_steps,
        model=model_settings(args),
        options=parse_options(args.option),
        seed=args.seed,
        swap_seats=not args.no_swap,
        seeding=args.seeding,
        baseline=not args.no_baseline,
        concurrency=args.concurrency,
        labels=labels,
        **execution_of(args),
    )
    try:
        report = run_loop(
            run_arena(spec, args.out, progress=not args.quiet, scoring=scoring_of(args))
        )
    except KeyboardInterrupt:
        return interrupted("finished matches are saved")
    print(report.markdown)
    print_costs([report.results_path], args)
    print(
        f"results: {report.results_path} ({report.played} played now, {report.skipped} "
        f"already done, {report.errors} errors)"
    )
    print(f"summary: {report.summary_path} and {report.csv_path}")
    return 0 if report.errors == 0 else 1
