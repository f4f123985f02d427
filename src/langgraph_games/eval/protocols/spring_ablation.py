"""SPRING's ablations (the paper's Table 3) for one model: one evaluation run per variant.

Every variant is an ordinary evaluation run (:func:`~langgraph_games.eval.running.runner.run_eval`,
agent ``spring_<variant>:<model>``) with its own results file, so an interrupted ablation
resumes variant by variant and ``langgraph-games report`` reads the files again. The table
follows Table 3's layout: the context rows (full context, a modified context when one is
given, the action descriptions only, no context), then the reasoning rows (full SPRING, the
step-by-step prompt, the questions without the DAG, the action question alone), with the
achievement depth (the deepest tech-tree level any episode reached), the reward (mean ±
population standard deviation over episodes) and the questions per step. We add the
measured model calls per step, the share of defaulted answers and the episode count.

The "action descriptions" row is the paper's: its context is only the studied context's
answer to the actions question when the given C is a studied one (it has that block);
otherwise (the game's manual, a context written by hand) it is the game's own action list
with each action's needs. Each run records where its C came from (``context_source``), and
the report lists it under the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph_games._json import JsonValue
from langgraph_games.eval.running.runner import EvalReport, EvalSpec, run_eval
from langgraph_games.eval.scoring.families import crafter_costs
from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.games.crafter import metrics as crafter_metrics
from langgraph_games.games.registry import make
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.spring.graph import (
    SpringVariant,
    context_source,
    spring_questions,
    studied_actions,
)

__all__ = [
    "ABLATION_ROWS",
    "AblationReport",
    "AblationRun",
    "ablation_runs",
    "ablation_table",
    "run_spring_ablation",
]

MODIFIED = "modified"
"""The row key of the "modified context" run (the full variant with another context)."""

ABLATION_ROWS: tuple[tuple[str, str], ...] = (
    (SpringVariant.FULL.value, "SPRING + C"),
    (MODIFIED, "SPRING + modified C"),
    (SpringVariant.ACTIONS.value, "SPRING + action descriptions"),
    (SpringVariant.NO_CONTEXT.value, "SPRING w/o C"),
    (SpringVariant.FULL.value, "SPRING + C"),
    (SpringVariant.STEP_BY_STEP.value, "Step-by-step prompt + C"),
    (SpringVariant.NO_DAG.value, "QA w/o DAG + C"),
    (SpringVariant.ACTION_ONLY.value, "w/o QA + C"),
)
"""Table 3's rows in order (the full row opens both groups, as in the paper)."""

_LABELS = dict(ABLATION_ROWS)


def _strategy_of(variant: SpringVariant) -> str:
    """The player spec of a row's variant, without its model: ``spring:variant=no_dag``."""
    return "spring" if variant is SpringVariant.FULL else f"spring:variant={variant.value}"


@dataclass(frozen=True)
class AblationRun:
    """One row's evaluation: its key (a variant or ``modified``), label, spec and C's source."""

    key: str
    label: str
    questions: int
    spec: EvalSpec
    context_source: str = ""


@dataclass
class AblationReport:
    """The ablation's table, each variant's evaluation report, and where each row's C came from."""

    table: str
    reports: dict[str, EvalReport] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)


def ablation_runs(
    model: str,
    *,
    game: str = "crafter",
    variants: Sequence[SpringVariant | str] = tuple(SpringVariant),
    context: str | None = None,
    modified_context: str | None = None,
    options: Mapping[str, JsonValue] | None = None,
    repeats: int = 5,
    seed: int = 0,
    episode: EpisodeOptions | None = None,
    model_settings: Mapping[str, object] | None = None,
    concurrency: int = 4,
) -> list[AblationRun]:
    """The evaluation runs of an ablation, one per row (pure: nothing runs).

    Args:
        model: The model spec every variant uses.
        game: The game (Table 3's metrics are Crafter's).
        variants: The variants to run (default: all six).
        context: The context C of the variants that use one (default: the game's manual);
            the ``actions`` row keeps only its studied actions answer when it has one.
        modified_context: Adds the "modified C" row: the full variant with this context.
        options: Game options.
        repeats: Episodes per variant (the paper: 5 trials).
        seed: Base seed; every variant plays the same seeds.
        episode: Episode options (step limit, retries).
        model_settings: ``temperature``, ``max_tokens``, ...
        concurrency: Episodes at once within a variant.

    Raises:
        ValueError: An unknown variant, or a game other than Crafter.
    """
    if game.split("-v")[0] != "crafter":
        raise ValueError(
            f"the Table 3 layout needs Crafter's metrics (reward, achievement depth); got "
            f"{game!r}. Run the spring strategies on other games with plain eval."
        )
    chosen = [SpringVariant(v) for v in variants]
    keys = [v.value for v in chosen]
    if modified_context is not None:
        keys.insert(1 if SpringVariant.FULL in chosen else 0, MODIFIED)
    engine = make(game, **dict(options or {}))
    runs = []
    for key in keys:
        variant = SpringVariant.FULL if key == MODIFIED else SpringVariant(key)
        text = modified_context if key == MODIFIED else context
        if variant is SpringVariant.ACTIONS and text is not None:
            text = studied_actions(text)  # the studied actions answer, else the game's own
        elif variant is SpringVariant.NO_CONTEXT:
            text = None
        questions, _ = spring_questions(variant)
        spec = EvalSpec(
            game=game,
            options=dict(options or {}),
            agent=f"{_strategy_of(variant)}:{model}",
            agent_settings={"context": text} if text is not None else {},
            repeats=repeats,
            seed=seed,
            label=_LABELS[key],
            concurrency=concurrency,
            episode=episode or EpisodeOptions(),
            model=dict(model_settings or {}),
        )
        source = context_source(engine, context if key != MODIFIED else modified_context, variant)
        runs.append(AblationRun(key, _LABELS[key], len(questions), spec, source))
    return runs


def ablation_table(rows: Mapping[str, tuple[int, Sequence[Mapping[str, Any]]]]) -> str:
    """Table 3's layout from per-row episode metrics.

    Args:
        rows: Row key (a variant value or ``"modified"``) -> ``(questions per step,
            per-episode Crafter metrics)``. Rows that were not run are left out; the full
            row opens both groups when it was run.

    Raises:
        ValueError: No rows, or a row without episodes.
    """
    if not rows:
        raise ValueError("the ablation table needs at least one row")
    headers = [
        "Method",
        "Achievement Depth",
        "Reward",
        "Questions per Step",
        "calls/step",
        "defaulted %",
        "episodes",
    ]
    body: list[list[object]] = []
    for key, label in ABLATION_ROWS:
        if key not in rows:
            continue
        questions, episodes = rows[key]
        if not episodes:
            raise ValueError(f"row {label!r} has no finished episode")
        summary = crafter_metrics.summarize(list(episodes))
        costs = crafter_costs(episodes)
        body.append(
            [
                label,
                summary["depth_max"],
                f"{summary['reward_mean']:.1f} ± {summary['reward_std']:.1f}",
                questions,
                costs["calls_per_step"],
                costs["defaulted_pct"],
                len(episodes),
            ]
        )
    # The full row opens both groups; without any row of a group it is said once.
    context_keys = {MODIFIED, SpringVariant.ACTIONS.value, SpringVariant.NO_CONTEXT.value}
    reasoning_keys = {
        SpringVariant.STEP_BY_STEP.value,
        SpringVariant.NO_DAG.value,
        SpringVariant.ACTION_ONLY.value,
    }
    full = _LABELS[SpringVariant.FULL.value]
    if not (context_keys & set(rows)) or not (reasoning_keys & set(rows)):
        first = next((i for i, row in enumerate(body) if row[0] == full), None)
        body = [row for i, row in enumerate(body) if row[0] != full or i == first]
    return markdown_table(headers, body)


async def run_spring_ablation(
    runs: Sequence[AblationRun],
    out_dir: str | Path = "runs",
    *,
    progress: bool = True,
    on_run: Callable[[AblationRun, EvalReport], None] | None = None,
) -> AblationReport:
    """Run (or resume) every row's evaluation, one after another, and build the table.

    Raises:
        ModelUnavailableError: The model cannot be used (checked before each run).
        PlayerSpecError: A strategy or its settings are not understood.
    """
    reports: dict[str, EvalReport] = {}
    rows: dict[str, tuple[int, Sequence[Mapping[str, Any]]]] = {}
    for run in runs:
        report = await run_eval(run.spec, out_dir, progress=progress)
        reports[run.key] = report
        if report.metrics:
            rows[run.key] = (run.questions, report.metrics)
        if on_run is not None:
            on_run(run, report)
    table = ablation_table(rows) if rows else "(no finished episode)"
    sources = [f"{run.label}: C = {run.context_source}" for run in runs]
    return AblationReport(table=table, reports=reports, sources=list(dict.fromkeys(sources)))
