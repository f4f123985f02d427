"""The leaderboard plot (PNG): each board's Elo and skill ``mu`` with their intervals.

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
from langgraph_games.eval.ratings.stats import Estimate

__all__ = ["plot_leaderboard"]


def _bars(axes: Axes, board: Board, pick: str, label: str) -> None:
    names = [s.player for s in board.standings]
    estimates: list[Estimate] = [getattr(s, pick) for s in board.standings]
    ys = list(range(len(names)))[::-1]  # the best on top
    values = [e.value if e.value is not None else float("nan") for e in estimates]
    # Each interval as a line from its low end to its high end: a percentile bootstrap
    # interval need not hold the point estimate (few matches), which error bars cannot draw.
    spans = [
        (y, e.low, e.high)
        for y, e in zip(ys, estimates, strict=True)
        if e.low is not None and e.high is not None
    ]
    if spans:
        axes.hlines(
            [y for y, _, _ in spans], [low for _, low, _ in spans], [h for _, _, h in spans]
        )
    axes.plot(values, ys, "o")
    axes.set_yticks(ys, names)
    axes.set_xlabel(label)
    axes.grid(axis="x", alpha=0.3)


def plot_leaderboard(leaderboard: Leaderboard, path: str | Path) -> Path:
    """Draw one row per board: Elo and skill ``mu``, each player's interval as a bar.

    Args:
        leaderboard: The boards.
        path: The PNG file (its folder is created).
    """
    boards = leaderboard.boards
    height = sum(1.0 + 0.35 * max(1, len(b.standings)) for b in boards)
    figure = Figure(figsize=(11, max(3.0, height)), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(
        len(boards),
        2,
        squeeze=False,
        height_ratios=[max(1, len(b.standings)) for b in boards],
    )
    ci = f"{round(100 * leaderboard.settings.confidence)}% CI"
    for row, board in zip(grid, boards, strict=True):
        _bars(row[0], board, "elo", f"Elo ({ci})")
        _bars(row[1], board, "mu", f"skill mu ({ci})")
        row[0].set_title(f"{board.name}: {board.matches} matches", loc="left")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, format="png")
    return out
