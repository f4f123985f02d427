"""The EvoEmpirBench Match-2 metrics (paper Table 3/5) from finished episodes.

Per episode (:func:`episode_metrics`): success (every colour target met), score,
remaining/maximum steps, score per step used, tiles cleared per step used, and API
efficiency, the share of model calls that produced a state-changing action. The episode
loop owns the call counts, so they are optional inputs; without them API efficiency is
``None`` and shows as ``-`` in tables (as for the paper's human row).

Over episodes (:func:`aggregate`): Suc.Rate, R/M.S and API Eff. are percentages (means of
the per-episode ratios), A.Score, Score/Step and Clear/Step plain means.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games._tables import text_table
from langgraph_games.games.match2.rules import Match2State, Outcome
from langgraph_games.games.session import GameSession

__all__ = ["COLUMNS", "Match2Metrics", "aggregate", "episode_metrics", "format_table"]

COLUMNS = ("Sample", "Suc.Rate", "A.score", "R/M.S", "Score/Step", "Clear/Step", "API Eff.")
"""The columns of the paper's Match-2 table, in order."""


class Match2Metrics(TypedDict):
    """What :func:`aggregate` reads of one episode's metrics (:func:`episode_metrics` writes more).

    Results files are checked against it before a table reads them.
    """

    success: bool
    score: float
    remaining_ratio: float
    score_per_step: float
    clear_per_step: float
    api_efficiency: NotRequired[float | None]


def episode_metrics(
    session: GameSession,
    *,
    api_calls: int | None = None,
    valid_responses: int | None = None,
) -> JsonObject:
    """Metrics of one finished (or stopped) Match-2 episode.

    Args:
        session: The episode.
        api_calls: Model calls the episode took (from the episode loop).
        valid_responses: Calls whose answer was applied and used a step.

    Raises:
        TypeError: The session is not a Match-2 episode.
        ValueError: ``valid_responses`` is given without ``api_calls`` or exceeds it.
    """
    state = session.state
    if not isinstance(state, Match2State):
        raise TypeError(f"not a Match-2 episode: {session.game.versioned_id}")
    if valid_responses is not None and (api_calls is None or valid_responses > api_calls):
        raise ValueError("valid_responses needs api_calls and cannot exceed it")
    used = state.steps_used
    efficiency = None
    if api_calls is not None:
        efficiency = (valid_responses or 0) / api_calls if api_calls else 0.0
    return {
        "level_id": state.level_id,
        "outcome": state.outcome or "unfinished",
        "success": state.outcome == Outcome.CLEARED,
        "score": state.score,
        "steps_used": used,
        "steps_left": state.steps_left,
        "max_steps": state.max_steps,
        "remaining_ratio": state.steps_left / state.max_steps if state.max_steps else 0.0,
        "score_per_step": state.score / used if used else 0.0,
        "clear_per_step": state.cleared / used if used else 0.0,
        "cleared": state.cleared,
        "invalid_steps": state.invalid_steps,
        "api_calls": api_calls,
        "valid_responses": valid_responses,
        "api_efficiency": efficiency,
    }


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def aggregate(episodes: Iterable[Mapping[str, Any]]) -> dict[str, float | int | None]:
    """The paper's table row over episodes from :func:`episode_metrics`.

    Example:
        >>> row = aggregate([
        ...     {"success": True, "score": 300, "remaining_ratio": 0.2,
        ...      "score_per_step": 25.0, "clear_per_step": 6.0, "api_efficiency": 0.5},
        ...     {"success": False, "score": 100, "remaining_ratio": 0.0,
        ...      "score_per_step": 10.0, "clear_per_step": 4.0, "api_efficiency": None},
        ... ])
        >>> row["Suc.Rate"], row["A.score"], row["R/M.S"], row["API Eff."]
        (50.0, 200.0, 10.0, 50.0)
    """
    rows = list(episodes)
    efficiency = [float(r["api_efficiency"]) for r in rows if r.get("api_efficiency") is not None]
    return {
        "Sample": len(rows),
        "Suc.Rate": 100 * _mean([float(r["success"]) for r in rows]),
        "A.score": _mean([float(r["score"]) for r in rows]),
        "R/M.S": 100 * _mean([float(r["remaining_ratio"]) for r in rows]),
        "Score/Step": _mean([float(r["score_per_step"]) for r in rows]),
        "Clear/Step": _mean([float(r["clear_per_step"]) for r in rows]),
        "API Eff.": 100 * _mean(efficiency) if efficiency else None,
    }


def format_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """The paper's Match-2 table: one line per labelled row from :func:`aggregate`."""
    return text_table(("Model", *COLUMNS), rows)
