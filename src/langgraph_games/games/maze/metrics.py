"""The EvoEmpirBench maze metrics (paper Table 3/4) from finished episodes.

Per episode (:func:`episode_metrics`): success (the goal was reached: one definition for
training and evaluation), the score (the sum of the step rewards the
engine paid, paper scoring), steps, exploration (explored non-wall cells over non-wall
cells), gold (coins over 5), lives left, kills and walls broken. ``custom_score`` is the
released evaluation script's recomputed score (``500 coins + 10 newly explored cells +
500 kills + 500 walls + 2000 success - 50 steps``), kept for parity runs.

Over episodes (:func:`aggregate`): the paper's row. Rates are percentages (Suc.Rate,
A.Explor, A.Gold), the others plain means, as the paper's tables print them. A.Score is
the paper's "mean cumulative reward", the mean engine score; the released evaluation
script printed the mean ``custom_score`` there instead, which :func:`format_table` adds
as the column ``A.Score(rel.)`` when asked (``langgraph-games eval maze --released-score``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games._tables import text_table
from langgraph_games.games.maze.rules import MazeState, Outcome
from langgraph_games.games.session import GameSession

__all__ = [
    "COLUMNS",
    "RELEASED_SCORE",
    "MazeMetrics",
    "aggregate",
    "episode_metrics",
    "format_table",
]

COLUMNS = (
    "Samp.",
    "Suc.Rate",
    "A.Score",
    "A.steps",
    "A.Explor.",
    "A.Gold",
    "Rem.HP",
    "A.kills",
    "A.Barr.",
)
"""The columns of the paper's maze table, in order."""

RELEASED_SCORE = "A.Score(rel.)"
"""The released evaluation script's A.Score: the mean ``custom_score``."""


class MazeMetrics(TypedDict):
    """What :func:`aggregate` reads of one episode's metrics (:func:`episode_metrics` writes more).

    Results files are checked against it before a table reads them.
    """

    success: bool
    score: float
    steps: float
    exploration: float
    gold: float
    lives: float
    kills: float
    walls_broken: float
    custom_score: NotRequired[float]


def episode_metrics(session: GameSession, *, api_calls: int | None = None) -> JsonObject:
    """Metrics of one finished (or stopped) maze episode.

    Args:
        session: The episode.
        api_calls: Model calls the episode took, if the loop counted them.

    Returns:
        A JSON-friendly dict.

    Raises:
        TypeError: The session is not a maze episode.
    """
    state = session.state
    if not isinstance(state, MazeState):
        raise TypeError(f"not a maze episode: {session.game.versioned_id}")
    success = state.outcome == Outcome.GOAL
    explorable = state.explorable
    newly_explored = state.explored - state.initial_explored
    custom = (
        500 * state.coins
        + 10 * newly_explored
        + 500 * state.kills
        + 500 * state.walls_broken
        + 2000 * int(success)
        - 50 * state.turn
    )
    return {
        "map_id": state.map_id,
        "level": state.level,
        "outcome": state.outcome or "unfinished",
        "success": success,
        "score": state.score,
        "custom_score": custom,
        "steps": state.turn,
        "exploration": min(1.0, state.explored / explorable) if explorable else 0.0,
        "explored_cells": state.explored,
        "coins": state.coins,
        "gold": state.coins / 5,
        "lives": state.lives,
        "kills": state.kills,
        "walls_broken": state.walls_broken,
        "api_calls": api_calls,
    }


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def aggregate(
    episodes: Iterable[Mapping[str, Any]], *, score_key: str = "score"
) -> dict[str, float | int]:
    """The paper's table row over episodes from :func:`episode_metrics`.

    Args:
        episodes: Per-episode metric dicts.
        score_key: ``"score"`` (engine score, paper scoring) or ``"custom_score"`` (the
            released evaluation script's recomputation).

    Example:
        >>> row = aggregate([
        ...     {"success": True, "score": 3000, "steps": 20, "exploration": 0.8,
        ...      "gold": 1.0, "lives": 3, "kills": 0, "walls_broken": 1},
        ...     {"success": False, "score": -500, "steps": 40, "exploration": 0.5,
        ...      "gold": 0.2, "lives": 0, "kills": 1, "walls_broken": 0},
        ... ])
        >>> row["Suc.Rate"], row["A.Score"], row["A.Gold"], row["Rem.HP"]
        (50.0, 1250.0, 60.0, 1.5)
    """
    rows = list(episodes)
    released = [float(r["custom_score"]) for r in rows if "custom_score" in r]
    row: dict[str, float | int] = {
        "Samp.": len(rows),
        "Suc.Rate": 100 * _mean([float(r["success"]) for r in rows]),
        "A.Score": _mean([float(r[score_key]) for r in rows]),
        "A.steps": _mean([float(r["steps"]) for r in rows]),
        "A.Explor.": 100 * _mean([float(r["exploration"]) for r in rows]),
        "A.Gold": 100 * _mean([float(r["gold"]) for r in rows]),
        "Rem.HP": _mean([float(r["lives"]) for r in rows]),
        "A.kills": _mean([float(r["kills"]) for r in rows]),
        "A.Barr.": _mean([float(r["walls_broken"]) for r in rows]),
    }
    if rows and len(released) == len(rows):
        row[RELEASED_SCORE] = _mean(released)
    return row


def format_table(
    rows: Mapping[str, Mapping[str, float | int]], *, released_score: bool = False
) -> str:
    """The paper's maze table: one line per labelled row from :func:`aggregate`.

    Args:
        rows: Aggregated rows by label.
        released_score: Add the column ``A.Score(rel.)`` after A.Score: the mean
            ``custom_score``, what the released evaluation script printed as A.Score.
    """
    columns = list(COLUMNS)
    if released_score:
        columns.insert(columns.index("A.Score") + 1, RELEASED_SCORE)
    return text_table(("Model", *columns), rows)
