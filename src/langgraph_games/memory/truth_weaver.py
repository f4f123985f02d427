"""TruthWeaver: curate a game's truth base, one lesson per meaning, with provenance and reverts."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from enum import Enum

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.store.base import BaseStore

from langgraph_games.memory import _revert
from langgraph_games.memory import merge_prompts as prompts
from langgraph_games.memory._relate import RETIRED, place
from langgraph_games.memory._revert import RevertReport
from langgraph_games.memory._rewrite import rewrite_truths
from langgraph_games.memory._truth_io import read_truths, truth_ops
from langgraph_games.memory._weave_state import Index, State, WeaveReport, digest
from langgraph_games.memory.contest import Arbiter, newer_wins
from langgraph_games.memory.embeddings import shared_embeddings
from langgraph_games.memory.records import Candidate, aiterate, iterate, truths_namespace
from langgraph_games.memory.relations import Verdict, check_relation
from langgraph_games.memory.truth_record import Change, Relation, Source, Truth, TruthStatus

__all__ = ["RevertReport", "TruthWeaver", "WeaveMode", "WeaveReport"]


class WeaveMode(str, Enum):
    """How candidates enter the truth base."""

    MERGE = "merge"
    """One lesson per meaning: the relation check places each candidate (default)."""
    REWRITE = "rewrite"
    """The released Agent-ExpVer code: skip exact repeats, then the model tidies the list."""
    APPEND = "append"
    """The paper's ablation without TruthWeaver: every candidate is appended as it comes."""


class TruthWeaver:
    """Insert candidate truths into a game's truth base, keeping one lesson per meaning.

    In the default ``merge`` mode each candidate is placed by its relation to its near
    neighbours (cosine similarity at least ``merge_threshold``, at most ``max_neighbours``
    of them), which ``model`` judges through structured output, one call per neighbour
    (:mod:`~langgraph_games.memory.relations`): the same meaning is recorded on the
    existing entry (its support grows), a more specific lesson replaces the more general
    one, a contradiction is settled by ``arbiter`` (the loser is retired with
    ``superseded_by``, never deleted), and an unrelated lesson is added. A candidate that
    means a retired (reverted, superseded or deleted) lesson is refused unless it brings
    new evidence. Without a model only exact and near duplicates (the same content words)
    are recognised. Every change is recorded in the entry's history with the candidate's
    round, so :meth:`revert_round` undoes a round exactly. Inserting is idempotent by
    candidate id. Run one weaver per truth base at a time (the single writer of
    ``("truths", game)``).

    Args:
        store: Any LangGraph store.
        game: Game id; truths live under ``("truths", game)``.
        model: Chat model of the relation check (and of ``rewrite``); ``None``: the
            embedding-only path.
        embeddings: Sentence embeddings for similarity; default the offline MiniLM shared
            with :func:`~langgraph_games.memory.minilm_index` (a store indexed with it
            reuses the vectors the weaver computed: one embedding per truth). Give your
            own store and weaver one :class:`~langgraph_games.memory.embeddings.
            CachedEmbeddings` for the same.
        mode: ``merge`` (default), ``rewrite`` (released code) or ``append`` (ablation).
        duplicate_threshold: Cosine similarity from which a candidate may be a near
            duplicate (the path without a model).
        merge_threshold: Cosine similarity from which an entry is a near neighbour whose
            relation is checked.
        max_neighbours: Most neighbours checked per candidate (active and retired ones
            apart): at most this many model calls each.
        arbiter: Settles a contradiction (default :func:`~langgraph_games.memory.contest.
            newer_wins`; the ExpVer loop replays levels).
        min_merged_similarity: A rewritten lesson must be at least this similar to each
            entry it replaces (``rewrite`` mode).
        game_name: How prompts name the game (default ``game``).
        checkpoint_every: Write to the store after this many candidates (each write is one
            store batch, applied whole). 1 loses no work on a crash; larger values save the
            per-write cost of a persistent store (about 30 ms each for ChromaStore on disk).

    Example:
        >>> from langgraph.store.memory import InMemoryStore
        >>> weaver = TruthWeaver(InMemoryStore(), "maze")
        >>> report = weaver.insert_many([
        ...     Candidate(id="c1", text="Avoid walls: each hit costs a life.", round=1),
        ...     Candidate(id="c2", text="avoid walls: each hit costs a life", round=1),
        ...     Candidate(id="c3", text="Pick up the key before the goal.", round=1)])
        >>> (report.added, report.exact_duplicates), [t.text[:11] for t in weaver.truths()]
        ((2, 1), ['Avoid walls', 'Pick up the'])
    """

    def __init__(
        self,
        store: BaseStore,
        game: str,
        *,
        model: BaseChatModel | None = None,
        embeddings: Embeddings | None = None,
        mode: WeaveMode | str = WeaveMode.MERGE,
        duplicate_threshold: float = 0.95,
        merge_threshold: float = 0.65,
        max_neighbours: int = 3,
        arbiter: Arbiter | None = None,
        min_merged_similarity: float = 0.5,
        game_name: str | None = None,
        checkpoint_every: int = 1,
    ) -> None:
        if not 0.0 < merge_threshold <= duplicate_threshold <= 1.0:
            raise ValueError(
                "thresholds must satisfy 0 < merge_threshold <= duplicate_threshold <= 1, got "
                f"merge_threshold={merge_threshold}, duplicate_threshold={duplicate_threshold}"
            )
        if max_neighbours < 1:
            raise ValueError(f"max_neighbours must be at least 1, got {max_neighbours}")
        if checkpoint_every < 1:
            raise ValueError(f"checkpoint_every must be at least 1, got {checkpoint_every}")
        self.checkpoint_every = checkpoint_every
        self.store = store
        self.game = game
        self.namespace = truths_namespace(game)
        self.model = model
        self.embeddings = embeddings if embeddings is not None else shared_embeddings()
        self.mode = WeaveMode(mode)
        self.duplicate_threshold = duplicate_threshold
        self.merge_threshold = merge_threshold
        self.max_neighbours = max_neighbours
        self.arbiter: Arbiter = arbiter or newer_wins
        self.min_merged_similarity = min_merged_similarity
        self.game_name = game_name or game
        self._vectors: dict[str, np.ndarray] = {}
        self._verdicts: dict[tuple[str, str], Verdict] = {}
        self._written: list[Truth] | None = None

    # -- reading ---------------------------------------------------------------------------

    def truths(self, status: TruthStatus | None = TruthStatus.ACTIVE) -> list[Truth]:
        """Entries of the truth base (default the active ones), in the order they were made."""
        return _of_status(self._read(), status)

    async def atruths(self, status: TruthStatus | None = TruthStatus.ACTIVE) -> list[Truth]:
        """Async :meth:`truths` (the store's async API)."""
        return _of_status(await self._aread(), status)

    def written(self) -> list[Truth] | None:
        """Every entry (all statuses) as this weaver's latest insert left the store.

        What :meth:`truths` with ``status=None`` would read right after that insert, without
        reading: for the weaver's caller, who need not read the truth base again. ``None``
        before any insert, and after a revert (which leaves it to the next read).
        """
        return self._written

    def _read(self) -> dict[str, Truth]:
        return read_truths(iterate(self.store, self.namespace), self.namespace)

    async def _aread(self) -> dict[str, Truth]:
        return read_truths(await aiterate(self.store, self.namespace), self.namespace)

    def _embed(self, texts: Sequence[str]) -> None:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if not missing:
            return
        rows = np.asarray(self.embeddings.embed_documents(missing), dtype=np.float32)
        rows /= np.clip(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12, None)
        self._vectors.update(zip(missing, rows, strict=True))

    def _vector(self, text: str) -> np.ndarray:
        self._embed([text])
        return self._vectors[text]

    def _load(self) -> State:
        truths = self._read()
        known: set[str] = set()
        for truth in truths.values():
            known |= truth.candidate_ids() if truth.live else truth.turned_away()
        state = State(truths, known, {}, Index())
        placed = sorted(
            (t for t in truths.values() if t.status != TruthStatus.MERGED),
            key=lambda t: (t.order, t.id),
        )
        if self.mode != WeaveMode.APPEND and placed:
            self._embed([t.text for t in placed])
        for truth in placed:
            self._place_in(state, truth)
        return state

    def _place_in(self, state: State, truth: Truth) -> None:
        """Index ``truth`` by text and vector for the next candidates."""
        norm = prompts.normalize_text(truth.text)
        for table in (state.by_text, state.retired_by_text):
            if table.get(norm) == truth.id:
                del table[norm]
        if truth.status == TruthStatus.ACTIVE:
            state.by_text.setdefault(norm, truth.id)
        elif truth.status in RETIRED:
            state.retired_by_text[norm] = truth.id
        if self.mode == WeaveMode.APPEND:
            return
        if truth.status == TruthStatus.MERGED:
            state.index.remove(truth.id)
        elif truth.id not in state.index:
            state.index.add(truth.id, self._vector(truth.text))

    def _relation(
        self, candidate: str, neighbour: str, report: WeaveReport, config: RunnableConfig | None
    ) -> Verdict:
        """The relation of two texts: asked once per weaver, counted in ``report``."""
        key = (candidate, neighbour)
        verdict = self._verdicts.get(key)
        if verdict is None:
            assert self.model is not None
            verdict = check_relation(self.model, self.game_name, candidate, neighbour, config)
            self._verdicts[key] = verdict
            if verdict.source != "exact":
                report.relation_calls += 1
        if verdict.meaning is None:
            report.unresolved += 1
        return verdict

    # -- writing ---------------------------------------------------------------------------

    def _save(self, state: State, changed: Sequence[Truth]) -> None:
        """Apply changed entries to the working state; they are written by :meth:`_flush`."""
        for truth in changed:
            state.truths[truth.id] = truth
            state.pending[truth.id] = truth
            state.known |= truth.candidate_ids() if truth.live else truth.turned_away()
            self._place_in(state, truth)

    def _flush(self, state: State) -> None:
        """Write the pending entries in one store batch (one Chroma call: all or nothing)."""
        if state.pending:
            self.store.batch(truth_ops(self.namespace, state.pending.values()))
            state.pending.clear()

    def _new_entry(self, state: State, candidate: Candidate, detail: str = "") -> Truth:
        return Truth(
            id=f"t-{digest(self.game, candidate.id, candidate.round)}",
            game=self.game,
            text=candidate.text,
            round=candidate.round,
            order=state.next_order(),
            kind=candidate.kind,
            level=candidate.level,
            episode=candidate.episode,
            metrics=dict(candidate.metrics),
            provenance=[Source.of(candidate)],
            evidence=list(candidate.evidence),
            history=[Change.of(candidate, "created", detail)],
        )

    def insert(
        self,
        candidate: Candidate,
        *,
        config: RunnableConfig | None = None,
        arbiter: Arbiter | None = None,
    ) -> WeaveReport:
        """Insert one candidate; see :meth:`insert_many`."""
        return self.insert_many([candidate], config=config, arbiter=arbiter)

    def insert_many(
        self,
        candidates: Iterable[Candidate],
        *,
        config: RunnableConfig | None = None,
        arbiter: Arbiter | None = None,
    ) -> WeaveReport:
        """Insert candidates in order, writing every ``checkpoint_every`` of them.

        A crash loses at most the candidates since the last write; inserting the same
        candidates again (idempotent by id) resumes where it stopped.

        Args:
            candidates: The candidates, in order.
            config: The caller's ``RunnableConfig``, passed on to every model call.
            arbiter: Settles contradictions in this call (default: the weaver's).

        Returns:
            What happened to them, counted, and each candidate's outcome in words.
        """
        candidates = list(candidates)
        report = WeaveReport(candidates=len(candidates))
        self._written = None
        state = self._load()
        if self.mode == WeaveMode.MERGE:
            self._embed([c.text for c in candidates if c.id not in state.known])
        for done, candidate in enumerate(candidates, 1):
            if candidate.id in state.known:
                report.already_present += 1
                report.outcomes[candidate.id] = "already recorded"
            elif self.mode == WeaveMode.APPEND:
                entry = self._new_entry(state, candidate)
                self._save(state, [entry])
                report.added += 1
                report.outcomes[candidate.id] = f"added as {entry.id}"
            elif self.mode == WeaveMode.REWRITE:
                report.outcomes[candidate.id] = self._append_unless_repeated(
                    state, candidate, report
                )
            else:
                report.outcomes[candidate.id] = place(
                    self, state, candidate, report, config, arbiter or self.arbiter
                )
            if done % self.checkpoint_every == 0:
                self._flush(state)
        self._flush(state)
        if self.mode == WeaveMode.REWRITE and candidates:
            rewrite_truths(self, state, max(c.round for c in candidates), report, config)
            self._flush(state)
        # As a read gives them back (the stored value, e.g. its format, not the working copy).
        self._written = [Truth.model_validate(t.to_value()) for t in _of_status(state.truths, None)]
        return report

    async def ainsert_many(
        self,
        candidates: Iterable[Candidate],
        *,
        config: RunnableConfig | None = None,
        arbiter: Arbiter | None = None,
    ) -> WeaveReport:
        """Async :meth:`insert_many` (runs in a worker thread)."""
        return await asyncio.to_thread(
            self.insert_many, list(candidates), config=config, arbiter=arbiter
        )

    def _append_unless_repeated(
        self, state: State, candidate: Candidate, report: WeaveReport
    ) -> str:
        """The released code before its rewrite: skip an exact repeat, else append."""
        same = state.by_text.get(prompts.normalize_text(candidate.text))
        if same is None:
            entry = self._new_entry(state, candidate)
            self._save(state, [entry])
            report.added += 1
            return f"added as {entry.id}"
        truth = state.truths[same]
        source = Source.of(candidate, Relation.EXACT_DUPLICATE, 1.0)
        change = Change(round=candidate.round, action="exact-duplicate", other=candidate.id)
        self._save(state, [truth.changed(change, provenance=[*truth.provenance, source])])
        report.exact_duplicates += 1
        return f"duplicate of {same}"

    # -- reverting -------------------------------------------------------------------------

    def revert_round(self, round_: int) -> RevertReport:
        """Undo every change stamped with ``round_``: the paper's revert when a round hurts.

        Entries created in the round are marked reverted (kept, for the record, so a
        candidate meaning one of them later is refused without new evidence); entries it
        superseded or merged away are active again; entries it brought back are retired
        again; sources, evidence and history it added are removed; all in one store batch.

        Raises:
            RevertError: A later round still builds on the truth base (revert it first).
        """
        self._written = None
        return _revert.revert_round(self.store, self.namespace, self._read(), round_)

    async def arevert_round(self, round_: int) -> RevertReport:
        """Async :meth:`revert_round` (the store's async API, one batch)."""
        self._written = None
        return await _revert.arevert_round(self.store, self.namespace, await self._aread(), round_)


def _of_status(records: dict[str, Truth], status: TruthStatus | None) -> list[Truth]:
    chosen = [t for t in records.values() if status is None or t.status == status]
    return sorted(chosen, key=lambda t: (t.order, t.id))
