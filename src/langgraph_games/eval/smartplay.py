"""The SmartPlay benchmark: every setting for one or more agents, reported as Table 2.

A run is one :class:`~langgraph_games.eval.runner.EvalSpec` per (agent, setting), played
by :func:`~langgraph_games.eval.runner.run_eval` (so results files, resuming and error
records are the evaluation runner's). :func:`smartplay_summary` then reads the results
files and prints the paper's layout:

1. Table 2: the mean human-normalised score per setting (columns Bandit, RPS, Hanoi,
   MessengerL1, MessengerL2, Crafter, Minecraft), one row per agent;
2. the capability scores: for each of the nine capabilities, the challenge-weighted mean
   of an agent's normalised scores over the challenge matrix (paper Table 3; weights
   ``level - 1`` as released or ``level`` as in the paper, note S5);
3. Table 4 (raw scores) and, per setting, episodes, completion rate, reward, answers that
   named no action (the baseline then takes action 0) and truncated episodes.

Minecraft (``MinedojoCreative0``) cannot run offline: MineDojo downloads and builds a
Minecraft Java instance and pins ``gym==0.21``. Asking for it raises ``ValueError`` with
that explanation; its column stays empty.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langgraph_games.eval.families import counters_of
from langgraph_games.eval.results import ResultsFile
from langgraph_games.eval.runner import EvalSpec, run_eval, summarize_episodes
from langgraph_games.eval.tables import markdown_table
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import metrics
from langgraph_games.graphs.episode import EpisodeOptions

__all__ = [
    "MINECRAFT_OFFLINE",
    "SUITE",
    "SmartPlayReport",
    "SmartPlaySummary",
    "resolve_settings",
    "run_smartplay",
    "smartplay_specs",
    "smartplay_summary",
]

MINECRAFT_OFFLINE = (
    "Minecraft (MinedojoCreative0) cannot run offline: SmartPlay plays it through MineDojo, "
    "which downloads and builds a Minecraft Java instance when installed and run, and pins "
    "gym==0.21; none of that is possible without network access, so the package has no "
    "Minecraft game and its Table 2 column stays empty"
)
"""Why the Minecraft setting is not played."""

SUITE: dict[str, tuple[str, dict[str, Any]]] = {
    "Bandit": ("bandit", {}),
    "RPS": ("rock_paper_scissors", {}),
    "Hanoi": ("hanoi", {}),
    "MessengerL1": ("messenger", {"level": 1}),
    "MessengerL2": ("messenger", {"level": 2}),
    # SmartPlay's own reading of answers for Crafter: earliest position, Noop by default
    # (the SmartPlay agent matches answers itself; these matter for other agents).
    "Crafter": ("crafter", {"parse_rule": "earliest_position", "default_action": "Noop"}),
}
"""The runnable settings of Table 2: column -> (game id, game options)."""

_ALIASES = {
    "rock_paper_scissors": ["RPS"],
    "messenger": ["MessengerL1", "MessengerL2"],
    "messengerl1": ["MessengerL1"],
    "messengerl2": ["MessengerL2"],
    "messenger_l1": ["MessengerL1"],
    "messenger_l2": ["MessengerL2"],
}
_WITH_OBJECTIVE = ("hanoi", "messenger")  # completion rate is reported for these only


def resolve_settings(names: Iterable[str] | None = None) -> list[str]:
    """Table 2 columns for names given by people: columns, game ids, any case.

    ``None`` or an empty list gives every runnable setting. ``messenger`` gives both levels.

    Raises:
        ValueError: Minecraft (it cannot run offline), or an unknown name (the message
            lists the accepted ones).

    Example:
        >>> resolve_settings(["bandit", "messenger"])
        ['Bandit', 'MessengerL1', 'MessengerL2']
    """
    wanted = list(names or [])
    if not wanted:
        return list(SUITE)
    by_lower = {column.lower(): [column] for column in SUITE}
    chosen: list[str] = []
    for name in wanted:
        key = name.strip().lower()
        if key in ("minecraft", "minedojo", "minedojocreative0"):
            raise ValueError(MINECRAFT_OFFLINE)
        columns = by_lower.get(key) or _ALIASES.get(key)
        if columns is None:
            accepted = ", ".join([*SUITE, *_ALIASES])
            raise ValueError(f"Unknown SmartPlay setting {name!r}; accepted: {accepted}")
        chosen += [c for c in columns if c not in chosen]
    return chosen


def smartplay_specs(
    agents: Sequence[str],
    settings: Sequence[str] | None = None,
    *,
    episodes: int | None = None,
    seed: int = 0,
    crafter_steps: int | None = None,
    episode: EpisodeOptions | None = None,
    model: Mapping[str, Any] | None = None,
    concurrency: int = 4,
) -> list[EvalSpec]:
    """One evaluation spec per agent and setting, in Table 2's order.

    Args:
        agents: Player specs (``smartplay:local``, ``random``, ...); each is a row.
        settings: Columns to play (see :func:`resolve_settings`); default all runnable.
        episodes: Episodes per setting; default the paper's trials (Bandit 20, RPS 20,
            Hanoi 10, Messenger 100, Crafter 10).
        seed: Base seed: episode ``k`` of every setting uses ``seed + k``.
        crafter_steps: Crafter's episode length (default 10,000 as released; another
            length is reported in its own column without a human-normalised score).
        episode: Retries, fallback and step limit of the episode loop.
        model: Model settings (``temperature``, ``max_tokens``, ...).
        concurrency: Episodes at once within a setting.

    Raises:
        ValueError: No agent, repeated agents, or a setting that cannot be played.
    """
    if not agents:
        raise ValueError("give at least one agent, e.g. smartplay:local or random")
    if len(set(agents)) != len(agents):
        raise ValueError(f"agent specs must be distinct, got {list(agents)}")
    specs = []
    for agent in agents:
        for column in resolve_settings(settings):
            game, options = SUITE[column]
            options = dict(options)
            if game == "crafter" and crafter_steps is not None:
                options["length"] = crafter_steps
            specs.append(
                EvalSpec(
                    game=game,
                    options=options,
                    agent=agent,
                    repeats=episodes or metrics.SETTINGS[column].trials,
                    seed=seed,
                    label=agent,
                    concurrency=concurrency,
                    episode=episode or EpisodeOptions(),
                    model=dict(model or {}),
                )
            )
    return specs


@dataclass
class SmartPlaySummary:
    """The SmartPlay tables of some results files.

    Attributes:
        text: Table 2, the capability scores and the details, as Markdown.
        table2: Rows of Table 2 (``{"player": label, column: normalised or None}``).
        capabilities: Capability scores per agent label.
        episodes: SmartPlay per-episode metrics per agent label.
        notes: Problems met while reading (failed episodes, unreadable lines).
    """

    text: str
    table2: list[dict[str, Any]]
    capabilities: dict[str, dict[str, float | None]]
    episodes: dict[str, list[dict[str, Any]]]
    notes: list[str] = field(default_factory=list)


def _episode_metrics(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """SmartPlay metrics of a results record (computed again for other families)."""
    recorded = record.get("metrics") or {}
    if "column" in recorded and "score" in recorded:
        found = dict(recorded)
    else:  # e.g. Crafter, whose family records SPRING's metrics
        session = GameSession.from_dict(record["result"]["record"])
        try:
            found = metrics.episode_metrics(session, **counters_of(record["result"]))
        except ValueError:
            return None
    found["status"] = record.get("status")
    return found


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _fmt(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def smartplay_summary(
    paths: Sequence[str | Path], *, weighting: Literal["code", "paper"] = "code"
) -> SmartPlaySummary:
    """Table 2, capability scores and details over evaluation results files.

    Rows are labelled by each record's ``label`` (the agent spec by default); episodes of
    games without a SmartPlay scorer are left out with a note.

    Args:
        paths: Results files of :func:`run_smartplay` or ``langgraph-games eval`` runs.
        weighting: Capability weights: ``"code"`` (level - 1) or ``"paper"`` (level).
    """
    _, _, notes = summarize_episodes(list(paths))  # failed episodes, unreadable lines
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for record in ResultsFile(path).read().records:
            if record.get("kind") != "episode" or record.get("status") == "error":
                continue
            found = _episode_metrics(record)
            if found is None:
                notes.append(f"{path}: {record.get('game')} is not a SmartPlay setting; left out")
                continue
            by_label[str(record.get("label"))].append(found)
    table2 = metrics.smartplay_table(by_label)
    capabilities: dict[str, dict[str, float | None]] = {}
    for row in table2:
        normalized = {
            c: float(row[c]) for c in metrics.COLUMNS if isinstance(row.get(c), (int, float))
        }
        capabilities[row["player"]] = metrics.capability_scores(normalized, weighting)
    text = _render(by_label, table2, capabilities, weighting)
    return SmartPlaySummary(text, table2, capabilities, dict(by_label), notes)


def _render(
    by_label: Mapping[str, Sequence[Mapping[str, Any]]],
    table2: Sequence[Mapping[str, Any]],
    capabilities: Mapping[str, Mapping[str, float | None]],
    weighting: str,
) -> str:
    labels = list(by_label)
    parts = ["## SmartPlay: human-normalised scores (Table 2)", ""]
    parts.append(
        markdown_table(
            ["agent", *metrics.COLUMNS],
            [[row["player"], *(_fmt(row[c]) for c in metrics.COLUMNS)] for row in table2],
        )
    )
    parts += ["", f"Minecraft column: {MINECRAFT_OFFLINE}."]
    truncated = sum(1 for rows in by_label.values() for e in rows if e.get("status") == "truncated")
    if truncated:
        parts.append(
            f"{truncated} episode(s) stopped at the step limit before the game's rollout: "
            "their scores are not comparable with the paper's (see 'truncated' below)."
        )
    seen = {str(e["column"]) for rows in by_label.values() for e in rows}
    played = [c for c in metrics.COLUMNS if c in seen] + sorted(seen - set(metrics.COLUMNS))
    unnormalised = [c for c in played if c not in metrics.SETTINGS]
    if unnormalised:
        parts.append(
            f"Not in Table 2 (no recorded human score, so no normalised score and no part in "
            f"the capability scores): {', '.join(unnormalised)}; see the raw scores below."
        )
    rule = "level - 1, as released" if weighting == "code" else "level, as in the paper"
    parts += ["", f"## Capability scores (challenge-weighted normalised scores; weight {rule})"]
    parts.append("")
    parts.append(
        markdown_table(
            ["capability", *labels],
            [
                [capability, *(_fmt(capabilities[label][capability]) for label in labels)]
                for capability in metrics.CAPABILITIES
            ],
        )
    )
    parts += ["", "## Raw scores (Table 4)", ""]
    raw = metrics.smartplay_table(by_label, normalized=False, columns=played)
    parts.append(
        markdown_table(["agent", *played], [[r["player"], *(r[c] for c in played)] for r in raw])
    )
    parts += ["", "## Per setting", ""]
    body = []
    for label, episodes in by_label.items():
        for column in played:
            rows = [e for e in episodes if e["column"] == column]
            if not rows:
                continue
            game = str(rows[0]["game"]).split("-v")[0]
            decisions = sum(int(e.get("decisions", 0)) for e in rows)
            defaulted = sum(int(e.get("rejected_answers", 0)) for e in rows)
            completion = (
                _mean([float(bool(e["completed"])) for e in rows])
                if game in _WITH_OBJECTIVE
                else None
            )
            body.append(
                [
                    label,
                    column,
                    len(rows),
                    _fmt(_mean([float(e["score"]) for e in rows])),
                    _fmt(completion),
                    _fmt(_mean([float(e["reward"]) for e in rows])),
                    _fmt(_mean([float(e["steps"]) for e in rows]), 1),
                    f"{defaulted}/{decisions}",
                    sum(1 for e in rows if e.get("status") == "truncated"),
                ]
            )
    parts.append(
        markdown_table(
            [
                "agent",
                "setting",
                "episodes",
                "score",
                "completion",
                "reward",
                "steps",
                "unusable answers",
                "truncated",
            ],
            body,
        )
    )
    return "\n".join(parts) + "\n"


@dataclass
class SmartPlayReport:
    """What a SmartPlay run did: results files, counts and the summary."""

    results_paths: list[Path]
    played: int
    skipped: int
    errors: int
    summary: SmartPlaySummary


async def run_smartplay(
    specs: Sequence[EvalSpec],
    out_dir: str | Path = "runs",
    *,
    progress: bool = True,
    weighting: Literal["code", "paper"] = "code",
) -> SmartPlayReport:
    """Run (or resume) every spec with the evaluation runner, then summarise.

    Raises:
        ModelUnavailableError: A model cannot be used (checked before a setting starts).
        PlayerSpecError: A player spec is not understood.
        ValueError: An agent cannot play a setting (e.g. a two-player strategy).
    """
    paths: list[Path] = []
    played = skipped = errors = 0
    for spec in specs:
        report = await run_eval(spec, out_dir, progress=progress)
        paths.append(report.results_path)
        played += report.played
        skipped += report.skipped
        errors += report.errors
    summary = smartplay_summary(paths, weighting=weighting)
    return SmartPlayReport(paths, played, skipped, errors, summary)
