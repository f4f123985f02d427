"""Reverting one round of a truth base (the paper's eq. 6 revert of "the newest updates").

Every change TruthWeaver makes carries its round (:class:`~langgraph_games.memory.
truth_record.Change`), and a change of status records the status fields before it, so a
round is undone exactly: entries created in it are marked reverted (kept, with a
``reverted`` change), and on every other entry its changes are undone newest first (a
superseded entry is active again, a restored one retired again), and the sources,
evidence and history it added are removed. Each undone change that involved a candidate
leaves a ``reverted`` change naming the candidate, its level and the policy that beat the
round (a digest of the active truths once the revert is applied), so the lesson is
remembered as tried and judged. Reverted and deleted entries keep their status; only the round's
refusals recorded on them are removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from langgraph.store.base import BaseStore

from langgraph_games.memory._truth_io import truth_ops
from langgraph_games.memory.errors import RevertError
from langgraph_games.memory.truth_record import (
    Change,
    Relation,
    Truth,
    TruthStatus,
    context_digest,
)

__all__ = ["RevertReport", "arevert_round", "revert_round", "round_of_changes"]

_FROZEN = (TruthStatus.REVERTED, TruthStatus.DELETED)


@dataclass
class RevertReport:
    """What :meth:`~langgraph_games.memory.truth_weaver.TruthWeaver.revert_round` undid.

    Attributes:
        round: The round reverted.
        reverted: Entries created in the round, now marked reverted.
        restored: Entries the round had superseded or merged away, active again.
        retired: Entries the round had brought back, retired again.
        detached: Sources (candidates) the round had recorded on older entries, removed.
    """

    round: int
    reverted: int = 0
    restored: int = 0
    retired: int = 0
    detached: int = 0


def round_of_changes(truth: Truth) -> set[int]:
    """Every round that changed ``truth`` (creation, merges, sources, evidence, history).

    ``reverted`` changes are not counted: they record an undo, not work to build on.
    """
    rounds = {truth.round}
    if truth.merged_round is not None:
        rounds.add(truth.merged_round)
    rounds.update(s.round for s in truth.provenance if s.relation != Relation.ORIGIN)
    rounds.update(e.round for e in truth.evidence)
    rounds.update(c.round for c in truth.history if c.round is not None and c.action != "reverted")
    return rounds


def _undo(truth: Truth, round_: int, report: RevertReport) -> Truth | None:
    """``truth`` without what ``round_`` did to it (``None``: nothing to undo)."""
    undone = [c for c in truth.history if c.round == round_ and c.action != "reverted"]
    update: dict[str, object] = {}
    for change in reversed(undone):
        if change.before is not None:
            update.update(change.before)
    if update:
        update["status"] = TruthStatus(update["status"])
        if truth.status == TruthStatus.ACTIVE and update["status"] != TruthStatus.ACTIVE:
            report.retired += 1
        elif truth.status != TruthStatus.ACTIVE and update["status"] == TruthStatus.ACTIVE:
            report.restored += 1
    if truth.status == TruthStatus.MERGED and truth.merged_round == round_:
        update.update(status=TruthStatus.ACTIVE, merged_into=None, merged_round=None)
        report.restored += 1
    kept = [s for s in truth.provenance if s.relation == Relation.ORIGIN or s.round != round_]
    if len(kept) != len(truth.provenance):
        update["provenance"] = kept
        report.detached += len(truth.provenance) - len(kept)
    evidence = [e for e in truth.evidence if e.round != round_]
    if len(evidence) != len(truth.evidence):
        update["evidence"] = evidence
    if not update and not undone:
        return None
    history = [c for c in truth.history if c not in undone]
    history += [
        Change(
            round=round_,
            action="reverted",
            other=c.other,
            level=c.level,
            detail=f"round {round_} reverted: undid {c.action}",
        )
        for c in undone
    ]
    return truth.model_copy(update={**update, "history": history})


def _plan(
    namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> tuple[RevertReport, list[Truth]]:
    """What undoing ``round_`` changes: the report and the changed entries (one batch)."""
    after = sorted(
        r for t in truths.values() if t.status not in _FROZEN for r in round_of_changes(t)
    )
    later = sorted({r for r in after if r > round_})
    if later:
        raise RevertError(
            f"round {round_} of {namespace} cannot be reverted while rounds {later} "
            "build on it; revert those first, newest first"
        )
    report = RevertReport(round=round_)
    changed: list[Truth] = []
    for truth in truths.values():
        if truth.status in _FROZEN:
            # A retired entry keeps its status; only the round's refusals on it go (the
            # refused candidates brought no level it had no record of).
            kept = [c for c in truth.history if not (c.round == round_ and c.action == "refused")]
            if len(kept) != len(truth.history):
                changed.append(truth.model_copy(update={"history": kept}))
            continue
        if truth.round == round_:
            change = Change(round=round_, action="reverted", detail=f"round {round_} reverted")
            changed.append(truth.changed(change, status=TruthStatus.REVERTED))
            report.reverted += 1
            continue
        undone = _undo(truth, round_, report)
        if undone is not None:
            changed.append(undone)
    return report, _with_context(truths, changed, round_)


def _with_context(truths: Mapping[str, Truth], changed: list[Truth], round_: int) -> list[Truth]:
    """Stamp the round's ``reverted`` changes with the policy that beat the round.

    That policy is the active truths once the revert is applied (eq. 6's accepted one).
    """
    after = {**truths, **{t.id: t for t in changed}}
    context = context_digest(t.text for t in after.values() if t.active)
    stamped = []
    for truth in changed:
        history = [
            c.model_copy(update={"context": context})
            if c.round == round_ and c.action == "reverted" and c.context is None
            else c
            for c in truth.history
        ]
        stamped.append(truth.model_copy(update={"history": history}))
    return stamped


def revert_round(
    store: BaseStore, namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> RevertReport:
    """Undo what ``round_`` did to ``truths`` and write the result in one batch."""
    report, changed = _plan(namespace, truths, round_)
    if changed:
        store.batch(truth_ops(namespace, changed))
    return report


async def arevert_round(
    store: BaseStore, namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> RevertReport:
    """Async :func:`revert_round` (one ``await store.abatch(...)``)."""
    report, changed = _plan(namespace, truths, round_)
    if changed:
        await store.abatch(truth_ops(namespace, changed))
    return report
