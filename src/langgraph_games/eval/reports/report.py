"""Reports over results files: every paper table the results hold, plots, and what was skipped.

:func:`build_report` reads any mix of results files and gathers:

- **arena matches** (GAMEBoT): per file,
  :func:`~langgraph_games.eval.running.arena.summarize_file`'s O/I table per game (under
  the run's protocol line, read from the file's manifest) and the head-to-head W-D-L;
  over all files, when more than one game was played, the paper's Table 2: O and I per
  game with ``Avg. O``, ``Avg. I`` and ``Avg.``, a game a player did not finish counted
  as the paper did (:mod:`~langgraph_games.eval.scoring.cross_game`);
- **evaluation episodes**: the tables of
  :func:`~langgraph_games.eval.running.runner.summarize_episodes` (the same grouping and
  formatting), in each family's paper layout (EvoEmpirBench maze and Match-2,
  Minesweeper Table 1, SmartPlay Tables 2 and 4, Crafter score and achievement unlock
  rates);
- **training rounds** (ExpVer learning curves): records of ``kind: "round"``, see
  :data:`ROUND_FIELDS`, as a table per label.

Plots are drawn by :mod:`langgraph_games.eval.reports.plots` when matplotlib is installed (the
``plots`` extra); otherwise the report says they were skipped and why. Nothing here
raises on imperfect input: truncated lines, unregistered games, mixed specs, malformed
and failed records are left out, each with a note, and the rest is reported.
"""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph_games.eval.running.arena import summarize_file
from langgraph_games.eval.running.records import RoundLine, load_results
from langgraph_games.eval.running.runner import format_groups, group_episodes
from langgraph_games.eval.scoring.cross_game import CrossGameTable, cross_game_from_rows
from langgraph_games.eval.scoring.families import family_of
from langgraph_games.eval.scoring.metrics import PlayerRow, Scoring
from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.graphs.expver.records import woven

__all__ = ["ROUND_FIELDS", "Report", "build_report", "round_rows", "write_report"]

ROUND_FIELDS = {
    "kind": 'always "round"',
    "round": "round number (int, from 0 or 1)",
    "label": "the run or variant, e.g. 'expver' or 'no-truthweaver' (default: the file name)",
    "game": "game id (optional)",
    "split": "'train' or 'test' (optional; curves are drawn per label and split)",
    "success_rate": "share of successful episodes in the round, 0-1 (or a percentage)",
    "score": "mean score of the round's episodes",
    "steps": "mean steps (optional)",
    "truths_added": "truths added this round (optional)",
    "truths_merged": "truths merged by TruthWeaver this round (optional)",
    "duplicates": "candidates that repeated a truth's text (optional; with truths_merged, "
    "same_meaning and supported shown as 'merged')",
    "same_meaning": "candidates that said a truth in other words (optional)",
    "supported": "candidates that said part of a truth (optional)",
    "superseded": "truths retired by a contradiction this round (optional)",
    "refined": "truths replaced by a more specific one this round (optional)",
    "refused": "candidates refused as a retired lesson without new evidence (optional)",
    "reverted": "whether the round's truths were reverted (optional, bool)",
    "truths_reverted": "how many truths the revert took back (optional)",
    "truths_active": "active truths after the round (optional)",
}
"""The shape of a training-round record (one JSON line per round and split)."""


@dataclass
class Report:
    """Everything a report found.

    Attributes:
        sections: ``(title, markdown)`` in print order.
        notes: What was skipped and why.
        arena_rows: Per-player rows of every arena game (each with its ``game``).
        arena_csv: ``{file name: CSV text}`` of the arena tables.
        episodes: ``{family: {label: [metrics, ...]}}`` of evaluation episodes.
        episode_games: A game id per family.
        rounds: Training-round records (with ``label``).
        unfinished: ``{game: players}`` seated in arena matches of a game who finished
            none of them.
        cross_game: The paper's cross-game table, when more than one game was played.
    """

    sections: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    arena_rows: list[PlayerRow] = field(default_factory=list)
    arena_csv: dict[str, str] = field(default_factory=dict)
    episodes: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    episode_games: dict[str, str] = field(default_factory=dict)
    rounds: list[RoundLine] = field(default_factory=list)
    unfinished: dict[str, list[str]] = field(default_factory=dict)
    cross_game: CrossGameTable | None = None

    @property
    def empty(self) -> bool:
        """Whether no table could be made."""
        return not self.sections

    def markdown(self) -> str:
        """The whole report: tables, then what was skipped."""
        parts = [f"{text.rstrip()}\n" for _, text in self.sections]
        if self.notes:
            parts.append(
                "## Notes: what was skipped or kept apart, and why\n\n"
                + "\n".join(f"- {note}" for note in self.notes)
                + "\n"
            )
        return "\n".join(parts)


def _unique(notes: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(notes))


def round_rows(records: Sequence[RoundLine]) -> dict[str, list[RoundLine]]:
    """Training-round records by curve (``label`` or ``label (split)``), sorted by round."""
    curves: dict[str, list[RoundLine]] = defaultdict(list)
    for record in records:
        name = record.get("label") or "run"
        if record.get("split"):
            name += f" ({record['split']})"
        curves[name].append(record.copy())
    return {name: sorted(rows, key=lambda r: int(r["round"])) for name, rows in curves.items()}


def _percent(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return 100 * number if number <= 1.0 else number


def rounds_table(records: Sequence[RoundLine]) -> str:
    """One line per round of each curve."""
    body = []
    for name, rows in round_rows(records).items():
        for r in rows:
            counts = woven(r) if "truths_added" in r else {}
            reverted: int | str | None = r.get("truths_reverted")
            if reverted is None and "reverted" in r:
                reverted = "yes" if r["reverted"] else "no"
            body.append(
                [
                    name,
                    int(r["round"]),
                    _percent(r.get("success_rate")),
                    None if r.get("score") is None else float(r["score"]),
                    None if r.get("steps") is None else float(r["steps"]),
                    *(counts.get(key) for key in ("added", "merged", "superseded", "refused")),
                    reverted,
                    r.get("truths_active"),
                ]
            )
    headers = ["run", "round", "success %", "score", "steps", "added", "merged", "superseded"]
    headers += ["refused", "reverted", "active truths"]
    return markdown_table(headers, body)


def build_report(paths: Sequence[str | Path], scoring: Scoring | None = None) -> Report:
    """Read results files and gather every table they hold.

    Args:
        paths: Results files.
        scoring: How arena matches are scored (default: the paper's O scale, I on each
            decision's first answer).

    Raises:
        ValueError: A path does not exist.
    """
    report = Report()
    loaded = load_results(list(paths))
    report.notes += loaded.notes
    for path in loaded.paths("match"):
        try:
            summary = summarize_file(path, scoring)
        except ValueError as exc:  # e.g. every match of the file failed
            report.notes.append(f"{path.name}: {exc}")
            continue
        rows, notes = summary.rows, summary.notes
        for game, players in summary.unfinished.items():
            known = report.unfinished.setdefault(game, [])
            known += [p for p in players if p not in known]
        report.sections.append((f"arena {path.name}", summary.markdown))
        seen = {(str(r["player"]), str(r["game"])) for r in report.arena_rows}
        for row in rows:
            if (str(row["player"]), str(row["game"])) in seen:
                renamed = f"{row['player']} [{path.stem}]"
                notes.append(
                    f"{path.name}: {row['player']} also played {row['game']} in another file; "
                    f"its row in the cross-game table and plots is '{renamed}'"
                )
                row = {**row, "player": renamed}
            report.arena_rows.append(row)
        report.arena_csv[f"{path.stem}.csv"] = summary.csv
        report.notes += notes
    games = {str(r["game"]) for r in report.arena_rows} | set(report.unfinished)
    if len(games) > 1:
        report.cross_game = cross_game_from_rows(report.arena_rows, report.unfinished)
        report.sections.append(("arena games", report.cross_game.markdown()))
    episode_paths = loaded.paths("episode")
    if episode_paths:
        groups = group_episodes(list(episode_paths))
        text, _ = format_groups(groups)
        report.episodes, report.episode_games = groups.families, groups.games
        if text:
            report.sections.append(("episodes", text))
        report.notes += groups.notes
    for item in loaded.records:
        if item.record["kind"] == "round":
            round_line = item.record.copy()
            round_line["label"] = item.record.get("label") or item.path.stem
            report.rounds.append(round_line)
    if report.rounds:
        report.sections.append(
            ("rounds", "## Training rounds (ExpVer)\n\n" + rounds_table(report.rounds) + "\n")
        )
    report.notes = _unique(report.notes)
    return report


def headlines(report: Report) -> dict[str, dict[str, dict[str, float | None]]]:
    """``{family: {label: {figure: value}}}``: each family's main figures, for bar plots."""
    result: dict[str, dict[str, dict[str, float | None]]] = {}
    for family_name, rows in report.episodes.items():
        family = family_of(report.episode_games[family_name])
        if family.headline is None:
            continue
        result[family_name] = {label: family.headline(episodes) for label, episodes in rows.items()}
    return result


@dataclass
class Written:
    """Files a report wrote, and why plots were skipped if they were."""

    markdown: Path
    csv: list[Path] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)
    plots_skipped: str | None = None


def write_report(report: Report, out_dir: str | Path, *, plots: bool = True) -> Written:
    """Write ``report.md``, the arena CSV tables and (with matplotlib) the plots.

    Args:
        report: From :func:`build_report`.
        out_dir: Folder (created); plots go to ``out_dir/plots``.
        plots: Draw plots (when matplotlib is installed).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = Written(markdown=out / "report.md")
    for name, text in report.arena_csv.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.csv.append(path)
    if not plots:
        written.plots_skipped = "plots were not asked for (--no-plots)"
    else:
        try:
            plotting = importlib.import_module("langgraph_games.eval.reports.plots")
        except ImportError as exc:
            written.plots_skipped = (
                f"plots skipped: matplotlib is not installed ({exc}); install the 'plots' "
                "extra: pip install -e '.[plots]' in a source checkout"
            )
        else:
            written.plots = plotting.draw_all(report, headlines(report), out / "plots")
            if not written.plots:
                written.plots_skipped = "no plots: the results hold nothing to plot"
    text = report.markdown()
    if written.plots:
        text += (
            "\n## Plots\n\n"
            + "\n".join(f"![{p.stem}](plots/{p.name})" for p in written.plots)
            + "\n"
        )
    if written.plots_skipped:
        text += f"\n{written.plots_skipped}\n"
    written.markdown.write_text(text, encoding="utf-8")
    return written
