"""Typed records kept in a store: experiences (subjective memory) and truths (verified lessons).

Experiences live under ``("experiences", game)`` and truths under ``("truths", game)``,
one item per record keyed by its id, the value being the record as JSON. Any LangGraph
store works (``ChromaStore``, ``InMemoryStore``, ``SqliteStore``...).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from langgraph.store.base import BaseStore, PutOp, SearchItem
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)

from langgraph_games.memory.errors import MemoryLayerError

__all__ = [
    "Candidate",
    "Experience",
    "ExperienceStatus",
    "MergedSource",
    "Relation",
    "Source",
    "Truth",
    "TruthStatus",
    "aiterate",
    "asave_experience",
    "candidates_from_experience",
    "experiences_namespace",
    "iterate",
    "load_experiences",
    "save_experience",
    "truths_namespace",
]

_PAGE = 500
"""Items per search call when reading a whole namespace."""


def truths_namespace(game: str) -> tuple[str, str]:
    """Where a game's truths live: ``("truths", game)``."""
    return ("truths", game)


def experiences_namespace(game: str) -> tuple[str, str]:
    """Where a game's experiences live: ``("experiences", game)``."""
    return ("experiences", game)


class ExperienceStatus(str, Enum):
    """Life of an experience: written after play, then promoted or rejected by the replay."""

    PENDING = "pending"
    PROMOTED = "promoted"
    REJECTED = "rejected"


class TruthStatus(str, Enum):
    """Whether a truth is in use, folded into a merged entry, or undone by a round revert."""

    ACTIVE = "active"
    MERGED = "merged"
    REVERTED = "reverted"


class Relation(str, Enum):
    """How a candidate is attached to the truth that records it."""

    ORIGIN = "origin"
    """The candidate became this entry (or one of the entries merged into it)."""
    EXACT_DUPLICATE = "exact-duplicate"
    """The candidate repeated this entry's text and was dropped."""
    NEAR_DUPLICATE = "near-duplicate"
    """The candidate was almost the same (cosine over the duplicate threshold) and dropped."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)


class Experience(_Record):
    """What InsightForce wrote after an episode: the paper's subjective experience.

    Attributes:
        id: Unique key (stable across a resumed run).
        game: Game id.
        level: Level (or map) id the episode was played on.
        episode: Id of the source episode.
        round: Training round.
        text: The summary, "Due to ..., ... happened. Next time, I should ...".
        strengths: What went well, one item each.
        weaknesses: What went badly, one item each.
        metrics: The episode's metrics (score, success, steps, ...).
        replay_metrics: The verification replay's metrics, once it ran.
        status: Pending until the replay promotes or rejects it.
        provenance: Free-form facts about how it was produced (model id, prompt hash, ...).
    """

    id: str
    game: str
    level: str
    episode: str
    round: int
    text: str
    strengths: list[str] = Field(default_factory=list)
    weaknesses: list[str] = Field(default_factory=list)
    metrics: dict[str, float] = Field(default_factory=dict)
    replay_metrics: dict[str, float] | None = None
    status: ExperienceStatus = ExperienceStatus.PENDING
    provenance: dict[str, str] = Field(default_factory=dict)


class Candidate(_Record):
    """A lesson proposed for the truth base (from a promoted experience, or by hand).

    Its text is stored with runs of whitespace collapsed. ``id`` makes inserting
    idempotent: a candidate whose id a live truth already records is skipped, so a round
    resumed after a crash neither loses nor duplicates truths.
    """

    id: str
    text: str
    round: int
    kind: str = "summary"
    experience: str | None = None
    episode: str | None = None
    level: str | None = None
    metrics: dict[str, float] = Field(default_factory=dict)

    @field_validator("text")
    @classmethod
    def _tidy(cls, text: str) -> str:
        tidy = " ".join(text.split())
        if not tidy:
            raise ValueError("a candidate truth needs some text")
        return tidy


class Source(_Record):
    """One candidate recorded on a truth: the provenance that is never dropped.

    Attributes:
        candidate: The candidate's id.
        text: The candidate's text as proposed.
        round: Round in which it was attached to this truth.
        relation: How it is attached (origin, exact or near duplicate).
        similarity: Cosine similarity to the truth when it was attached as a near duplicate.
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
        candidate: Candidate,
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


class Truth(_Record):
    """A verified lesson in the truth base.

    Attributes:
        id: Key in ``("truths", game)``.
        game: Game id.
        text: The lesson as put into prompts.
        round: Round in which this entry was created.
        status: Active, merged into another entry, or reverted.
        kind: ``summary``/``strength``/``weakness`` from its candidate, or ``merged``.
        level: Level of its sources when they share one.
        episode: Episode of its sources when they share one.
        metrics: Metrics of the candidate it came from (empty for a merged entry).
        provenance: Every candidate this entry stands for, duplicates included.
        merged_from: Entries folded into this one (ids and texts kept).
        merged_into: Id of the entry this one was folded into, while merged.
        merged_round: Round of that merge.
        order: Position in the truth base: each new entry gets the next number, so prompts
            list truths in the order they were made whatever the store's timestamps.
        support: (computed, stored with the value) How many verified wins stand behind
            the lesson; see :attr:`support`.
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
    merged_from: list[MergedSource] = Field(default_factory=list)
    merged_into: str | None = None
    merged_round: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, data: Any) -> Any:
        # ``support`` is written with every value for readers of the raw store, but it is
        # derived from the provenance: what a value says about it is not read back.
        if isinstance(data, Mapping) and "support" in data:
            data = {k: v for k, v in data.items() if k != "support"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def support(self) -> int:
        """Verified wins behind this lesson: the distinct experiences in its provenance.

        Each source is a candidate from an experience whose replay was verified (the
        entry's origin, a repeat dropped as a duplicate, or a source of an entry merged
        into it); sources without an experience (added by hand) count one each, and
        several items of one experience count once. At least 1. Derived from
        ``provenance``, so stores written before the field existed read the same, and a
        reverted round's duplicates stop counting when the revert detaches them.
        """
        keys = {s.experience or f"candidate:{s.candidate}" for s in self.provenance}
        return max(1, len(keys))

    def to_value(self) -> dict[str, Any]:
        """The JSON value stored for this truth (``support`` included)."""
        return self.model_dump(mode="json")

    def candidate_ids(self) -> set[str]:
        """Ids of every candidate recorded on this truth."""
        return {source.candidate for source in self.provenance}


R = TypeVar("R", bound=_Record)


def parse_record(kind: type[R], value: Mapping[str, Any], where: str) -> R:
    """Validate a stored value as a record, naming the item when it does not fit."""
    try:
        return kind.model_validate(value)
    except ValidationError as exc:
        raise MemoryLayerError(
            f"the item {where} is not a valid {kind.__name__} record: {exc}"
        ) from exc


def candidates_from_experience(
    experience: Experience, *, round: int | None = None
) -> list[Candidate]:
    """The truth candidates of a promoted experience: its summary, each strength, each weakness.

    This is what the released Agent-ExpVer code promotes (every item becomes a truth);
    ids are derived from the experience id, so re-promoting it is a no-op.

    Example:
        >>> exp = Experience(id="e1", game="maze", level="l1", episode="ep1", round=1,
        ...                  text="Due to haste, I hit a wall.", strengths=["Found the key"])
        >>> [c.id for c in candidates_from_experience(exp)]
        ['e1/summary', 'e1/strength/0']
    """
    made = round if round is not None else experience.round
    items = [("summary", "summary", experience.text)]
    items += [(f"strength/{i}", "strength", t) for i, t in enumerate(experience.strengths)]
    items += [(f"weakness/{i}", "weakness", t) for i, t in enumerate(experience.weaknesses)]
    return [
        Candidate(
            id=f"{experience.id}/{suffix}",
            text=text.strip(),
            round=made,
            kind=kind,
            experience=experience.id,
            episode=experience.episode,
            level=experience.level,
            metrics=dict(experience.replay_metrics or experience.metrics),
        )
        for suffix, kind, text in items
        if text.strip()
    ]


def _experience_op(experience: Experience) -> PutOp:
    return PutOp(
        experiences_namespace(experience.game),
        experience.id,
        experience.model_dump(mode="json"),
        index=False,
    )


def save_experience(store: BaseStore, experience: Experience) -> None:
    """Write (or overwrite) an experience under ``("experiences", game)``."""
    store.batch([_experience_op(experience)])


async def asave_experience(store: BaseStore, experience: Experience) -> None:
    """Async :func:`save_experience` (the store's async API)."""
    await store.abatch([_experience_op(experience)])


def load_experiences(
    store: BaseStore,
    game: str,
    *,
    status: ExperienceStatus | None = None,
    level: str | None = None,
) -> list[Experience]:
    """A game's experiences by round then id, optionally only of one status or level."""
    filters: dict[str, Any] = {}
    if status is not None:
        filters["status"] = status.value
    if level is not None:
        filters["level"] = level
    namespace = experiences_namespace(game)
    records = [
        parse_record(Experience, item.value, f"{namespace}/{item.key}")
        for item in iterate(store, namespace, filters or None)
    ]
    return sorted(records, key=lambda e: (e.round, e.id))


def iterate(
    store: BaseStore, namespace: tuple[str, ...], filter: dict[str, Any] | None = None
) -> list[SearchItem]:
    """Every item in exactly ``namespace`` (not its sub-namespaces), paging through search."""
    out: list[SearchItem] = []
    offset = 0
    while True:
        batch = store.search(namespace, filter=filter, limit=_PAGE, offset=offset)
        out.extend(item for item in batch if tuple(item.namespace) == tuple(namespace))
        if len(batch) < _PAGE:
            return out
        offset += _PAGE


async def aiterate(
    store: BaseStore, namespace: tuple[str, ...], filter: dict[str, Any] | None = None
) -> list[SearchItem]:
    """Async :func:`iterate` (``await store.asearch``): for async nodes and async-only stores."""
    out: list[SearchItem] = []
    offset = 0
    while True:
        batch = await store.asearch(namespace, filter=filter, limit=_PAGE, offset=offset)
        out.extend(item for item in batch if tuple(item.namespace) == tuple(namespace))
        if len(batch) < _PAGE:
            return out
        offset += _PAGE
