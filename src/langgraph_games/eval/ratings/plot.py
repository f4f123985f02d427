"""The leaderboard plot (PNG): each board's ranking rating and win rate, in rank order.

One row of two panels per board: the rating players are ranked by (a dot, its interval
as a line, the low end the rank uses as a bar end, the value written beside it) and the
win rate (a bar with its value written at its end, so a zero shows as ``0.00`` and a
dot at zero). Player names are labelled ``rank. name``, shortened in the middle to
:data:`LABEL_WIDTH` characters (the table keeps the full name; the rank links the two),
with ``*`` for a provisional player. The legend sits under the panels, outside them.

Needs matplotlib (the ``plots`` extra); :func:`~langgraph_games.eval.ratings.render.
write_leaderboard` imports this module only then, and says so when it is missing. Drawn
on matplotlib's Agg canvas: no display, no pyplot global state.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from langgraph_games.eval.ratings.leaderboard import Board, Leaderboard
from langgraph_games.eval.ratings.render import PROVISIONAL

__all__ = ["LABEL_WIDTH", "player_label", "plot_leaderboard"]

LABEL_WIDTH = 28
"""Longest player label on the plot, in characters (rank and mark included)."""


def player_label(rank: int, name: str, provisional: bool = False, width: int = LABEL_WIDTH) -> str:
    """``rank. name``, the name shortened in the middle to fit ``width`` characters.

    Example:
        >>> player_label(1, "random")
        '1. random'
        >>> player_label(2, "gamebot:variant=cot:openai:gpt-4o-mini-2024", provisional=True)
        '2. gamebot:var…o-mini-2024 *'
    """
    prefix, suffix = f"{rank}. ", f" {PROVISIONAL}" if provisional else ""
    room = max(5, width - len(prefix) - len(suffix))
    if len(name) > room:
        head = (room - 1) // 2
        name = name[:head] + "…" + name[len(name) - (room - 1 - head) :]
    return prefix + name + suffix


def _labels(board: Board) -> list[str]:
    return [
        player_label(rank, s.player, s.provisional)
        for rank, s in enumerate(board.standings, start=1)
    ]


def _ratings(axes: Axes, board: Board, ci: str, legend: bool) -> None:
    ys = list(range(len(board.standings)))[::-1]  # the best on top
    for y, s in zip(ys, board.standings, strict=True):
        r = s.rating
        if r.value is None:
            continue
        if r.low is not None and r.high is not None:
            axes.hlines(y, r.low, r.high, color="tab:blue", label=ci if legend else "_")
            axes.plot([r.low], [y], "|", color="tab:red", markersize=12, mew=2,
                      label="ranked by (low end)" if legend else None)  # fmt: skip
        axes.plot([r.value], [y], "o", color="tab:blue", label="rating" if legend else None)
        axes.annotate(f"{r.value:.0f}", (r.value, y), xytext=(0, 5),
                      textcoords="offset points", ha="center", fontsize=8)  # fmt: skip
        legend = False
    axes.set_yticks(ys, _labels(board))
    axes.set_ylim(-0.7, len(ys) - 0.3)
    axes.set_xlabel(f"rating ({ci})")
    axes.grid(axis="x", alpha=0.3)


def _win_rates(axes: Axes, board: Board) -> None:
    ys = list(range(len(board.standings)))[::-1]
    rates = [s.win_rate.value if s.win_rate.value is not None else 0.0 for s in board.standings]
    axes.barh(ys, rates, color="tab:green", height=0.6, label="win rate")
    axes.plot(rates, ys, "o", color="tab:green", markersize=4)  # a zero bar stays visible
    for y, rate in zip(ys, rates, strict=True):
        axes.annotate(f"{rate:.2f}", (rate, y), xytext=(4, 0), textcoords="offset points",
                      va="center", fontsize=8)  # fmt: skip
    axes.set_xlim(0.0, 1.15)  # room for the value written after a full bar
    axes.set_ylim(-0.7, len(ys) - 0.3)
    axes.set_yticks(ys, [""] * len(ys))  # the names are on the left panel, same rows
    axes.set_xlabel("win rate (a draw counts half)")
    axes.grid(axis="x", alpha=0.3)


def plot_leaderboard(leaderboard: Leaderboard, path: str | Path) -> Path:
    """Draw one row per board: the ranking rating and the win rate.

    Args:
        leaderboard: The boards.
        path: The PNG file (its folder is created).
    """
    boards = leaderboard.boards
    height = 1.2 + sum(1.0 + 0.4 * max(1, len(b.standings)) for b in boards)
    figure = Figure(figsize=(11, max(3.0, height)), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(
        len(boards),
        2,
        squeeze=False,
        width_ratios=[3, 2],
        height_ratios=[max(1, len(b.standings)) for b in boards],
    )
    ci = f"{round(100 * leaderboard.settings.confidence)}% CI"
    for number, (row, board) in enumerate(zip(grid, boards, strict=True)):
        _ratings(row[0], board, ci, legend=number == 0)
        _win_rates(row[1], board)
        row[0].set_title(f"{board.name}: {board.matches} matches", loc="left")
    handles, labels = grid[0][0].get_legend_handles_labels()
    more, more_labels = grid[0][1].get_legend_handles_labels()
    note = f"{PROVISIONAL}: fewer than {leaderboard.settings.min_matches} matches"
    figure.legend(
        handles + more,
        labels + more_labels,
        loc="outside lower center",
        ncols=len(labels) + len(more_labels),
        title=f"rank by the rating's low end; {note}",
        fontsize=8,
        title_fontsize=8,
    )
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, format="png")
    return out
