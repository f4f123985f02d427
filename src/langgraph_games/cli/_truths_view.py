"""How the ``truths`` command shows truths: a table, one truth in full, and a timeline."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.memory.truth_record import Change, Evidence, Truth

__all__ = ["details", "listing", "timeline"]


def _clip(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def listing(truths: Sequence[Truth], game: str) -> str:
    """A table of ``truths``: id, status, strength, support, round, text."""
    if not truths:
        return f"no truths of {game} here"
    rows = [
        [t.id, t.status.value, t.strength, t.support, t.round, _clip(t.text),
         t.superseded_by or ""]
        for t in truths
    ]  # fmt: skip
    headers = ["id", "status", "strength", "support", "round", "text", "superseded by"]
    return markdown_table(headers, rows)


def _when(round_: int | None) -> str:
    return "by hand" if round_ is None else f"round {round_}"


def change_line(change: Change) -> str:
    """One change in words."""
    parts = [f"{_when(change.round)}: {change.action}"]
    if change.other:
        parts.append(change.other)
    if change.level:
        parts.append(f"(level {change.level})")
    line = " ".join(parts)
    return f"{line}: {change.detail}" if change.detail else line


def evidence_line(evidence: Evidence) -> str:
    """One piece of evidence in words."""
    where = ", ".join(evidence.levels) or "no level"
    scores = ""
    if evidence.score is not None and evidence.baseline is not None:
        scores = f": {evidence.score:g} against {evidence.baseline:g}"
    against = f" against {evidence.against}" if evidence.against else ""
    result = "won" if evidence.won else "lost"
    return f"round {evidence.round} {evidence.kind}{against} on {where}{scores} ({result})"


def details(truth: Truth) -> str:
    """One truth in full: text, status, sources, evidence and history."""
    lines = [
        f"{truth.id}: {truth.status.value}, made in round {truth.round}, strength "
        f"{truth.strength}, support {truth.support}",
        f"text: {truth.text}",
    ]
    if truth.superseded_by:
        lines.append(f"superseded by: {truth.superseded_by} (round {truth.superseded_round})")
    if truth.refines:
        lines.append(f"refines: {', '.join(truth.refines)}")
    if truth.merged_into:
        lines.append(f"merged into: {truth.merged_into} (round {truth.merged_round})")
    lines.append("sources:")
    lines += [
        f"  - round {s.round} {s.relation.value} {s.candidate}"
        + (f" (level {s.level})" if s.level else "")
        + f": {_clip(s.text, 90)}"
        for s in truth.provenance
    ]
    if truth.evidence:
        lines.append("evidence:")
        lines += [f"  - {evidence_line(e)}" for e in truth.evidence]
    lines.append("history:")
    lines += [f"  - {change_line(c)}" for c in truth.history] or ["  - (written before histories)"]
    return "\n".join(lines)


def timeline(truths: Sequence[Truth]) -> str:
    """Every change of ``truths`` by round (changes by hand last), each with its truth."""
    events = [
        (c.round if c.round is not None else float("inf"), t.order, i, t, c)
        for t in truths
        for i, c in enumerate(t.history)
    ]
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    if not events:
        return "no recorded changes"
    return "\n".join(f"{t.id} {change_line(c)}  [{_clip(t.text, 50)}]" for *_, t, c in events)
