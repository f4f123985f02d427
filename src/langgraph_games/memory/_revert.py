"""Reverting one round of a truth base (the paper's eq. 6 revert of "the newest updates")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import BaseStore, PutOp

from langgraph_games.memory.errors import RevertError
from langgraph_games.memory.records import Relation, Truth, TruthStatus

__all__ = ["RevertReport", "arevert_round", "revert_round"]


@dataclass
class RevertReport:
    """What :meth:`~langgraph_games.memory.truth_weaver.TruthWeaver.revert_round` undid.

    Attributes:
        round: The round reverted.
        reverted: Entries created in the round, now marked reverted.
        restored: Entries the round had merged away, active again.
        detached: Duplicate provenance records of the round removed from older entries.
    """

    round: int
    reverted: int = 0
    restored: int = 0
    detached: int = 0


def _rounds_in_use(truths: Mapping[str, Truth]) -> set[int]:
    """Every round that a live entry was created, merged or given a duplicate in."""
    rounds: set[int] = set()
    for t in truths.values():
        if t.status == TruthStatus.REVERTED:
            continue
        rounds.add(t.round)
        if t.merged_round is not None:
            rounds.add(t.merged_round)
        rounds.update(s.round for s in t.provenance if s.relation != Relation.ORIGIN)
    return rounds


def _plan(
    namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> tuple[RevertReport, list[PutOp]]:
    """What undoing ``round_`` changes: the report and the writes (one batch)."""
    after = sorted(r for r in _rounds_in_use(truths) if r > round_)
    if after:
        raise RevertError(
            f"round {round_} of {namespace} cannot be reverted while rounds {after} "
            "build on it; revert those first, newest first"
        )
    report = RevertReport(round=round_)
    changed: list[Truth] = []
    for t in truths.values():
        if t.status == TruthStatus.REVERTED:
            continue
        if t.round == round_:
            changed.append(t.model_copy(update={"status": TruthStatus.REVERTED}))
            report.reverted += 1
            continue
        update: dict[str, Any] = {}
        if t.status == TruthStatus.MERGED and t.merged_round == round_:
            update.update(status=TruthStatus.ACTIVE, merged_into=None, merged_round=None)
            report.restored += 1
        kept = [s for s in t.provenance if s.relation == Relation.ORIGIN or s.round != round_]
        if len(kept) != len(t.provenance):
            update["provenance"] = kept
            report.detached += len(t.provenance) - len(kept)
        if update:
            changed.append(t.model_copy(update=update))
    return report, [PutOp(namespace, t.id, t.to_value(), index=["text"]) for t in changed]


def revert_round(
    store: BaseStore, namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> RevertReport:
    """Undo what ``round_`` did to ``truths`` and write the result in one batch."""
    report, writes = _plan(namespace, truths, round_)
    if writes:
        store.batch(writes)
    return report


async def arevert_round(
    store: BaseStore, namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> RevertReport:
    """Async :func:`revert_round` (one ``await store.abatch(...)``)."""
    report, writes = _plan(namespace, truths, round_)
    if writes:
        await store.abatch(writes)
    return report
