"""The truth record: a verified lesson with its sources, evidence and history.

A truth is one lesson, one meaning. Everything that happened to it is kept on it:

- ``provenance``: every candidate it stands for (its origin, repeats and paraphrases of
  it, lessons that said less than it), never dropped;
- ``evidence``: what verified it: the replays that beat the play without it, and the
  contests it won or lost against a lesson that contradicts it;
- ``history``: every change with its round (``None``: made by hand), so a round can be
  undone exactly, and a person can read why it is active, superseded or reverted.

Values are stored as JSON (:meth:`Truth.to_value`) with ``format`` :data:`TRUTH_FORMAT`.
Values of format 1 (before histories and evidence) read as truths with empty ones and are
written back in the current format on their next change; a value of a newer format is
refused (:func:`parse_truth`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field, model_validator

from langgraph_games._json import JsonObject
from langgraph_games.memory.errors import MemoryLayerError

__all__ = [
    "TRUTH_FORMAT",
    "Change",
    "Evidence",
    "MergedSource",
    "Relation",
    "Source",
    "Truth",
    "TruthFormatError",
    "TruthStatus",
    "TruthVersionError",
    "context_digest",
    "parse_truth",
]

TRUTH_FORMAT = 2
"""The format of the truth values this version writes (and the newest it reads)."""


class TruthFormatError(MemoryLayerError):
    """A stored value that is not a truth record."""


class TruthVersionError(TruthFormatError):
    """A truth value written by a newer version of the package (a newer ``format``)."""


class TruthStatus(str, Enum):
    """Where a truth stands. Only active truths reach prompts; the others are kept as records."""

    ACTIVE = "active"
    MERGED = "merged"
    """Folded into a merged entry (stores of format 1, and the ``rewrite`` mode)."""
    REVERTED = "reverted"
    """Taken back: its round made the test score drop, or a person reverted it."""
    SUPERSEDED = "superseded"
    """Replaced: by a lesson that refines it, or by one that contradicts it and won on
    the replays (``superseded_by`` names it)."""
    DELETED = "deleted"
    """Deleted by a person: kept as a record, never active again by itself."""


class Relation(str, Enum):
    """How a candidate is attached to the truth that records it."""

    ORIGIN = "origin"
    """The candidate became this entry (or one of the entries merged into it)."""
    EXACT_DUPLICATE = "exact-duplicate"
    """The candidate repeated this entry's text."""
    NEAR_DUPLICATE = "near-duplicate"
    """Almost the same words (the embedding-only path, without a model)."""
    SAME_MEANING = "same-meaning"
    """Worded differently, same meaning (the relation check)."""
    NARROWER = "narrower"
    """The candidate said part of what this entry says (the relation check): support."""
    RESTORED = "restored"
    """The candidate meant this retired entry and brought it back by winning a contest."""


class Proposed(Protocol):
    """What a source is made of: a :class:`~langgraph_games.memory.records.Candidate`."""

    @property
    def id(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def experience(self) -> str | None: ...
    @property
    def episode(self) -> str | None: ...
    @property
    def level(self) -> str | None: ...


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)


class Source(_Record):
    """One candidate recorded on a truth: the provenance that is never dropped.

    Attributes:
        candidate: The candidate's id.
        text: The candidate's text as proposed.
        round: Round in which it was attached to this truth.
        relation: How it is attached.
        similarity: Cosine similarity to the truth when it was attached as a duplicate.
        kind: Candidate kind (summary, strength, weakness, ...).
        experience: Source experience id.
        episode: Source episode id.
        level: Source level id.
    """

    candidate: str
    text: str
    round: int
    relation: Relation = Relation.ORIGIN
    similarity: float | None = None
    kind: str = "summary"
    experience: str | None = None
    episode: str | None = None
    level: str | None = None

    @classmethod
    def of(
        cls,
        candidate: Proposed,
        relation: Relation = Relation.ORIGIN,
        similarity: float | None = None,
        round: int | None = None,
    ) -> Source:
        """The provenance entry of a candidate."""
        return cls(
            candidate=candidate.id,
            text=candidate.text,
            round=candidate.round if round is None else round,
            relation=relation,
            similarity=similarity,
            kind=candidate.kind,
            experience=candidate.experience,
            episode=candidate.episode,
            level=candidate.level,
        )


class MergedSource(_Record):
    """An entry folded into a merged truth: its id, exact text and creation round."""

    id: str
    text: str
    round: int


class Evidence(_Record):
    """One piece of evidence for (or against) a truth.

    Attributes:
        round: The round it was gathered in.
        kind: ``verified`` (a replay with the lesson beat the play without it) or
            ``contest`` (the policy with this lesson against the policy with a lesson that
            contradicts it, on the same levels).
        levels: The levels played.
        score: The score with this lesson (summed over ``levels``).
        baseline: The score of the other side (without it, or with its rival).
        won: Whether this lesson's side scored higher.
        against: The rival's truth or candidate id (contests).
        candidate: The candidate this evidence came with.
    """

    round: int
    kind: str
    levels: list[str] = Field(default_factory=list)
    score: float | None = None
    baseline: float | None = None
    won: bool = True
    against: str | None = None
    candidate: str | None = None


class Change(_Record):
    """One change of a truth, for its history and for undoing its round.

    Attributes:
        round: The weave round (``None``: made by hand, never undone by a round revert).
        action: What happened: ``created``, ``imported``, ``duplicate``, ``same-meaning``,
            ``support``, ``refined`` (this entry replaced a more general one), ``superseded``,
            ``restored``, ``reverted``, ``refused`` (a candidate meaning this retired lesson
            was turned away), ``deleted``, ``edited``.
        other: The truth or candidate the change involves.
        detail: Why, in words (the relation check's reason, a contest's scores...).
        level: The level of the candidate it involves, when it has one.
        context: For a revert: the digest of the other active truths when the round was
            tested (:func:`context_digest`), the policy the lesson was judged with.
        before: The status fields before the change, when it changed them (undo data).
    """

    round: int | None
    action: str
    other: str | None = None
    detail: str = ""
    level: str | None = None
    context: str | None = None
    before: JsonObject | None = None

    @classmethod
    def of(cls, candidate: Proposed, action: str, detail: str = "") -> Change:
        """A change a candidate makes: its round, its id and its level recorded."""
        return cls(
            round=candidate.round,
            action=action,
            other=candidate.id,
            level=candidate.level,
            detail=detail,
        )


STATUS_FIELDS = ("status", "superseded_by", "superseded_round")
"""The fields a status change sets (and an undo restores)."""


class Truth(_Record):
    """A verified lesson in the truth base.

    Attributes:
        id: Key in ``("truths", game)``.
        game: Game id.
        text: The lesson as put into prompts.
        round: Round in which this entry was created.
        order: Position in the truth base (prompts list truths in the order they were made).
        status: See :class:`TruthStatus`.
        kind: ``summary``/``strength``/``weakness``/``advice`` from its candidate, or ``merged``.
        level: Level of its origin.
        episode: Episode of its origin.
        metrics: Metrics of the candidate it came from.
        provenance: Every candidate this entry stands for.
        evidence: What verified it, and the contests it took part in.
        history: Every change, oldest first.
        superseded_by: The entry that replaced it, while superseded.
        superseded_round: The round it was superseded in.
        refines: Entries this one replaced because it says more than they do.
        merged_from: Entries folded into this one (format 1 and ``rewrite`` mode).
        merged_into: Id of the entry this one was folded into, while merged.
        merged_round: Round of that merge.
        format: The value format (:data:`TRUTH_FORMAT`).
    """

    id: str
    game: str
    text: str
    round: int
    order: int = 0
    status: TruthStatus = TruthStatus.ACTIVE
    kind: str = "summary"
    level: str | None = None
    episode: str | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    provenance: list[Source] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    history: list[Change] = Field(default_factory=list)
    superseded_by: str | None = None
    superseded_round: int | None = None
    refines: list[str] = Field(default_factory=list)
    merged_from: list[MergedSource] = Field(default_factory=list)
    merged_into: str | None = None
    merged_round: int | None = None
    format: int = TRUTH_FORMAT

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, data: object) -> object:
        # ``support`` and ``strength`` are written with every value for readers of the raw
        # store, but they are derived: what a value says about them is not read back. A
        # value without ``format`` was written by format 1.
        if isinstance(data, Mapping):
            data = {k: v for k, v in data.items() if k not in ("support", "strength")}
            data.setdefault("format", 1)
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def support(self) -> int:
        """Verified wins behind this lesson: the distinct experiences in its provenance.

        Each source is a candidate from an experience whose replay was verified; sources
        without an experience (added by hand) count one each, and several items of one
        experience count once. At least 1.
        """
        keys = {s.experience or f"candidate:{s.candidate}" for s in self.provenance}
        return max(1, len(keys))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def strength(self) -> int:
        """Verified evidence behind it: :attr:`support`, plus contests won, minus contests lost.

        ``truth_limit`` keeps the strongest truths.
        """
        contests = [e for e in self.evidence if e.kind == "contest"]
        return self.support + sum(1 if e.won else -1 for e in contests)

    @property
    def active(self) -> bool:
        """Whether it reaches prompts."""
        return self.status == TruthStatus.ACTIVE

    @property
    def live(self) -> bool:
        """Whether it is part of the truth base's current state (anything but reverted)."""
        return self.status != TruthStatus.REVERTED

    def to_value(self) -> JsonObject:
        """The JSON value stored for this truth (``support`` and ``strength`` included)."""
        return {**self.model_dump(mode="json"), "format": TRUTH_FORMAT}

    def candidate_ids(self) -> set[str]:
        """Ids of every candidate recorded on this truth (those it turned away included)."""
        return {source.candidate for source in self.provenance} | self.turned_away()

    def turned_away(self) -> set[str]:
        """Ids of the candidates it turned away: refused, or beaten in a contest."""
        actions = ("refused", "contest-lost")
        return {c.other for c in self.history if c.action in actions and c.other}

    def status_fields(self) -> JsonObject:
        """The status fields as JSON (undo data of a change)."""
        return {
            "status": self.status.value,
            "superseded_by": self.superseded_by,
            "superseded_round": self.superseded_round,
        }

    def changed(self, change: Change, **update: object) -> Truth:
        """A copy with ``update`` applied and ``change`` appended to the history.

        When ``update`` sets a status field, the change records the fields before it.
        """
        if any(key in STATUS_FIELDS for key in update) and change.before is None:
            change = change.model_copy(update={"before": self.status_fields()})
        return self.model_copy(update={**update, "history": [*self.history, change]})

    def evidence_levels(self) -> set[str]:
        """Every level this lesson was judged on.

        Its sources, its evidence (replays and contests), and the candidates of reverted
        rounds and lost contests; not refused candidates (they were turned away unheard).
        """
        levels = {s.level for s in self.provenance if s.level}
        levels |= {level for e in self.evidence for level in e.levels}
        judged = ("reverted", "contest-lost")
        return levels | {c.level for c in self.history if c.level and c.action in judged}


def context_digest(texts: Iterable[str]) -> str:
    """A short digest of a set of lesson texts (order, case and spacing ignored)."""
    tidy = sorted({" ".join(t.casefold().split()) for t in texts})
    return hashlib.sha1("\n".join(tidy).encode(), usedforsecurity=False).hexdigest()[:16]


def parse_truth(value: Mapping[str, object], where: str) -> Truth:
    """Read a stored truth value.

    Raises:
        TruthVersionError: A newer version wrote it (the message names the item and the
            format, and says to upgrade).
        TruthFormatError: The value is not a truth.
    """
    form = value.get("format", 1) if isinstance(value, Mapping) else None
    if isinstance(form, int) and not isinstance(form, bool) and form > TRUTH_FORMAT:
        raise TruthVersionError(
            f"the truth {where} has format {form}; this version of langgraph-games reads "
            f"formats 1-{TRUTH_FORMAT}: upgrade langgraph-games to read this store"
        )
    try:
        return Truth.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        place = ".".join(str(p) for p in first["loc"]) or "value"
        raise TruthFormatError(
            f"the item {where} is not a truth record ({place}: {first['msg']})"
        ) from exc
