"""TruthWeaver's ``merge`` step: a candidate is placed by its relation to its near neighbours.

One lesson per meaning (see ``docs/memory.md``, "TruthWeaver"): for each candidate, in
this order,

1. the same text as an active entry: recorded on it (support);
2. the same text as a retired entry, or (with a model) the same meaning as one: refused
   when the retired entry was deleted by hand or the candidate brings no new evidence (its
   level is already on the entry's record, or a round's test reverted the lesson with the
   same other truths active as now); otherwise it goes on as a new lesson, or as the
   retired entry brought back;
3. with a model, the relation to each near active entry (:mod:`.relations`): ``same`` ->
   recorded on it; ``more_general`` -> recorded on it as support; ``contradicts`` -> a
   contest (:mod:`.contest`) whose loser is retired with ``superseded_by``;
   ``more_specific`` -> the candidate's entry replaces the more general one, carrying its
   sources and evidence; ``unrelated`` (or an unresolved reply) -> kept apart;
4. without a model, the near-duplicate rule (the same content words at a similarity of at
   least the duplicate threshold), else a new entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig

from langgraph_games.memory._weave_state import State, WeaveReport
from langgraph_games.memory.contest import Arbiter, Contest
from langgraph_games.memory.meaning import same_meaning
from langgraph_games.memory.merge_prompts import normalize_text
from langgraph_games.memory.records import Candidate
from langgraph_games.memory.relations import Meaning, Verdict
from langgraph_games.memory.truth_record import (
    Change,
    Evidence,
    Relation,
    Source,
    Truth,
    TruthStatus,
    context_digest,
)

__all__ = ["Relating", "place"]

RETIRED = (TruthStatus.SUPERSEDED, TruthStatus.REVERTED, TruthStatus.DELETED)


class Relating(Protocol):
    """What the merge step needs of a :class:`~langgraph_games.memory.truth_weaver.TruthWeaver`."""

    model: BaseChatModel | None
    merge_threshold: float
    duplicate_threshold: float
    max_neighbours: int

    def _vector(self, text: str) -> np.ndarray: ...

    def _save(self, state: State, changed: Sequence[Truth]) -> None: ...

    def _new_entry(self, state: State, candidate: Candidate, detail: str = "") -> Truth: ...

    def _relation(
        self, candidate: str, neighbour: str, report: WeaveReport, config: RunnableConfig | None
    ) -> Verdict: ...


def _attach(
    w: Relating,
    state: State,
    truth: Truth,
    candidate: Candidate,
    relation: Relation,
    similarity: float | None,
    detail: str,
) -> None:
    source = Source.of(candidate, relation, None if similarity is None else round(similarity, 4))
    change = Change.of(candidate, relation.value, detail)
    w._save(
        state,
        [
            truth.changed(
                change,
                provenance=[*truth.provenance, source],
                evidence=[*truth.evidence, *candidate.evidence],
            )
        ],
    )


def _refusal(retired: Truth, candidate: Candidate, state: State) -> str | None:
    """Why a candidate meaning ``retired`` is turned away, or ``None`` (new evidence).

    New evidence is a level the lesson has no record on; and when a round's test made it
    be reverted, also a policy other than the one that beat it then (other truths active
    now): the test levels are fixed, so against the same policy they would say the same.
    """
    said = f"it means the same as {retired.status.value} {retired.id} ({retired.text!r})"
    if retired.status == TruthStatus.DELETED:
        return f"{said}, which was deleted by hand"
    if candidate.level is None:
        return f"{said} and brings no evidence of a level"
    if candidate.level in retired.evidence_levels():
        return f"{said}; no new evidence: level {candidate.level} is already on its record"
    now = context_digest(t.text for t in state.truths.values() if t.active)
    tested = [c for c in retired.history if c.action == "reverted" and c.context == now]
    if tested:
        return (
            f"{said}; no new evidence: round {tested[-1].round}'s test reverted it in favour "
            "of the truths active now, and nothing has changed them since"
        )
    return None


def _refuse(w: Relating, state: State, retired: Truth, candidate: Candidate, why: str) -> str:
    change = Change.of(candidate, "refused", why)
    w._save(state, [retired.changed(change)])
    return f"refused: {why}"


def _contest_evidence(
    contest: Contest, candidate: Candidate, rival: str, for_candidate: bool
) -> Evidence:
    mine, theirs = contest.candidate_score, contest.incumbent_score
    if not for_candidate:
        mine, theirs = theirs, mine
    return Evidence(
        round=candidate.round,
        kind="contest",
        levels=list(contest.levels),
        score=mine,
        baseline=theirs,
        won=contest.candidate_wins == for_candidate,
        against=rival,
        candidate=candidate.id,
    )


def _lose(
    w: Relating,
    state: State,
    candidate: Candidate,
    incumbent: Truth,
    contest: Contest,
    revived: Truth | None,
) -> str:
    """The candidate lost: it is recorded as retired, the incumbent keeps its place."""
    lost = _contest_evidence(contest, candidate, incumbent.id, for_candidate=True)
    if revived is not None:
        change = Change.of(
            candidate, "contest-lost", f"lost again to {incumbent.id}: {contest.detail}"
        )
        loser = revived.changed(change, evidence=[*revived.evidence, lost])
    else:
        entry = w._new_entry(state, candidate, f"contradicts {incumbent.id}")
        change = Change(
            round=candidate.round,
            action="superseded",
            other=incumbent.id,
            detail=f"lost a contest to {incumbent.id}: {contest.detail}",
        )
        loser = entry.changed(
            change,
            status=TruthStatus.SUPERSEDED,
            superseded_by=incumbent.id,
            superseded_round=candidate.round,
            evidence=[*entry.evidence, lost],
        )
    won = _contest_evidence(contest, candidate, loser.id, for_candidate=False)
    change = Change(
        round=candidate.round,
        action="contest-won",
        other=loser.id,
        level=candidate.level,
        detail=contest.detail,
    )
    w._save(state, [loser, incumbent.changed(change, evidence=[*incumbent.evidence, won])])
    return f"lost a contest to {incumbent.id} ({contest.detail})"


def _retire(truth: Truth, by: Truth, round_: int, action: str, detail: str) -> Truth:
    change = Change(round=round_, action="superseded", other=by.id, detail=f"{action}: {detail}")
    return truth.changed(
        change, status=TruthStatus.SUPERSEDED, superseded_by=by.id, superseded_round=round_
    )


def _revive(revived: Truth, candidate: Candidate, detail: str) -> Truth:
    change = Change.of(candidate, "restored", detail)
    return revived.changed(
        change,
        status=TruthStatus.ACTIVE,
        superseded_by=None,
        superseded_round=None,
        provenance=[*revived.provenance, Source.of(candidate, Relation.RESTORED)],
        evidence=[*revived.evidence, *candidate.evidence],
    )


def _neighbours(
    w: Relating, state: State, vector: np.ndarray, statuses: Sequence[TruthStatus]
) -> list[tuple[float, Truth]]:
    chosen: list[tuple[float, Truth]] = []
    for score, tid in state.index.similar(vector):
        if score < w.merge_threshold or len(chosen) == w.max_neighbours:
            break
        truth = state.truths[tid]
        if truth.status in statuses:
            chosen.append((score, truth))
    return chosen


def _without_model(w: Relating, state: State, candidate: Candidate, report: WeaveReport) -> str:
    vector = w._vector(candidate.text)
    near = _neighbours(w, state, vector, (TruthStatus.ACTIVE,))
    for score, truth in near:
        if score >= w.duplicate_threshold and same_meaning(candidate.text, truth.text):
            _attach(w, state, truth, candidate, Relation.NEAR_DUPLICATE, score, "same words")
            report.near_duplicates += 1
            return f"near duplicate of {truth.id}"
    if any(score >= w.duplicate_threshold for score, _ in near):
        report.near_different += 1
    elif near:
        report.similar_kept += 1
    entry = w._new_entry(state, candidate)
    w._save(state, [entry])
    report.added += 1
    return f"added as {entry.id}"


def place(
    w: Relating,
    state: State,
    candidate: Candidate,
    report: WeaveReport,
    config: RunnableConfig | None,
    arbiter: Arbiter,
) -> str:
    """Place one candidate in the truth base (module docstring); what happened, in words."""
    norm = normalize_text(candidate.text)
    same = state.by_text.get(norm)
    if same is not None:
        _attach(w, state, state.truths[same], candidate, Relation.EXACT_DUPLICATE, 1.0, "same text")
        report.exact_duplicates += 1
        return f"duplicate of {same}"
    meant = state.retired_by_text.get(norm)
    if w.model is None:
        if meant is not None:
            why = _refusal(state.truths[meant], candidate, state)
            if why is not None:
                report.refused += 1
                return _refuse(w, state, state.truths[meant], candidate, why)
        return _without_model(w, state, candidate, report)
    vector = w._vector(candidate.text)
    verdicts: list[tuple[Truth, Verdict]] = [
        (truth, w._relation(candidate.text, truth.text, report, config))
        for _, truth in _neighbours(w, state, vector, (TruthStatus.ACTIVE,))
    ]
    for meaning, relation in ((Meaning.SAME, Relation.SAME_MEANING),
                              (Meaning.MORE_GENERAL, Relation.NARROWER)):  # fmt: skip
        for truth, verdict in verdicts:
            if verdict.meaning == meaning:
                _attach(w, state, truth, candidate, relation, None, verdict.reason)
                if meaning == Meaning.SAME:
                    report.same_meaning += 1
                else:
                    report.supported += 1
                return f"{relation.value} of {truth.id}"
    if meant is None:
        for _, truth in _neighbours(w, state, vector, RETIRED):
            if w._relation(candidate.text, truth.text, report, config).meaning == Meaning.SAME:
                meant = truth.id
                break
    revived = None
    if meant is not None:
        retired = state.truths[meant]
        why = _refusal(retired, candidate, state)
        if why is not None:
            report.refused += 1
            return _refuse(w, state, retired, candidate, why)
        revived = retired if retired.status == TruthStatus.SUPERSEDED else None
    return _stay(w, state, candidate, verdicts, revived, report, arbiter)


def _stay(
    w: Relating,
    state: State,
    candidate: Candidate,
    verdicts: list[tuple[Truth, Verdict]],
    revived: Truth | None,
    report: WeaveReport,
    arbiter: Arbiter,
) -> str:
    """Contests with the entries the candidate contradicts, then its own entry."""
    wins: list[tuple[Truth, Contest]] = []
    for truth, verdict in verdicts:
        if verdict.meaning != Meaning.CONTRADICTS:
            continue
        incumbent = state.truths[truth.id]
        active = sorted((t for t in state.truths.values() if t.active), key=lambda t: t.order)
        contest = arbiter(candidate, incumbent, active)
        report.contradictions += 1
        if not contest.candidate_wins:
            report.superseded += 1
            return _lose(w, state, candidate, incumbent, contest, revived)
        wins.append((incumbent, contest))
    if revived is not None:
        entry = _revive(revived, candidate, "means this lesson and brings new evidence")
        report.restored += 1
    else:
        entry = w._new_entry(state, candidate)
        report.added += 1
    changed: list[Truth] = []
    for incumbent, contest in wins:
        won = _contest_evidence(contest, candidate, incumbent.id, for_candidate=True)
        entry = entry.model_copy(update={"evidence": [*entry.evidence, won]})
        lost = _contest_evidence(contest, candidate, entry.id, for_candidate=False)
        loser = _retire(incumbent, entry, candidate.round, "contradicted", contest.detail)
        changed.append(loser.model_copy(update={"evidence": [*loser.evidence, lost]}))
        report.superseded += 1
    refined = [t for t, v in verdicts if v.meaning == Meaning.MORE_SPECIFIC]
    for general in refined:
        general = state.truths[general.id]
        entry = entry.model_copy(
            update={
                "provenance": [*entry.provenance, *general.provenance],
                "evidence": [*entry.evidence, *general.evidence],
                "refines": [*entry.refines, general.id],
            }
        )
        changed.append(_retire(general, entry, candidate.round, "refined", entry.text))
        report.refined += 1
    w._save(state, [entry, *changed])
    said = [f"superseded {t.id}" for t, _ in wins] + [f"refined {t.id}" for t in refined]
    done = "restored" if revived is not None else "added as"
    return f"{done} {entry.id}" + (f" ({', '.join(said)})" if said else "")
