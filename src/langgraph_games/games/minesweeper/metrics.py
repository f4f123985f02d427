"""The Minesweeper Agent metrics (paper Section 5.2, Table 1) from finished episodes.

Per episode (:func:`episode_metrics`): the win, the steps (every answer the model gave,
invalid ones included, as the paper's loop counted them) and the invalid steps (answers
the environment answered with an ``invalid ...`` string). With ``invalid_moves="step"``
the engine sees every answer; answers an episode loop rejected without applying them
(``invalid_moves="reject"``, or re-asks) are passed as ``rejected_answers`` and count as
both steps and invalid steps.

Over episodes (:func:`aggregate`): winning rate (a fraction, as in Table 1), average
steps and average invalid steps. :func:`format_table1` prints Table 1's layout: one line
per mine count and prompt variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langgraph_games.games._tables import text_table
from langgraph_games.games.minesweeper.rules import MinesweeperState, Status
from langgraph_games.games.session import GameSession

__all__ = ["COLUMNS", "aggregate", "episode_metrics", "format_table1"]

COLUMNS = ("Winning Rate", "Average Steps", "Average Invalid Steps")


def episode_metrics(session: GameSession, *, rejected_answers: int = 0) -> dict[str, Any]:
    """Metrics of one finished (or stopped) Minesweeper episode.

    Args:
        session: The episode.
        rejected_answers: Answers the loop refused without applying them.

    Raises:
        TypeError: The session is not a Minesweeper episode.
    """
    state = session.state
    if not isinstance(state, MinesweeperState):
        raise TypeError(f"not a Minesweeper episode: {session.game.versioned_id}")
    return {
        "rows": state.rows,
        "cols": state.cols,
        "mines": len(state.mines),
        "status": state.status,
        "win": state.status == Status.WON,
        "steps": state.turn + rejected_answers,
        "invalid_steps": state.invalid_steps + rejected_answers,
    }


def aggregate(episodes: Iterable[Mapping[str, Any]]) -> dict[str, float | int]:
    """Winning rate, average steps and average invalid steps over episodes.

    Example:
        >>> aggregate([{"win": True, "steps": 3, "invalid_steps": 0},
        ...            {"win": False, "steps": 5, "invalid_steps": 1}])
        {'Games': 2, 'Winning Rate': 0.5, 'Average Steps': 4.0, 'Average Invalid Steps': 0.5}
    """
    rows = list(episodes)
    n = len(rows)
    return {
        "Games": n,
        "Winning Rate": sum(1 for r in rows if r["win"]) / n if n else 0.0,
        "Average Steps": sum(float(r["steps"]) for r in rows) / n if n else 0.0,
        "Average Invalid Steps": sum(float(r["invalid_steps"]) for r in rows) / n if n else 0.0,
    }


def format_table1(rows: Mapping[tuple[int, str], Mapping[str, Any]]) -> str:
    """Table 1's layout: rows keyed by ``(mines, variant label)``, in the given order."""
    labelled = {f"{mines} | {variant}": row for (mines, variant), row in rows.items()}
    table = text_table(("Mines | Model", *COLUMNS), labelled)
    return table
