"""Typed records kept in a store: experiences (subjective memory) and truths (verified lessons).

Experiences live under ``("experiences", game)`` and truths under ``("truths", game)``,
one item per record keyed by its id, the value being the record as JSON. Any LangGraph
store works (``ChromaStore``, ``InMemoryStore``, ``SqliteStore``...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Literal, TypeVar

from langgraph.store.base import BaseStore, PutOp, SearchItem
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from langgraph_games.memory.errors import MemoryLayerError
from langgraph_games.memory.truth_record import (
    Evidence,
    MergedSource,
    Relation,
    Source,
    Truth,
    TruthStatus,
)

__all__ = [
    "Candidate",
    "Evidence",
    "Experience",
    "ExperienceStatus",
    "Lesson",
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


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)


class Lesson(_Record):
    """One lesson of a reflection, typed by the model that wrote it.

    Attributes:
        kind: ``advice`` (tells the player what to do; may become a truth) or
            ``observation`` (what happened; stays on the experience).
        text: The lesson in one sentence.
        situation: When it applies (may be empty).
        action: What it recommends (advice; may be empty).
        section: ``strength`` or ``weakness`` when the model filed it under one.
    """

    kind: Literal["advice", "observation"]
    text: str
    situation: str = ""
    action: str = ""
    section: str = ""


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
        lessons: The reflection's lessons, typed by the model (advice or observation);
            empty for an untyped reflection.
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
    lessons: list[Lesson] = Field(default_factory=list)
    metrics: dict[str, float] = Field(default_factory=dict)
    replay_metrics: dict[str, float] | None = None
    status: ExperienceStatus = ExperienceStatus.PENDING
    provenance: dict[str, str] = Field(default_factory=dict)


class Candidate(_Record):
    """A lesson proposed for the truth base (from a promoted experience, or by hand).

    Its text is stored with runs of whitespace collapsed. ``id`` makes inserting
    idempotent: a candidate whose id a live truth already records is skipped, so a round
    resumed after a crash neither loses nor duplicates truths. ``evidence`` is what
    verified it (the replay that beat the play), carried onto the truth it becomes.
    """

    id: str
    text: str
    round: int
    kind: str = "summary"
    experience: str | None = None
    episode: str | None = None
    level: str | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    evidence: list[Evidence] = Field(default_factory=list)

    @field_validator("text")
    @classmethod
    def _tidy(cls, text: str) -> str:
        tidy = " ".join(text.split())
        if not tidy:
            raise ValueError("a candidate truth needs some text")
        return tidy


R = TypeVar("R", bound=_Record)


def parse_record(kind: type[R], value: Mapping[str, object], where: str) -> R:
    """Validate a stored value as a record, naming the item when it does not fit."""
    try:
        return kind.model_validate(value)
    except ValidationError as exc:
        raise MemoryLayerError(
            f"the item {where} is not a valid {kind.__name__} record: {exc}"
        ) from exc


def candidates_from_experience(
    experience: Experience, *, round: int | None = None, evidence: Sequence[Evidence] = ()
) -> list[Candidate]:
    """The truth candidates of a promoted experience, each carrying ``evidence``.

    A typed experience (:attr:`Experience.lessons`) gives its summary and every lesson
    (kind ``advice`` or ``observation``, ids ``<experience>/lesson/<i>``); an untyped one
    gives its summary, each strength and each weakness, as the released Agent-ExpVer code
    promoted them. Ids are derived from the experience id, so re-promoting it is a no-op.
    Which of them may become truths is the caller's choice (the ExpVer loop keeps advice).

    Example:
        >>> exp = Experience(id="e1", game="maze", level="l1", episode="ep1", round=1,
        ...                  text="Due to haste, I hit a wall.", strengths=["Found the key"])
        >>> [c.id for c in candidates_from_experience(exp)]
        ['e1/summary', 'e1/strength/0']
    """
    made = round if round is not None else experience.round
    items = [("summary", "summary", experience.text)]
    if experience.lessons:
        items += [(f"lesson/{i}", x.kind, x.text) for i, x in enumerate(experience.lessons)]
    else:
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
            evidence=list(evidence),
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
    filters: dict[str, object] = {}
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
    store: BaseStore, namespace: tuple[str, ...], filter: Mapping[str, object] | None = None
) -> list[SearchItem]:
    """Every item in exactly ``namespace`` (not its sub-namespaces), paging through search."""
    out: list[SearchItem] = []
    offset = 0
    where = None if filter is None else dict(filter)
    while True:
        batch = store.search(namespace, filter=where, limit=_PAGE, offset=offset)
        out.extend(item for item in batch if tuple(item.namespace) == tuple(namespace))
        if len(batch) < _PAGE:
            return out
        offset += _PAGE


async def aiterate(
    store: BaseStore, namespace: tuple[str, ...], filter: Mapping[str, object] | None = None
) -> list[SearchItem]:
    """Async :func:`iterate` (``await store.asearch``): for async nodes and async-only stores."""
    out: list[SearchItem] = []
    offset = 0
    where = None if filter is None else dict(filter)
    while True:
        batch = await store.asearch(namespace, filter=where, limit=_PAGE, offset=offset)
        out.extend(item for item in batch if tuple(item.namespace) == tuple(namespace))
        if len(batch) < _PAGE:
            return out
        offset += _PAGE
