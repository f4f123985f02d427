"""Report plots (PNG) with matplotlib's Agg canvas: no display, no pyplot global state.

Needs matplotlib (the ``plots`` extra); :func:`~langgraph_games.eval.reports.report.write_report`
imports this module only when plots are wanted and says so when matplotlib is missing.

- ``o_vs_i.png``: every (player, game) of the arenas at (I, O), with Pearson's r over the
  points: GAMEBoT's correlation between intermediate and outcome scores.
- ``arena_by_game.png``: O and I per game, a bar per player.
- ``episodes_<family>.png``: each evaluation family's headline figures per label.
- ``learning_curves.png``: success rate and score over training rounds, a line per run
  (reverted rounds marked with a cross).
- ``truths_per_round.png``: the test score and the number of active truths per round.
- ``achievements.png``: Crafter achievement unlock rates per label.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from langgraph_games.eval.reports.report import Report, round_rows
from langgraph_games.eval.running.records import RoundLine
from langgraph_games.eval.scoring.metrics import PlayerRow
from langgraph_games.games.crafter.metrics import success_rates

__all__ = [
    "draw_all",
    "pearson",
    "plot_achievements",
    "plot_arena_bars",
    "plot_episode_bars",
    "plot_learning_curves",
    "plot_o_vs_i",
]


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
    return path


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation, or ``None`` with fewer than 3 points or no spread.

    Example:
        >>> pearson([0, 1, 2], [1, 3, 5])
        1.0
    """
    n = len(xs)
    if n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return round(sxy / math.sqrt(sxx * syy), 12)


def plot_o_vs_i(rows: Sequence[PlayerRow], path: Path) -> Path | None:
    """Scatter of O against I per (player, game); ``None`` when no player has an I."""
    points = [(r, i) for r in rows if (i := r["I"]) is not None]
    if not points:
        return None
    figure = _figure(6.4, 4.8)
    ax = figure.subplots()
    players = list(dict.fromkeys(r["player"] for r, _ in points))
    for player in players:
        mine = [(r, i) for r, i in points if r["player"] == player]
        ax.scatter([i for _, i in mine], [float(r["O"]) for r, _ in mine], label=player)
        for r, i in mine:
            ax.annotate(r.get("game", "").split("-v")[0], (i, float(r["O"])),
                        fontsize=7, xytext=(3, 3), textcoords="offset points")  # fmt: skip
    r_value = pearson([i for _, i in points], [float(r["O"]) for r, _ in points])
    title = "O against I"
    title += f" (Pearson r = {r_value:.2f}, n = {len(points)})" if r_value is not None else ""
    ax.set_title(title)
    ax.set_xlabel("I (intermediate subproblems)")
    ax.set_ylabel("O (outcome)")
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-1.05, 1.05)
    ax.axhline(0, color="#999", linewidth=0.5)
    ax.legend(fontsize=8)
    return _save(figure, path)


def _grouped_bars(
    ax: Any, groups: Sequence[str], series: Mapping[str, Sequence[float | None]]
) -> None:
    width = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(groups))]
        heights = [float("nan") if v is None else float(v) for v in values]
        ax.bar(xs, heights, width=width, label=name)
    ax.set_xticks(range(len(groups)), groups, fontsize=8)
    ax.set_xlim(-0.5, len(groups) - 0.5)
    if len(series) > 1:
        ax.legend(fontsize=8)


def plot_arena_bars(rows: Sequence[PlayerRow], path: Path) -> Path | None:
    """O and I per game, a bar per player; ``None`` without arena rows."""
    if not rows:
        return None
    games = sorted({r.get("game", "") for r in rows})
    players = list(dict.fromkeys(r["player"] for r in rows))
    cell = {(r["player"], r.get("game", "")): r for r in rows}
    figure = _figure(max(6.4, 1.6 * len(games) + 3), 6.4)
    top, bottom = figure.subplots(2, 1)
    for ax, key in ((top, "O"), (bottom, "I")):
        series = {
            p: [
                None if (p, g) not in cell else (cell[(p, g)]["O" if key == "O" else "I"])
                for g in games
            ]
            for p in players
        }
        _grouped_bars(ax, [g.split("-v")[0] for g in games], series)
        ax.set_ylabel(key)
        ax.axhline(0, color="#999", linewidth=0.5)
    top.set_title("Outcome (O) and intermediate (I) scores per game")
    return _save(figure, path)


def plot_episode_bars(
    family: str, figures: Mapping[str, Mapping[str, float | None]], path: Path
) -> Path | None:
    """A family's headline figures (x) with a bar per label; ``None`` if there are none."""
    if not figures:
        return None
    names = list(dict.fromkeys(name for values in figures.values() for name in values))
    series = {label: [values.get(name) for name in names] for label, values in figures.items()}
    figure = _figure(max(6.4, 1.4 * len(names) + 3), 4.0)
    ax = figure.subplots()
    _grouped_bars(ax, names, series)
    ax.set_title(f"{family}: headline figures per run")
    return _save(figure, path)


def plot_learning_curves(curves: Mapping[str, Sequence[RoundLine]], path: Path) -> Path | None:
    """Success rate and score over rounds, a line per curve; ``None`` without rounds."""
    if not curves:
        return None
    figure = _figure(7.0, 6.0)
    top, bottom = figure.subplots(2, 1, sharex=True)
    for ax, key, label in ((top, "success_rate", "success %"), (bottom, "score", "score")):
        for name, rows in curves.items():
            # Hand-made round lines may lack either figure or the reverted flag.
            points = [(r["round"], value, r.get("reverted", False)) for r in rows
                      if (value := _figure_of(r, key)) is not None]  # fmt: skip
            if not points:
                continue
            xs = [p[0] for p in points]
            ys = [float(p[1]) for p in points]
            if key == "success_rate" and all(y <= 1.0 for y in ys):
                ys = [100 * y for y in ys]
            (line,) = ax.plot(xs, ys, marker="o", label=name)
            reverted = [(x, y) for (x, _, rev), y in zip(points, ys, strict=True) if rev]
            if reverted:
                ax.scatter(*zip(*reverted, strict=True), marker="x", s=80, color=line.get_color())
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    top.set_title("Learning curves over training rounds (x: reverted round)")
    bottom.set_xlabel("round")
    top.legend(fontsize=8)
    return _save(figure, path)


def plot_truths(curves: Mapping[str, Sequence[RoundLine]], path: Path) -> Path | None:
    """Test score and active truths per round, a line each per run (``None``: no such rounds).

    Drawn from the test records that carry ``truths_active`` (ExpVer's ``round/<r>/test``).
    """
    tests = {
        name: [r for r in rows if r.get("truths_active") is not None and r.get("score") is not None]
        for name, rows in curves.items()
    }
    tests = {name: rows for name, rows in tests.items() if rows}
    if not tests:
        return None
    figure = _figure(7.0, 6.0)
    top, bottom = figure.subplots(2, 1, sharex=True)
    for name, rows in tests.items():
        xs = [int(r["round"]) for r in rows]
        (line,) = top.plot(xs, [float(r["score"]) for r in rows], marker="o", label=name)
        bottom.step(xs, [int(r["truths_active"]) for r in rows], where="post",
                    color=line.get_color(), label=name)  # fmt: skip
        reverted = [
            (x, float(r["score"])) for x, r in zip(xs, rows, strict=True) if r.get("reverted")
        ]
        if reverted:
            top.scatter(*zip(*reverted, strict=True), marker="x", s=80, color=line.get_color())
    top.set_ylabel("test score")
    bottom.set_ylabel("active truths")
    bottom.set_xlabel("round")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.set_title("Test score and active truths per round (x: reverted round)")
    top.legend(fontsize=8)
    return _save(figure, path)


def _figure_of(record: RoundLine, key: str) -> float | None:
    return record.get("success_rate") if key == "success_rate" else record.get("score")


def plot_achievements(rates: Mapping[str, Mapping[str, float]], path: Path) -> Path | None:
    """Horizontal bars of unlock rates (%) per achievement, a bar per label."""
    if not rates:
        return None
    achievements = list(next(iter(rates.values())))
    figure = _figure(7.0, 0.3 * len(achievements) * max(1, len(rates)) + 1.5)
    ax = figure.subplots()
    height = 0.8 / len(rates)
    for k, (label, values) in enumerate(rates.items()):
        ys = [i + (k - (len(rates) - 1) / 2) * height for i in range(len(achievements))]
        ax.barh(ys, [values[a] for a in achievements], height=height, label=label)
    ax.set_yticks(range(len(achievements)), achievements, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("unlocked in % of episodes")
    ax.set_title("Crafter achievement unlock rates")
    ax.legend(fontsize=8)
    return _save(figure, path)


def draw_all(
    report: Report, headlines: Mapping[str, Mapping[str, Mapping[str, float | None]]], out: Path
) -> list[Path]:
    """Every plot the report's contents allow; returns the files written."""
    made: list[Path | None] = [
        plot_o_vs_i(report.arena_rows, out / "o_vs_i.png"),
        plot_arena_bars(report.arena_rows, out / "arena_by_game.png"),
    ]
    for family, figures in headlines.items():
        made.append(plot_episode_bars(family, figures, out / f"episodes_{family}.png"))
    made.append(plot_learning_curves(round_rows(report.rounds), out / "learning_curves.png"))
    made.append(plot_truths(round_rows(report.rounds), out / "truths_per_round.png"))
    crafter = report.episodes.get("crafter")
    if crafter:
        rates = {label: success_rates(episodes) for label, episodes in crafter.items() if episodes}
        made.append(plot_achievements(rates, out / "achievements.png"))
    return [path for path in made if path is not None]
