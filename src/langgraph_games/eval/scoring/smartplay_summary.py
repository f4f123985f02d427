"""SmartPlay's tables from evaluation results: Table 2, capability scores, Table 4, details.

:func:`smartplay_summary` reads results files (of :func:`~langgraph_games.eval.protocols.smartplay.
run_smartplay` or ``langgraph-games eval`` runs) and prints the paper's layout. A row is an
agent label and a column a setting; runs of one setting under one label with different
specs are never averaged together but get a row each (``label [spec hash]``), with a note.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langgraph_games.eval.running.records import EpisodeLine, is_failed, load_results
from langgraph_games.eval.scoring.families import counters_of
from langgraph_games.eval.scoring.metric_lines import table_family
from langgraph_games.eval.scoring.smartplay_tables import (
    MINECRAFT_OFFLINE,
    smartplay_scores,
    smartplay_tables,
)
from langgraph_games.games.errors import GameError
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import metrics

__all__ = ["MINECRAFT_OFFLINE", "SmartPlaySummary", "smartplay_summary"]


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


def _episode_metrics(record: EpisodeLine) -> dict[str, Any] | str:
    """SmartPlay metrics of a results record, or why it has none.

    A SmartPlay-family record's metrics are used as written (checked against the family's
    type); another SmartPlay setting's (Crafter, whose family records SPRING's metrics)
    are computed again from its game record.
    """
    try:
        family = table_family(record)
    except ValueError as exc:
        return str(exc)
    if family == "smartplay":
        found = dict(record["metrics"])
    else:
        if not metrics.is_smartplay_game(record["game"]):
            return f"{record['game']} is not a SmartPlay setting"
        game_record = record["result"].get("record")
        if game_record is None:
            return "no game record to score it again"
        try:
            session = GameSession.from_dict(game_record)
        except (GameError, ValueError) as exc:
            return f"its game record does not replay: {exc}"
        found = metrics.episode_metrics(session, **counters_of(record["result"]))
    found["status"] = record.get("status")
    return found


def smartplay_summary(
    paths: Sequence[str | Path], *, weighting: Literal["code", "paper"] = "code"
) -> SmartPlaySummary:
    """Table 2, capability scores and details over evaluation results files.

    Rows are labelled by each record's ``label`` (the agent spec by default). Each
    setting is a column, so an agent's runs of different settings (Messenger's two
    levels, another Crafter length) share its row. Runs of *one* setting under one label
    with different specs (another seed, model settings, history window ...) are never
    averaged together: each such run gets its own row, ``label [spec hash]``, and a note
    says so. Records the reports set aside (unreadable lines, another spec than their
    file's, unregistered games), failed episodes and games without a SmartPlay scorer are
    left out with a note.

    Args:
        paths: Results files of :func:`run_smartplay` or ``langgraph-games eval`` runs.
        weighting: Capability weights: ``"code"`` (level - 1) or ``"paper"`` (level).
    """
    loaded = load_results(list(paths), kinds=("episode",))
    notes = list(loaded.notes)
    found: list[tuple[str, str, dict[str, Any]]] = []
    for item in loaded.records:
        record = item.record
        if record["kind"] != "episode":
            continue
        if is_failed(record):
            notes.append(
                f"{item.source}: episode {record.get('episode_id')} failed: "
                f"{record.get('error')}; left out"
            )
            continue
        episode = _episode_metrics(record)
        if isinstance(episode, str):
            notes.append(f"{item.source}: {episode}; left out")
            continue
        found.append((str(record.get("label")), str(record.get("spec_hash") or "-"), episode))
    specs: dict[tuple[str, str], set[str]] = defaultdict(set)
    for label, spec, episode in found:
        specs[(label, str(episode["column"]))].add(spec)
    for (label, column), hashes in specs.items():
        if len(hashes) > 1:
            notes.append(
                f"label {label!r} holds {column} runs of {len(hashes)} specs "
                f"({', '.join(sorted(hashes))}); they are not averaged together: each is "
                f"its own row, '{label} [spec]'"
            )
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for label, spec, episode in found:
        split = len(specs[(label, str(episode["column"]))]) > 1
        by_label[f"{label} [{spec}]" if split else label].append(episode)
    table2, capabilities = smartplay_scores(by_label, weighting)
    text = smartplay_tables(by_label, weighting=weighting)
    return SmartPlaySummary(text, table2, capabilities, dict(by_label), notes)
