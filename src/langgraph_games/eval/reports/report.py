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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

from langgraph_games.eval.costs import PriceTable, cost_section, load_prices
from langgraph_games.eval.running.arena import summarize_file
from langgraph_games.eval.running.records import Loaded, RoundLine, load_results
from langgraph_games.eval.running.runner import EpisodeGroups, format_groups, group_episodes
from langgraph_games.eval.running.training_report import round_table
from langgraph_games.eval.scoring.cross_game import CrossGameTable, cross_game_from_rows
from langgraph_games.eval.scoring.families import family_of
from langgraph_games.eval.scoring.metrics import PlayerRow, Scoring
from langgraph_games.eval.scoring.smartplay_summary import SmartPlaySummary, smartplay_summary
from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.games.smartplay.metrics import is_smartplay_game
from langgraph_games.graphs.expver.records import RoundRecord, TestRound, TrainRound, woven

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
        costs: The cost section (:func:`~langgraph_games.eval.costs.cost_section`), after
            the tables; empty when no player used a model.
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
    costs: str = ""

    @property
    def empty(self) -> bool:
        """Whether no table could be made."""
        return not self.sections

    def markdown(self) -> str:
        """The whole report: tables, then what was skipped."""
        parts = [f"{text.rstrip()}\n" for _, text in self.sections]
        if self.costs:
            parts.append(f"{self.costs.rstrip()}\n")
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


_TRAIN_ROUND = TypeAdapter(TrainRound)
_TEST_ROUND = TypeAdapter(TestRound)


def _is_expver(records: Sequence[RoundLine]) -> bool:
    """Whether a curve's records are ``train``'s own: each a whole train or test round."""
    for record in records:
        adapter = _TRAIN_ROUND if record.get("split") == "train" else _TEST_ROUND
        try:
            adapter.validate_python(record)
        except ValidationError:
            return False
    return True


def _round_sections(records: Sequence[RoundLine]) -> list[tuple[str, str]]:
    """``train``'s per-round table for each of its runs; the generic table for the others."""
    by_label: dict[str, list[RoundLine]] = defaultdict(list)
    for record in records:
        by_label[str(record["label"])].append(record)
    sections: list[tuple[str, str]] = []
    others: list[RoundLine] = []
    for label, rows in by_label.items():
        if _is_expver(rows):
            table = round_table(cast("list[RoundRecord]", rows))
            sections.append(
                (f"rounds {label}", f"## Training rounds (ExpVer): {label}\n\n{table}\n")
            )
        else:
            others += rows
    if others:
        sections.append(("rounds", "## Training rounds (ExpVer)\n\n" + rounds_table(others) + "\n"))
    return sections


def _smartplay_section(loaded: Loaded, groups: EpisodeGroups) -> SmartPlaySummary | None:
    """The ``smartplay`` command's tables when the episodes hold SmartPlay settings.

    The SmartPlay settings' files are summarised as ``smartplay`` prints them: Table 2, the
    capability scores, Table 4 and the per-setting details. A Crafter file joins them (as
    the Crafter column) when its agent label also played a SmartPlay setting, as in a
    ``smartplay`` run; other Crafter runs keep only their own table.
    """
    if "smartplay" not in groups.families:
        return None
    episodes = [item for item in loaded.records if item.record["kind"] == "episode"]
    labels = {
        item.record.get("label")
        for item in episodes
        if family_of(str(item.record["game"])).name == "smartplay"
    }
    paths = {
        item.path: None
        for item in episodes
        if is_smartplay_game(str(item.record["game"])) and item.record.get("label") in labels
    }
    return smartplay_summary(list(paths))


def build_report(
    paths: Sequence[str | Path], scoring: Scoring | None = None, prices: PriceTable | None = None
) -> Report:
    """Read results files and gather every table they hold.

    Args:
        paths: Results files.
        scoring: How arena matches are scored (default: the paper's O scale, I on each
            decision's first answer).
        prices: Model prices for the cost section, shown when a player used a model
            (default: :func:`~langgraph_games.eval.costs.load_prices`).

    Raises:
        ValueError: A path does not exist.
    """
    report = Report()
    loaded = load_results(list(paths))
    report.notes += loaded.notes
    for path in loaded.paths("match"):
        try:
            summary = summarize_file(path, scoring, matches=loaded.matches(path))
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
        report.episodes, report.episode_games = groups.families, groups.games
        smartplay = _smartplay_section(loaded, groups)
        if smartplay is not None:
            shown = {k: v for k, v in groups.families.items() if k != "smartplay"}
            groups = replace(groups, families=shown)
        text, _ = format_groups(groups)
        if text:
            report.sections.append(("episodes", text))
        report.notes += groups.notes
        if smartplay is not None:
            report.sections.append(("smartplay", smartplay.text))
            report.notes += smartplay.notes
    for item in loaded.records:
        if item.record["kind"] == "round":
            round_line = item.record.copy()
            round_line["label"] = item.record.get("label") or item.path.stem
            report.rounds.append(round_line)
    report.sections += _round_sections(report.rounds)
    report.costs = cost_section([item.record for item in loaded.records], prices or load_prices())
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
