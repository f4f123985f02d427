"""SmartPlay's tables of per-episode metrics: Table 2, capability scores, Table 4, details.

:func:`smartplay_tables` renders what ``smartplay`` prints, what ``eval`` prints for a
SmartPlay setting and what ``report`` writes, from the per-episode metrics by agent label.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.games.parts import parts_of
from langgraph_games.games.smartplay import metrics

__all__ = ["MINECRAFT_OFFLINE", "smartplay_scores", "smartplay_tables"]

MINECRAFT_OFFLINE = (
    "Minecraft (MinedojoCreative0) cannot run offline: SmartPlay plays it through MineDojo, "
    "which downloads and builds a Minecraft Java instance when installed and run, and pins "
    "gym==0.21; none of that is possible without network access, so the package has no "
    "Minecraft game and its Table 2 column stays empty"
)
"""Why the Minecraft setting is not played."""


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _fmt(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def smartplay_scores(
    by_label: Mapping[str, Sequence[Mapping[str, Any]]], weighting: Literal["code", "paper"]
) -> tuple[list[dict[str, Any]], dict[str, dict[str, float | None]]]:
    """Table 2's rows and each row's capability scores (by the given weights)."""
    table2 = metrics.smartplay_table(by_label)
    capabilities: dict[str, dict[str, float | None]] = {}
    for row in table2:
        normalized = {
            c: float(row[c]) for c in metrics.COLUMNS if isinstance(row.get(c), (int, float))
        }
        capabilities[row["player"]] = metrics.capability_scores(normalized, weighting)
    return table2, capabilities


def smartplay_tables(
    by_label: Mapping[str, Sequence[Mapping[str, Any]]],
    *,
    weighting: Literal["code", "paper"] = "code",
) -> str:
    """SmartPlay's tables of per-episode metrics by agent label, as Markdown.

    Table 2 (human-normalised scores), the capability scores, Table 4 (raw scores) and
    the per-setting details: what ``smartplay`` prints, ``eval`` prints for a SmartPlay
    setting and ``report`` writes.
    """
    table2, capabilities = smartplay_scores(by_label, weighting)
    labels = list(by_label)
    parts = ["## SmartPlay: human-normalised scores (Table 2)", ""]
    parts.append(
        markdown_table(
            ["agent", *metrics.COLUMNS],
            [[row["player"], *(_fmt(row[c]) for c in metrics.COLUMNS)] for row in table2],
        )
    )
    parts += ["", f"Minecraft column: {MINECRAFT_OFFLINE}."]
    truncated = sum(1 for rows in by_label.values() for e in rows if e.get("status") == "truncated")
    if truncated:
        parts.append(
            f"{truncated} episode(s) stopped at the step limit before the game's rollout: "
            "their scores are not comparable with the paper's (see 'truncated' below)."
        )
    seen = {str(e["column"]) for rows in by_label.values() for e in rows}
    played = [c for c in metrics.COLUMNS if c in seen] + sorted(seen - set(metrics.COLUMNS))
    unnormalised = [c for c in played if c not in metrics.SETTINGS]
    if unnormalised:
        parts.append(
            f"Not in Table 2 (no recorded human score, so no normalised score and no part in "
            f"the capability scores): {', '.join(unnormalised)}; see the raw scores below."
        )
    rule = "level - 1, as released" if weighting == "code" else "level, as in the paper"
    parts += ["", f"## Capability scores (challenge-weighted normalised scores; weight {rule})"]
    parts.append("")
    parts.append(
        markdown_table(
            ["capability", *labels],
            [
                [capability, *(_fmt(capabilities[label][capability]) for label in labels)]
                for capability in metrics.CAPABILITIES
            ],
        )
    )
    parts += ["", "## Raw scores (Table 4)", ""]
    raw = metrics.smartplay_table(by_label, normalized=False, columns=played)
    parts.append(
        markdown_table(["agent", *played], [[r["player"], *(r[c] for c in played)] for r in raw])
    )
    parts += ["", "## Per setting", ""]
    body = []
    for label, episodes in by_label.items():
        for column in played:
            rows = [e for e in episodes if e["column"] == column]
            if not rows:
                continue
            game = str(rows[0]["game"]).split("-v")[0]
            decisions = sum(int(e.get("decisions", 0)) for e in rows)
            defaulted = sum(int(e.get("rejected_answers", 0)) for e in rows)
            completion = (
                _mean([float(bool(e["completed"])) for e in rows])
                if parts_of(game).objective  # completion rate: games with an objective
                else None
            )
            body.append(
                [
                    label,
                    column,
                    len(rows),
                    _fmt(_mean([float(e["score"]) for e in rows])),
                    _fmt(completion),
                    _fmt(_mean([float(e["reward"]) for e in rows])),
                    _fmt(_mean([float(e["steps"]) for e in rows]), 1),
                    f"{defaulted}/{decisions}",
                    sum(1 for e in rows if e.get("status") == "truncated"),
                ]
            )
    parts.append(
        markdown_table(
            [
                "agent",
                "setting",
                "episodes",
                "score",
                "completion",
                "reward",
                "steps",
                "unusable answers",
                "truncated",
            ],
            body,
        )
    )
    return "\n".join(parts) + "\n"
