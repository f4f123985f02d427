"""``langgraph-games train GAME --rounds 4 --model local``: Agent-ExpVer training rounds.

GeoLink (``--player``, default the EvoEmpirBench agent) plays training maps with the current
truths; InsightForce reflects, the map is replayed with the experience, promoted
experiences go to TruthWeaver; after each round the test maps are played and the round is
reverted when the mean test score drops (paper eq. 6). Progress goes to stderr; at the end
the per-round table, the results file and the truth store are printed. Running the same
command again resumes (or extends, with more ``--rounds``) the same run.

Small defaults suit the embedded model: level 1 (maze) / easy (Match-2), 2 training maps
per round, 2 test maps, 20 steps per episode. The paper's sizes: ``--level 1 --level 2
--level 3 --train-maps 10 --test-maps 30 --max-steps 100`` (maze).
"""

from __future__ import annotations

import argparse
import sys

from langgraph_games._json import JsonValue
from langgraph_games.cli import interrupted
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._game_options import OPTION_HELP, game_options_epilog
from langgraph_games.cli._options import (
    Bounds,
    add_model_flags,
    add_prices_flag,
    add_worker_flags,
    check_numbers,
    execution_of,
    model_settings,
    parse_options,
    print_costs,
)
from langgraph_games.cli._paths import output_dir, output_file
from langgraph_games.cli._players import players_epilog
from langgraph_games.eval.protocols.plans import protocol_for
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.training import TrainSpec, describe_event, run_training
from langgraph_games.eval.running.training_workers import EpisodeFailedError
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.parts import ExpVerOptions
from langgraph_games.graphs.expver.records import ExpVerEvent
from langgraph_games.memory.stores import parse_store
from langgraph_games.memory.truth_weaver import WeaveMode
from langgraph_games.players.registry import complete_model

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``train`` sub-command."""
    parser = add_command(
        sub,
        "train",
        description="Agent-ExpVer training rounds on the maze or Match-2: GeoLink plays with "
        "the truths, InsightForce reflects, replays verify, TruthWeaver merges, rounds that "
        "lower the test score are reverted. Rerun the same command to resume.",
        epilog=players_epilog() + "\n\n" + game_options_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="game id: maze, match2 (or any scored one-player game)")
    parser.add_argument("--rounds", type=int, default=4, help="training rounds (default 4)")
    parser.add_argument("--model", default="local", help="model spec (default local)")
    parser.add_argument(
        "--player",
        default="eeb",
        metavar="STRATEGY",
        help="GeoLink's LLM strategy, with or without a model (default eeb); --model "
        "completes a spec that names none",
    )
    parser.add_argument(
        "--level",
        action="append",
        default=[],
        help="maze level 1-3 / match2 difficulty (repeatable; default 1 / easy)",
    )
    parser.add_argument(
        "--train-maps",
        type=int,
        default=2,
        help="training maps per level and round",
    )
    parser.add_argument(
        "--train-pool",
        type=int,
        default=None,
        help="training maps per level the rounds go through in turn (default all 10)",
    )
    parser.add_argument("--test-maps", type=int, default=2, help="test maps per level (default 2)")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=20,
        help="steps per episode (default 20; paper 100)",
    )
    parser.add_argument(
        "--max-retries",
        type=int,
        default=None,
        help="re-asks after an unusable answer (default: the game's paper protocol)",
    )
    parser.add_argument(
        "--mode",
        choices=[m.value for m in WeaveMode],
        default="merge",
        help="TruthWeaver: merge (default), rewrite (released code), append (no TruthWeaver)",
    )
    parser.add_argument(
        "--no-truthweaver",
        action="store_true",
        help="the paper's ablation: truths appended as they come (same as --mode append)",
    )
    parser.add_argument(
        "--duplicate-threshold",
        type=float,
        default=0.95,
        help="TruthWeaver's near-duplicate cosine similarity, > 0 and <= 1 (default 0.95)",
    )
    parser.add_argument(
        "--merge-threshold",
        type=float,
        default=0.65,
        help="TruthWeaver's merge cosine similarity, > 0 and <= 1 (default 0.65)",
    )
    parser.add_argument(
        "--promote",
        choices=["all", "summary"],
        default="all",
        help="promote the summary and every strength/weakness (default, released) or the "
        "summary only",
    )
    parser.add_argument(
        "--verbatim",
        action="store_true",
        help="promote items as written, also those that are not advice (released code; "
        "default: only advice becomes a truth)",
    )
    parser.add_argument(
        "--min-gain",
        type=float,
        default=0.0,
        help="a replay must beat the play's score by more than this (default 0)",
    )
    parser.add_argument(
        "--allow-failed-replay",
        action="store_true",
        help="promote on a higher score even when the replay does not succeed",
    )
    parser.add_argument(
        "--score-key",
        default="score",
        help="metric compared by promotion and evaluation (default score; maze "
        "custom_score = the released evaluation score)",
    )
    parser.add_argument("--no-revert", action="store_true", help="never revert a round")
    parser.add_argument(
        "--revert-retries",
        type=int,
        default=2,
        metavar="N",
        help="play the same maps again at most N times in a row after reverted rounds, "
        "then move on (default 2)",
    )
    parser.add_argument(
        "--revert-tolerance",
        type=float,
        default=0.0,
        help="revert when the mean test score drops by more than this (default 0)",
    )
    parser.add_argument(
        "--truth-limit",
        type=int,
        default=None,
        help="at most N truths in the prompt: the best supported, then the newest",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of map 1 (default 0)")
    parser.add_argument("--label", default=None, help="name of the run in tables")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=4,
        help="test episodes at once (default 4)",
    )
    parser.add_argument("--out", default="runs", help="folder for results (default runs/)")
    parser.add_argument(
        "--store",
        default=None,
        metavar="SPEC",
        help="truth store: a Chroma directory (default: under --out), sqlite:PATH, "
        "postgres://... (needs langgraph-checkpoint-postgres) or memory: (not kept)",
    )
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help=OPTION_HELP)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    add_worker_flags(parser)
    add_model_flags(parser)
    add_prices_flag(parser)
    parser.set_defaults(run=run)


def _levels(values: list[str]) -> list[JsonValue]:
    return [parse_options([f"v={v}"])["v"] for v in values]


def build_spec(args: argparse.Namespace) -> TrainSpec:
    """The :class:`TrainSpec` of the command line.

    Raises:
        ValueError: A flag is out of range or the player is not an LLM strategy.
    """
    player = complete_model(str(args.player), args.model)
    protocol = protocol_for(args.game)
    retries = args.max_retries
    if retries is None:
        retries = 2 if protocol is None or protocol.max_retries is None else protocol.max_retries
    mode = WeaveMode.APPEND if args.no_truthweaver else WeaveMode(args.mode)
    expver = ExpVerOptions(
        rounds=args.rounds,
        promote=args.promote,
        require_advice=not args.verbatim,
        require_success=not args.allow_failed_replay,
        min_score_gain=args.min_gain,
        score_key=args.score_key,
        revert=not args.no_revert,
        revert_retries=args.revert_retries,
        revert_tolerance=args.revert_tolerance,
        weave_mode=mode,
        duplicate_threshold=args.duplicate_threshold,
        merge_threshold=args.merge_threshold,
        truth_limit=args.truth_limit,
        episode=EpisodeOptions(max_retries=retries, max_steps=args.max_steps),
        concurrency=args.concurrency,
    )
    return TrainSpec(
        game=args.game,
        options=parse_options(args.option),
        agent=player,
        levels=_levels(args.level),
        train_maps=args.train_maps,
        train_pool=args.train_pool,
        test_maps=args.test_maps,
        seed=args.seed,
        label=args.label,
        expver=expver,
        model=model_settings(args),
        **execution_of(args),
    )


BOUNDS = {
    "rounds": Bounds(1, 10_000),
    "train_maps": Bounds(1),
    "train_pool": Bounds(1),
    "test_maps": Bounds(1),
    "duplicate_threshold": Bounds(0.0, 1.0, above=True),
    "merge_threshold": Bounds(0.0, 1.0, above=True),
    "min_gain": Bounds(),
    "revert_retries": Bounds(0),
    "revert_tolerance": Bounds(0.0),
    "truth_limit": Bounds(0),
}
"""The training's own number options (beside the shared ones)."""


def run(args: argparse.Namespace) -> int:
    """Run or resume the training; print the per-round table and where things are."""
    check_numbers(args, BOUNDS)
    output_dir("--out", args.out)
    store = parse_store(args.store) if args.store else None
    if store is not None and store.kind == "chroma":
        output_dir("--store", store.location)
    elif store is not None and store.kind == "sqlite":
        output_file("--store", store.location)
    spec = build_spec(args)

    def show(event: ExpVerEvent) -> None:
        line = describe_event(event, spec.expver.score_key)
        if line and not args.quiet:
            print(line, file=sys.stderr, flush=True)

    try:
        report = run_loop(run_training(spec, args.out, store=args.store, on_event=show))
    except KeyboardInterrupt:
        return interrupted("finished steps are saved")
    except EpisodeFailedError as exc:
        print(
            f"langgraph-games train: error: {exc}; finished steps are saved, rerun the same "
            "command to resume",
            file=sys.stderr,
        )
        return 1
    print(f"## Training rounds (ExpVer): {spec.row_label}, {spec.game}, {spec.agent}\n")
    print(report.table)
    print_costs([report.results_path], args)
    print(f"\nresults: {report.results_path} ({report.played} episodes played now)")
    kept = "" if report.store_lasts else ", not kept after this run"
    print(f"truths: {report.store} ({len(report.truths)} active{kept})")
    for number, truth in enumerate(report.truths, 1):
        print(f"  {number}. {truth}")
    if report.store_lasts:
        print(
            f"evaluate with them: langgraph-games eval {args.game} --player {spec.agent} "
            f"--truths {report.store}"
        )
    return 0
