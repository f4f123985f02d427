"""The SmartPlay benchmark: every setting for one or more agents, reported as Table 2.

A run is one :class:`~langgraph_games.eval.running.runner.EvalSpec` per (agent, setting), played
by :func:`~langgraph_games.eval.running.runner.run_eval` (so results files, resuming and error
records are the evaluation runner's). :func:`smartplay_summary` (in
:mod:`langgraph_games.eval.scoring.smartplay_summary`) then reads the results files and prints the
paper's layout:

1. Table 2: the mean human-normalised score per setting (columns Bandit, RPS, Hanoi,
   MessengerL1, MessengerL2, Crafter, Minecraft), one row per agent;
2. the capability scores: for each of the nine capabilities, the challenge-weighted mean
   of an agent's normalised scores over the challenge matrix (paper Table 3; weights
   ``level - 1`` as released or ``level`` as in the paper);
3. Table 4 (raw scores) and, per setting, episodes, completion rate, reward, answers that
   named no action (the baseline then takes action 0) and truncated episodes.

The SmartPlay agent's history window is each game's by default (Bandit 50, RPS 50, Hanoi
5, Messenger 2 as released; Crafter 5 as in the paper's Table 1, where the released Crafter
environment showed 2). :func:`resolve_history` reads the command line's ``--history``
(``2`` for every setting, ``crafter=2`` for one) and :func:`smartplay_specs` passes it to
the ``smartplay`` agents as a strategy setting, so it is part of the spec (its hash, the
results file's name and the manifest); the window used is also in every decision's
``info["history_length"]`` and in the manifest's player description.

Minecraft (``MinedojoCreative0``) cannot run offline: MineDojo downloads and builds a
Minecraft Java instance and pins ``gym==0.21``. Asking for it raises ``ValueError`` with
that explanation; its column stays empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langgraph_games._json import JsonObject
from langgraph_games.eval.running.players import strategy_of
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.eval.scoring.smartplay_summary import (
    MINECRAFT_OFFLINE,
    SmartPlaySummary,
    smartplay_summary,
)
from langgraph_games.games.smartplay import metrics
from langgraph_games.graphs.episode.options import EpisodeOptions

__all__ = [
    "MINECRAFT_OFFLINE",
    "SUITE",
    "SmartPlayReport",
    "SmartPlaySummary",
    "resolve_history",
    "resolve_settings",
    "run_smartplay",
    "smartplay_specs",
    "smartplay_summary",
]


SUITE: dict[str, tuple[str, JsonObject]] = {
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


def resolve_history(items: Sequence[str] | None, settings: Sequence[str]) -> dict[str, int]:
    """History windows per Table 2 column from ``N`` (every setting) or ``SETTING=N`` items.

    Args:
        items: Command-line values, e.g. ``["2"]`` or ``["crafter=2", "hanoi=30"]``; a
            later item wins over an earlier one for the same setting.
        settings: The columns being played (only those get a window).

    Raises:
        ValueError: A window that is not a whole number >= 0, or an unknown setting.

    Example:
        >>> resolve_history(["crafter=2"], ["Hanoi", "Crafter"])
        {'Crafter': 2}
        >>> resolve_history(["3", "hanoi=30"], ["Hanoi", "Crafter"])
        {'Hanoi': 30, 'Crafter': 3}
    """
    windows: dict[str, int] = {}
    for item in items or []:
        name, sep, value = item.rpartition("=")
        try:
            window = int(value)
        except ValueError:
            window = -1
        if window < 0:
            raise ValueError(
                f"--history {item!r}: the window is a whole number >= 0, as N (every "
                "setting) or SETTING=N (e.g. crafter=2)"
            )
        columns = resolve_settings([name]) if sep else list(settings)
        for column in columns:
            if column in settings:
                windows[column] = window
    return {column: windows[column] for column in settings if column in windows}


def smartplay_specs(
    agents: Sequence[str],
    settings: Sequence[str] | None = None,
    *,
    episodes: int | None = None,
    seed: int = 0,
    crafter_steps: int | None = None,
    episode: EpisodeOptions | None = None,
    model: Mapping[str, object] | None = None,
    concurrency: int = 4,
    history: Mapping[str, int] | None = None,
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
        history: History window per column for the SmartPlay agents (``smartplay``,
            ``smartplay:question=paper``); columns left out keep the game's window.

    Raises:
        ValueError: No agent, repeated agents, a setting that cannot be played, or
            ``history`` without a SmartPlay agent.
    """
    if not agents:
        raise ValueError("give at least one agent, e.g. smartplay:local or random")
    if len(set(agents)) != len(agents):
        raise ValueError(f"agent specs must be distinct, got {list(agents)}")
    windows = dict(history or {})
    if windows and not any(_is_smartplay(agent) for agent in agents):
        raise ValueError(
            "--history sets the SmartPlay agent's history window; none of the agents "
            f"({', '.join(agents)}) is one (smartplay[:question=paper][:<model>])"
        )
    specs = []
    for agent in agents:
        for column in resolve_settings(settings):
            game, options = SUITE[column]
            options = dict(options)
            if game == "crafter" and crafter_steps is not None:
                options["length"] = crafter_steps
            agent_settings = (
                {"history_length": windows[column]}
                if column in windows and _is_smartplay(agent)
                else {}
            )
            specs.append(
                EvalSpec(
                    game=game,
                    options=options,
                    agent=agent,
                    agent_settings=agent_settings,
                    repeats=episodes or metrics.SETTINGS[column].trials,
                    seed=seed,
                    label=agent,
                    concurrency=concurrency,
                    episode=episode or EpisodeOptions(),
                    model=dict(model or {}),
                )
            )
    return specs


def _is_smartplay(agent: str) -> bool:
    return strategy_of(agent) == "smartplay"


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
