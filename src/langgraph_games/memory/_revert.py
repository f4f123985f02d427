"""Reverting one round of a truth base (the paper's eq. 6 revert of "the newest updates")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langgraph.store.base import BaseStore, PutOp

from langgraph_games.memory.errors import RevertError
from langgraph_games.memory.records import Relation, Truth, TruthStatus

if TYPE_CHECKING:
    from langgraph_games.memory.truth_weaver import RevertReport


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


def revert_round(
    store: BaseStore, namespace: tuple[str, ...], truths: Mapping[str, Truth], round_: int
) -> RevertReport:
    """Undo what ``round_`` did to ``truths`` and write the result in one batch."""
    from langgraph_games.memory.truth_weaver import RevertReport

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
    if changed:
        store.batch([PutOp(namespace, t.id, t.to_value(), index=["text"]) for t in changed])
    return report
