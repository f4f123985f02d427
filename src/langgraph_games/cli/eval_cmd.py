"""``langgraph-games eval GAME --agent SPEC``: one agent over many episodes, paper metrics.

For the maze, Match-2 and Minesweeper the defaults are the papers' protocols (see
:mod:`langgraph_games.eval.protocols.plans`): ``eval maze --level 2 --player eeb:local`` plays
the 30 evaluation maps of level 2. ``--ablation`` runs the paper's ablation and prints
its table: Minesweeper's Table 1 (every prompt variant of ``--model``, by mine count),
the maze's and Match-2's Table 7 (``EEB`` against ``Full-Vision`` / ``NoProps``), and for
SPRING (``--agent spring[:<model>]`` on Crafter) Table 3 (every variant, same model).

For SPRING, ``--context FILE`` gives the game context C (e.g. written by ``langgraph-games
study --output FILE``) and ``--study DOCUMENT`` studies a document first with the agent's
model (cached).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.cli import interrupted
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._game_options import OPTION_HELP, game_options_epilog
from langgraph_games.cli._options import (
    MAX_EPISODES,
    MAX_SWEEP_VALUES,
    Bounds,
    add_episode_flags,
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
from langgraph_games.cli._players import PLAYER_SPEC_HELP, players_epilog
from langgraph_games.eval.protocols.plans import (
    EvalPlan,
    plan_ablation,
    plan_eval,
    protocol_for,
    run_specs,
)
from langgraph_games.eval.protocols.spring_ablation import (
    AblationRun,
    ablation_runs,
    run_spring_ablation,
)
from langgraph_games.eval.running.contexts import read_context, study_document
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.players import strategy_of
from langgraph_games.eval.running.runner import EvalReport, EvalSpec, group_episodes
from langgraph_games.games.base import Game
from langgraph_games.games.maze import metrics as maze_metrics
from langgraph_games.games.registry import game_class
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.spring.graph import SpringVariant
from langgraph_games.graphs.study.graph import DEFAULT_STUDY_CONCURRENCY
from langgraph_games.models.factory import load_chat_model
from langgraph_games.players.registry import DEFAULT_MODEL, complete_model, parse_spec

__all__ = ["add_parser", "parse_sweep", "parse_variants", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``eval`` sub-command."""
    parser = add_command(
        sub,
        "eval",
        epilog=players_epilog() + "\n\n" + game_options_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="game id, e.g. maze, minesweeper, crafter, bandit")
    parser.add_argument(
        "--agent",
        "--player",
        dest="agent",
        default=None,
        metavar="SPEC",
        help="the evaluated player: an LLM strategy (gamebot:local, eeb:local, "
        "minesweeper:variant=memory:local ...) or a search player (maze_explorer, "
        f"minesweeper_solver, ...); {PLAYER_SPEC_HELP}",
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
        f"otherwise 1, or 10 unswept); at most {MAX_EPISODES:,} in all",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="KEY=VALUES",
        help="sweep an option: map_index=1..30 or variant=a,b (repeatable; at most "
        f"{MAX_SWEEP_VALUES:,} combinations in all)",
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
    add_worker_flags(parser)
    parser.add_argument("--out", default="runs", help="folder for results (default runs/)")
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help=OPTION_HELP)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.add_argument(
        "--truths",
        metavar="STORE",
        default=None,
        help="play with the truths learned by 'langgraph-games train' (the store it printed: "
        "a Chroma directory, sqlite:PATH or postgres://...)",
    )
    parser.add_argument(
        "--released-score",
        action="store_true",
        help="maze: add the column A.Score(rel.), the released evaluation script's A.Score "
        "(the mean custom_score; A.Score is the paper's mean cumulative reward)",
    )
    parser.add_argument(
        "--truth-limit",
        type=int,
        default=None,
        metavar="N",
        help="at most N truths: the best supported, then the newest",
    )
    spring = parser.add_argument_group("SPRING (--agent spring, spring:variant=no_dag, ...)")
    spring.add_argument(
        "--context",
        metavar="FILE",
        default=None,
        help="the game context C as a text file (default: the game's manual)",
    )
    spring.add_argument(
        "--study",
        metavar="DOCUMENT",
        default=None,
        help="study a document (LaTeX, Markdown or text) with the agent's model and use "
        "the result as C (cached in --study-cache)",
    )
    spring.add_argument(
        "--study-cache",
        metavar="FILE",
        default=None,
        help="SQLite cache of studied documents (default: <out>/study.sqlite)",
    )
    spring.add_argument(
        "--study-concurrency",
        type=int,
        default=DEFAULT_STUDY_CONCURRENCY,
        metavar="N",
        help=f"model calls at once while studying (default {DEFAULT_STUDY_CONCURRENCY})",
    )
    spring.add_argument(
        "--variants",
        default=None,
        metavar="LIST",
        help="variants for --ablation, comma-separated: "
        + ",".join(v.value for v in SpringVariant)
        + " (default: all)",
    )
    spring.add_argument(
        "--modified-context",
        metavar="FILE",
        default=None,
        help="with --ablation, add the 'modified C' row: full SPRING with this context",
    )
    add_episode_flags(parser, max_retries=None)
    add_model_flags(parser)
    add_prices_flag(parser)
    parser.set_defaults(run=run)


def parse_sweep(items: list[str]) -> dict[str, list[JsonValue]]:
    """``["map_index=1..3", "variant=a,b"]`` -> ``{"map_index": [1, 2, 3], ...}``.

    A range ``low..high`` holds the integers from ``low`` to ``high``; a list's values are
    read as ``--option`` values are. The sweeps of one command line name at most
    :data:`~langgraph_games.cli._options.MAX_SWEEP_VALUES` combinations in all; more is
    refused before anything is built.

    Raises:
        ValueError: An item is not ``key=values``, a range is malformed or empty, an
            option is swept twice, or the sweeps name too many combinations.

    Example:
        >>> parse_sweep(["map_index=1..3", "variant=a,b"])
        {'map_index': [1, 2, 3], 'variant': ['a', 'b']}
    """
    sweep: dict[str, list[JsonValue]] = {}
    combinations = 1
    for item in items:
        shown = item if len(item) <= 80 else item[:77] + "..."
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise ValueError(f"sweep {shown!r} is not key=values (e.g. map_index=1..30)")
        if key in sweep:
            raise ValueError(f"sweep {shown!r}: {key!r} is swept twice; give its values once")
        count = _sweep_count(shown, values)
        combinations *= count
        if combinations > MAX_SWEEP_VALUES:
            raise ValueError(
                f"sweep {shown!r}: the sweeps name {combinations:,} combinations; at most "
                f"{MAX_SWEEP_VALUES:,} in all"
            )
        if ".." in values:
            low, _, _ = values.partition("..")
            sweep[key] = list(range(int(low), int(low) + count))
        else:
            sweep[key] = [parse_options([f"v={value.strip()}"])["v"] for value in values.split(",")]
    return sweep


def _sweep_count(shown: str, values: str) -> int:
    """How many values a sweep names (a range is checked, not built)."""
    if ".." not in values:
        return values.count(",") + 1
    low, _, high = values.partition("..")
    try:
        first, last = int(low), int(high)
    except ValueError:
        raise ValueError(f"sweep {shown!r}: a range is low..high integers") from None
    if last < first:
        raise ValueError(f"sweep {shown!r}: the range is empty (low..high with low <= high)")
    return last - first + 1


def parse_variants(text: str | None) -> list[SpringVariant]:
    """``"full,no_dag"`` -> the variants.

    Raises:
        ValueError: An unknown variant; the message lists the accepted ones (or, for a
            former strategy name such as ``spring_no_dag``, gives the variant).
    """
    if text is None:
        return list(SpringVariant)
    chosen = []
    for item in text.split(","):
        name = item.strip().lower()
        try:
            chosen.append(SpringVariant(name))
        except ValueError:
            former = name.removeprefix("spring_")
            if former != name and former in {v.value for v in SpringVariant}:
                message = f"unknown SPRING variant {item!r}: renamed to {former!r}"
                raise ValueError(message) from None
            accepted = ", ".join(v.value for v in SpringVariant)
            raise ValueError(f"unknown SPRING variant {item!r}; accepted: {accepted}") from None
    return list(dict.fromkeys(chosen))


def _context(
    args: argparse.Namespace, agent: str, game: type[Game[GameState]]
) -> tuple[str | None, str]:
    """The context C from ``--context`` or ``--study`` (``None``: the default) and its source."""
    if args.context and args.study:
        raise ValueError("give either --context FILE or --study DOCUMENT, not both")
    if args.context:
        return read_context(args.context), f"the context in {args.context}"
    if not args.study:
        return None, "the game's manual"
    if strategy_of(agent) is None:
        raise ValueError(f"--study needs an LLM agent to study with; {agent!r} is not one")
    model_spec = parse_spec(agent).model or DEFAULT_MODEL
    model = load_chat_model(model_spec, **model_settings(args))
    cache = args.study_cache or Path(args.out) / "study.sqlite"
    studied = run_loop(
        study_document(
            model,
            Path(args.study),
            game_name=game.name,
            cache=cache,
            concurrency=args.study_concurrency,
            progress=not args.quiet,
        )
    )
    print(f"studied {args.study}: {studied.summary()}", file=sys.stderr)
    return studied.context, f"{args.study}, studied by {model_spec}"


def _episode_options(args: argparse.Namespace) -> EpisodeOptions:
    return EpisodeOptions(
        max_retries=2 if args.max_retries is None else args.max_retries,
        fallback=args.fallback,
        max_steps=args.steps or args.max_steps,
    )


def _run_ablation(
    args: argparse.Namespace,
    agent: str,
    game: type[Game[GameState]],
    options: JsonObject,
    context: str | None,
    source: str,
) -> int:
    if not _is_spring(agent):
        raise ValueError(
            f"--ablation runs SPRING's Table 3; use --agent spring[:<model>], not {agent!r}"
        )
    if args.sweep or args.opponent:
        raise ValueError("--ablation takes no --sweep or --opponent")
    modified = read_context(args.modified_context) if args.modified_context else None
    episodes = args.episodes if args.episodes is not None else 5
    model_spec = parse_spec(agent).model or DEFAULT_MODEL
    runs = ablation_runs(
        model_spec,
        game=args.game,
        variants=parse_variants(args.variants),
        context=context,
        modified_context=modified,
        options=options,
        repeats=episodes,
        seed=args.seed,
        episode=_episode_options(args),
        model_settings=model_settings(args),
        concurrency=args.concurrency,
    )
    errors = 0

    def done(run: AblationRun, report: EvalReport) -> None:
        nonlocal errors
        errors += report.errors
        print(
            f"{run.label}: {report.results_path} ({report.played} played now, "
            f"{report.skipped} already done, {report.errors} errors)",
            file=sys.stderr,
        )

    try:
        report = run_loop(run_spring_ablation(runs, args.out, progress=not args.quiet, on_run=done))
    except KeyboardInterrupt:
        return interrupted("finished episodes are saved")
    steps = args.steps or args.max_steps
    limit = f", at most {steps} steps each" if steps else ""
    print(
        f"## SPRING ablations (Table 3 layout): {game.id}-v{game.version} "
        f"with {model_spec}, {episodes} episode(s) per row{limit}; C = {source}\n"
    )
    print(report.table)
    print("\nWhere each row's C came from:")
    for line in report.sources:
        print(f"- {line}")
    return 0 if errors == 0 else 1


def _specs(args: argparse.Namespace, context: str | None) -> list[EvalSpec]:
    options = parse_options(args.option)
    level = None if args.level is None else parse_options([f"level={args.level}"])["level"]
    execution = execution_of(args)
    plan: EvalPlan = {
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
        "workers": execution["workers"],
        "executor": execution["executor"],
        "ray_address": execution["ray_address"],
        "model": model_settings(args),
    }
    if args.truths is not None:
        plan["truths"] = args.truths
        plan["truth_limit"] = args.truth_limit
    if context is not None:
        plan["agent_settings"] = {"context": context}
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
    # --model completes an LLM strategy given without one (spring -> spring:local); a
    # search player such as maze_explorer stays as it is.
    return complete_model(str(args.agent), args.model)


def _is_spring(agent: str | None) -> bool:
    return agent is not None and strategy_of(agent) == "spring"


BOUNDS = {
    "episodes": Bounds(1, MAX_EPISODES),
    "steps": Bounds(1),
    "truth_limit": Bounds(0),
    "study_concurrency": Bounds(1),
}
"""The evaluation's own number options (beside the shared ones)."""


def run(args: argparse.Namespace) -> int:
    """Run or resume the evaluation (or ablation) and print the paper's table."""
    check_numbers(args, BOUNDS)
    output_dir("--out", args.out)
    if args.study_cache:
        output_file("--study-cache", args.study_cache)
    game = game_class(args.game)
    agent = _agent(args) if args.agent else None
    if args.modified_context and not args.ablation:
        raise ValueError("--modified-context adds a row to --ablation; use --context otherwise")
    if args.variants and not args.ablation:
        raise ValueError("--variants selects the rows of --ablation")
    context, source = _context(args, agent, game) if agent else (None, "the game's manual")
    spring_game = game.id == "crafter"
    if args.ablation and agent is not None and (_is_spring(agent) or spring_game):
        if args.truths:
            raise ValueError("--truths is not available with SPRING's --ablation")
        return _run_ablation(args, agent, game, parse_options(args.option), context, source)
    if args.released_score and game.id != "maze":
        raise ValueError("--released-score adds a column to the maze table; the game is not maze")
    specs = _specs(args, context)
    planned = sum(math.prod(len(v) for v in spec.sweep.values()) * spec.repeats for spec in specs)
    if planned > MAX_EPISODES:
        raise ValueError(
            f"the run plans {planned:,} episodes (combinations x --episodes); at most "
            f"{MAX_EPISODES:,}: sweep fewer values or play fewer episodes"
        )
    try:
        table, reports = run_loop(run_specs(specs, args.out, progress=not args.quiet))
    except KeyboardInterrupt:
        return interrupted("finished episodes are saved")
    if args.released_score:
        table = _released_score_table([r.results_path for r in reports])
    print(table)
    print_costs([r.results_path for r in reports], args)
    errors = 0
    for report in reports:
        errors += report.errors
        if args.truths:
            print(f"truths: {len(report.truths)} from {args.truths}")
        print(
            f"results: {report.results_path} ({report.played} played now, {report.skipped} "
            f"already done, {report.errors} errors)"
        )
    return 0 if errors == 0 else 1


def _released_score_table(paths: list[Path]) -> str:
    """The maze table of the results with the released A.Score column added."""
    groups = group_episodes(list(paths))
    rows = groups.families.get("maze", {})
    aggregated = {label: maze_metrics.aggregate(episodes) for label, episodes in rows.items()}
    text = maze_metrics.format_table(aggregated, released_score=True)
    return f"## maze (EvoEmpirBench)\n\n{text}\n"
