"""``langgraph-games smartplay --agent SPEC``: the SmartPlay benchmark, printed as Table 2."""

from __future__ import annotations

import argparse

from langgraph_games.cli import interrupted
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import (
    MAX_EPISODES,
    Bounds,
    add_episode_flags,
    add_model_flags,
    add_prices_flag,
    check_numbers,
    model_settings,
    print_costs,
)
from langgraph_games.cli._paths import output_dir
from langgraph_games.cli._players import PLAYER_SPEC_HELP, players_epilog
from langgraph_games.eval.protocols.smartplay import (
    MINECRAFT_OFFLINE,
    SUITE,
    resolve_history,
    resolve_settings,
    run_smartplay,
    smartplay_specs,
)
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.players.registry import complete_model

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``smartplay`` sub-command."""
    parser = add_command(
        sub,
        "smartplay",
        description="Play the SmartPlay settings (Bandit, RPS, Hanoi, MessengerL1, "
        "MessengerL2, Crafter) with each agent and print the human-normalised scores "
        "(Table 2), the capability scores and the raw scores. " + MINECRAFT_OFFLINE + ".",
        epilog=players_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--agent",
        "--agents",
        dest="agents",
        action="extend",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="agents, one row each: smartplay:local, smartplay:openai:<model>, "
        f"smartplay:question=paper:..., random ... (repeatable); {PLAYER_SPEC_HELP}",
    )
    parser.add_argument(
        "--model", default=None, help="model spec for LLM agents given without one (e.g. local)"
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=None,
        metavar="SETTING",
        help=f"settings to play (default all runnable: {' '.join(SUITE)}); game ids "
        "work too (messenger = both levels); Minecraft cannot run offline",
    )
    parser.add_argument(
        "--episodes",
        type=int,
        default=None,
        help="episodes per setting (default the paper's: Bandit/RPS 20, Hanoi 10, "
        "Messenger 100, Crafter 10)",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--crafter-steps",
        type=int,
        default=None,
        help="Crafter episode length (default 10000 as released; another length is "
        "reported in its own column, without a normalised score)",
    )
    parser.add_argument(
        "--weighting",
        choices=["code", "paper"],
        default="code",
        help="capability weights: level - 1 as released (code, default) or level (paper)",
    )
    parser.add_argument(
        "--history",
        action="append",
        default=[],
        metavar="[SETTING=]N",
        help="history window of the smartplay agents: N for every setting, SETTING=N for "
        "one (repeatable). Default each game's: Bandit 50, RPS 50, Hanoi 5, Messenger 2 "
        "(released) and Crafter 5 (paper Table 1; the released Crafter code showed 2: "
        "--history crafter=2)",
    )
    parser.add_argument("--concurrency", type=int, default=4, help="episodes at once")
    parser.add_argument("--out", default="runs", help="folder for results (default runs/)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    add_episode_flags(parser)
    add_model_flags(parser)
    add_prices_flag(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run or resume every setting for every agent and print the SmartPlay tables."""
    check_numbers(args, {"episodes": Bounds(1, MAX_EPISODES), "crafter_steps": Bounds(1)})
    output_dir("--out", args.out)
    settings = resolve_settings(args.games)
    # --model completes LLM strategies given without a model, e.g. smartplay
    agents = [complete_model(agent, args.model) for agent in args.agents]
    specs = smartplay_specs(
        agents,
        settings,
        episodes=args.episodes,
        seed=args.seed,
        crafter_steps=args.crafter_steps,
        episode=EpisodeOptions(
            max_retries=args.max_retries, fallback=args.fallback, max_steps=args.max_steps
        ),
        model=model_settings(args),
        concurrency=args.concurrency,
        history=resolve_history(args.history, settings),
    )
    try:
        report = run_loop(
            run_smartplay(specs, args.out, progress=not args.quiet, weighting=args.weighting)
        )
    except KeyboardInterrupt:
        return interrupted("finished episodes are saved")
    print(report.summary.text)
    print_costs(report.results_paths, args)
    for note in report.summary.notes:
        print(f"note: {note}")
    print(
        f"results: {len(report.results_paths)} files in {args.out} ({report.played} episodes "
        f"played now, {report.skipped} already done, {report.errors} errors)"
    )
    return 0 if report.errors == 0 else 1
