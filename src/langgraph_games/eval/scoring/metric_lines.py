"""What each metric family's tables read of an episode's metrics, checked before they read it.

An evaluation record's ``metrics`` are whatever its family's ``episode_metrics`` wrote, and
:func:`~langgraph_games.eval.running.records.load_results` keeps them as a plain mapping:
the leaderboard and the replays do not read them. The paper tables do, by key: each
family's type here (:data:`FAMILY_METRICS`, kept next to the functions that read it)
names the keys its table and headline index, typed. :func:`table_family` checks a record
against the family of its game once, where the tables gather episodes
(:func:`~langgraph_games.eval.running.runner.group_episodes`, the SmartPlay summary); a
record that does not fit is left out of the tables with a note naming its line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from langgraph_games.eval.running.records import EpisodeLine, shown
from langgraph_games.eval.scoring.families import family_of
from langgraph_games.games.crafter import metrics as crafter_metrics
from langgraph_games.games.match2 import metrics as match2_metrics
from langgraph_games.games.maze import metrics as maze_metrics
from langgraph_games.games.minesweeper import metrics as minesweeper_metrics
from langgraph_games.games.smartplay import metrics as smartplay_metrics
from langgraph_games.graphs.episode.records import check_record

__all__ = ["FAMILY_METRICS", "GenericMetrics", "check_metrics", "table_family"]


GenericMetrics = TypedDict("GenericMetrics", {"return": float, "steps": float, "done": bool})
"""What the generic table reads of one episode's metrics (``return`` is a keyword)."""

FAMILY_METRICS: dict[str, type[Any]] = {
    "generic": GenericMetrics,
    "maze": maze_metrics.MazeMetrics,
    "match2": match2_metrics.Match2Metrics,
    "minesweeper": minesweeper_metrics.MinesweeperMetrics,
    "smartplay": smartplay_metrics.SmartPlayMetrics,
    "crafter": crafter_metrics.CrafterMetrics,
}
"""The type of one episode's metrics that each family's table reads, by family name."""

_ADAPTERS = {name: TypeAdapter(t) for name, t in FAMILY_METRICS.items()}
_BEYOND_TYPES: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "crafter": lambda metrics: crafter_metrics.check_unlocked(metrics["unlocked"]),
}


def check_metrics(family: str, metrics: Mapping[str, Any]) -> None:
    """Check one episode's ``metrics`` against what ``family``'s table reads.

    Raises:
        ValueError: An unknown family, or metrics that do not fit: ``"<family> metrics
            without <keys>"`` and/or ``"with <key> <problem>"``, or what else is wrong
            (a Crafter achievement that does not exist).
    """
    if family not in FAMILY_METRICS:
        raise ValueError(
            f"unknown metric family {shown(family)}; families: {', '.join(FAMILY_METRICS)}"
        )
    check_record(_ADAPTERS[family], FAMILY_METRICS[family], metrics, f"{family} metrics")
    beyond = _BEYOND_TYPES.get(family)
    if beyond is not None:
        beyond(metrics)


def table_family(record: EpisodeLine) -> str:
    """The family whose tables score ``record``, with its metrics checked against it.

    The family is its game's; a record that names another (``family``) does not fit.

    Raises:
        ValueError: The record names another family than its game's, or its metrics do
            not fit the family's type (see :func:`check_metrics`).
    """
    family = family_of(record["game"]).name
    named = record.get("family")
    if named is not None and named != family:
        raise ValueError(f"family {shown(named)} is not its game's family {family!r}")
    check_metrics(family, record["metrics"])
    return family
