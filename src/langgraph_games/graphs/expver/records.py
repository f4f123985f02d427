"""The records of the Agent-ExpVer loop's ledger: its episodes and its two records per round.

One type per record kind, shared by the writers (:mod:`~langgraph_games.graphs.expver.steps`,
:mod:`~langgraph_games.graphs.expver.nodes`), the ledgers that keep them and every reader
(resume, the per-round table, reports). Keys are required where the loop always writes them
and ``NotRequired`` where a writer may omit them (round 0's baseline has no ``delta``) or
where files written by earlier versions lack them (``next_retry``, ``revert_retries``).

A ledger on a file checks each record it reads back with :func:`validate_ledger_record`,
once; below that, code indexes the keys the types require.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from pydantic import TypeAdapter
from typing_extensions import NotRequired, TypedDict, TypeIs

from langgraph_games._json import JsonObject
from langgraph_games.graphs.episode.records import SessionRecord, Trajectory, check_record
from langgraph_games.memory._weave_state import WeaveReport

__all__ = [
    "ExpVerEvent",
    "Judged",
    "LedgerEpisode",
    "LedgerRecord",
    "LedgerResult",
    "PlanEvent",
    "PlayEvent",
    "PromoteEvent",
    "ReflectEvent",
    "RoundEvent",
    "RoundRecord",
    "TestRound",
    "TrainRound",
    "WeaveCounts",
    "is_episode",
    "is_test_round",
    "validate_ledger_record",
    "weave_counts",
    "woven",
]


class LedgerResult(TypedDict):
    """An episode's result as the ledger keeps it: the loop's ``EpisodeResult``.

    A seat's counters are read as a mapping: their set grew over versions
    (``ambiguous_answers``), and a ledger written before must still resume.
    """

    status: str
    record: SessionRecord
    returns: list[float]
    winners: list[int]
    steps: int
    forfeit: int | None
    players: list[dict[str, object]]


class _Labelled(TypedDict):
    """What a results-file ledger adds to every record (``FileLedger``), for reports."""

    spec_hash: NotRequired[str]
    label: NotRequired[str]


class LedgerEpisode(_Labelled):
    """One episode of the loop (``kind: "episode"``): a training play, replay or test.

    ``id`` is ``r<round>/<split>/<level>``; ``metrics`` are the run's metric function's.
    A results-file ledger also adds ``seats`` and ``family``.
    """

    kind: Literal["episode"]
    id: str
    episode_id: str
    round: int
    split: Literal["train", "replay", "test", "contest"]
    level: str
    game: str
    options: JsonObject
    seed: int
    truths: list[str]
    started_at: float
    status: str
    result: LedgerResult
    trajectory: Trajectory
    metrics: JsonObject
    duration_s: float
    seats: NotRequired[list[str]]
    family: NotRequired[str]


class _Round(_Labelled):
    kind: Literal["round"]
    id: str
    round: int
    game: str
    success_rate: float
    score: float
    steps: float
    reverted: bool


class TrainRound(_Round):
    """A round's training record (``round/<r>/train``): its plays and what was woven.

    The counts are ``round_truth_counts``; those after ``duplicates`` are missing from
    files written before the relation check. ``refusals`` says why each refused candidate
    was turned away.
    """

    split: Literal["train"]
    levels: list[str]
    promoted: int
    rejected: int
    truths_added: int
    truths_merged: int
    duplicates: int
    same_meaning: NotRequired[int]
    supported: NotRequired[int]
    refined: NotRequired[int]
    superseded: NotRequired[int]
    restored: NotRequired[int]
    refused: NotRequired[int]
    contests: NotRequired[int]
    refusals: NotRequired[list[str]]


class TestRound(_Round):
    """A round's test record (``round/<r>/test``): the test levels and eq. 6's decision.

    ``decision`` is ``baseline`` (round 0), ``kept``, ``reverted`` or ``unchanged``;
    ``accepted_scores`` are the accepted policy's test scores after the round. Round 0
    has none of the judge's keys (``baseline`` ... ``weave_round``); ``next_retry`` and
    ``revert_retries`` are missing from files written before retries existed.
    """

    split: Literal["test"]
    scores: dict[str, float]
    decision: str
    evaluated: bool
    accepted_scores: dict[str, float]
    truths_active: int
    baseline: NotRequired[float]
    delta: NotRequired[float]
    next_cursor: NotRequired[int]
    retry: NotRequired[int]
    next_retry: NotRequired[int]
    revert_retries: NotRequired[int]
    weave_round: NotRequired[int]
    truths_reverted: NotRequired[int]


class Judged(TypedDict):
    """The judge's keys of a test record (round 0's baseline writes only the required ones)."""

    decision: str
    evaluated: bool
    truths_active: int
    accepted_scores: dict[str, float]
    reverted: bool
    baseline: NotRequired[float]
    delta: NotRequired[float]
    next_cursor: NotRequired[int]
    retry: NotRequired[int]
    next_retry: NotRequired[int]
    revert_retries: NotRequired[int]
    weave_round: NotRequired[int]
    truths_reverted: NotRequired[int]


class RoundEvent(TypedDict):
    """The round's test record, decided now or read back (``cached``); round 0 is ``baseline``."""

    event: Literal["baseline", "round"]
    record: TestRound
    cached: NotRequired[bool]


class PlanEvent(TypedDict):
    """The training levels a round plays."""

    event: Literal["plan"]
    round: int
    levels: list[str]


class PlayEvent(TypedDict):
    """A training play or its verification replay (``truths``: lessons in the prompt)."""

    event: Literal["play", "replay"]
    round: int
    level: str
    cached: bool
    metrics: JsonObject
    truths: NotRequired[int]


class ReflectEvent(TypedDict):
    """InsightForce's experience of a play (an ``Experience`` as JSON)."""

    event: Literal["reflect"]
    round: int
    level: str
    cached: bool
    experience: JsonObject


class WeaveCounts(TypedDict):
    """What TruthWeaver did with a promoted experience's candidates (see ``WeaveReport``)."""

    added: int
    merged: int
    duplicates: int
    same_meaning: int
    supported: int
    refined: int
    superseded: int
    restored: int
    refused: int
    unresolved: int
    near_different: int
    already_present: int


def woven(record: Mapping[str, object]) -> dict[str, int]:
    """A round's truth changes as the tables show them, from a train record.

    ``merged`` counts every candidate recorded on an existing lesson (a repeat, a
    paraphrase, a narrower lesson; merged entries of the ``rewrite`` mode);
    ``superseded`` every lesson retired by a contest or replaced by a more specific one.
    Files written before the relation check lack the newer counts (read as 0).
    """

    def get(key: str) -> int:
        value = record.get(key)
        return int(value) if isinstance(value, int | float) else 0

    merged = get("truths_merged") + get("duplicates") + get("same_meaning") + get("supported")
    return {
        "added": get("truths_added"),
        "merged": merged,
        "superseded": get("superseded") + get("refined"),
        "refused": get("refused"),
    }


def weave_counts(report: WeaveReport) -> WeaveCounts:
    """The counts of a TruthWeaver report a promote event carries."""
    return WeaveCounts(
        added=report.added,
        merged=report.merged,
        duplicates=report.exact_duplicates + report.near_duplicates,
        same_meaning=report.same_meaning,
        supported=report.supported,
        refined=report.refined,
        superseded=report.superseded,
        restored=report.restored,
        refused=report.refused,
        unresolved=report.unresolved,
        near_different=report.near_different,
        already_present=report.already_present,
    )


class PromoteEvent(TypedDict):
    """An experience's verdict, and TruthWeaver's counts when it was promoted."""

    event: Literal["promote"]
    round: int
    level: str
    status: str
    verdict: str
    not_promoted: str
    weave: WeaveCounts | None


ExpVerEvent = RoundEvent | PlanEvent | PlayEvent | ReflectEvent | PromoteEvent
"""A custom stream event of the ExpVer graph (``stream_mode="custom"``)."""

RoundRecord = TrainRound | TestRound
"""A round's record (``kind: "round"``)."""

LedgerRecord = LedgerEpisode | TrainRound | TestRound
"""Any record of the ledger."""

_TYPES: dict[str, type[Any]] = {
    "episode": LedgerEpisode,
    "train": TrainRound,
    "test": TestRound,
}
_ADAPTERS: dict[str, TypeAdapter[Any]] = {key: TypeAdapter(t) for key, t in _TYPES.items()}


def validate_ledger_record(record: JsonObject) -> LedgerRecord:
    """Check one record read back from a ledger file; returns the record itself.

    Raises:
        ValueError: It is of no ledger kind (an ``episode``, or a ``round`` of split
            ``train`` or ``test``), or does not fit its type: ``"<kind> record without
            <keys>"`` and/or ``"with <key> <problem>"``.
    """
    kind, split = record.get("kind"), record.get("split")
    key = "episode" if kind == "episode" else str(split) if kind == "round" else ""
    if key not in _TYPES:
        raise ValueError(
            f"record of kind {kind!r} and split {split!r} is no ledger record (expected an "
            "episode, or a round of split 'train' or 'test')"
        )
    check_record(_ADAPTERS[key], _TYPES[key], record, f"{kind} record")
    return cast("LedgerRecord", record)


def is_episode(record: LedgerRecord) -> TypeIs[LedgerEpisode]:
    """Whether ``record`` is an episode."""
    return record["kind"] == "episode"


def is_test_round(record: LedgerRecord) -> TypeIs[TestRound]:
    """Whether ``record`` is a round's test record."""
    return record["kind"] == "round" and record["split"] == "test"
