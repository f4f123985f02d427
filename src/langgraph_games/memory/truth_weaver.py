"""TruthWeaver: curate a game's truth base (dedupe, merge with provenance, revert a round)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from enum import Enum

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.store.base import BaseStore, PutOp, SearchItem

from langgraph_games.memory import _revert
from langgraph_games.memory import merge_prompts as prompts
from langgraph_games.memory._revert import RevertReport
from langgraph_games.memory._rewrite import rewrite_truths
from langgraph_games.memory._weave_state import Index, State, WeaveReport, common, digest
from langgraph_games.memory.embeddings import default_embeddings
from langgraph_games.memory.meaning import same_meaning
from langgraph_games.memory.records import (
    Candidate,
    MergedSource,
    Relation,
    Source,
    Truth,
    TruthStatus,
    aiterate,
    iterate,
    parse_record,
    truths_namespace,
)

__all__ = ["RevertReport", "TruthWeaver", "WeaveMode", "WeaveReport"]


class WeaveMode(str, Enum):
    """How candidates enter the truth base."""

    MERGE = "merge"
    """Drop exact and near duplicates, merge similar entries with the model (default)."""
    REWRITE = "rewrite"
    """The released Agent-ExpVer code: skip exact repeats, then the model tidies the list."""
    APPEND = "append"
    """The paper's ablation without TruthWeaver: every candidate is appended as it comes."""


class TruthWeaver:
    """Insert candidate truths into a game's truth base, keeping it free of repeats.

    In the default ``merge`` mode a candidate is dropped if it repeats an active entry
    exactly (after :func:`~langgraph_games.memory.merge_prompts.normalize_text`) or nearly
    (cosine similarity at least ``duplicate_threshold`` *and* the same content words, see
    :func:`~langgraph_games.memory.meaning.same_meaning`), its provenance then recorded on
    that entry (which raises its ``support``); merged by ``model`` with the entries it
    resembles (similarity at least ``merge_threshold``, near duplicates that may say
    something else included) into one entry that keeps their ids, texts and every number,
    negation and direction; and otherwise added. Every change is stamped with the
    candidate's round, so :meth:`revert_round` can undo a round exactly. Inserting is
    idempotent by candidate id. Run one weaver per truth base at a time (it is the single
    writer of ``("truths", game)``).

    Args:
        store: Any LangGraph store.
        game: Game id; truths live under ``("truths", game)``.
        model: Chat model that merges similar entries (any LangChain ``BaseChatModel``);
            ``None`` keeps similar entries apart (the embedding-only path).
        embeddings: Sentence embeddings for similarity; default the offline MiniLM.
        mode: ``merge`` (default), ``rewrite`` (released code) or ``append`` (ablation).
        duplicate_threshold: Cosine similarity from which a candidate is a near duplicate.
        merge_threshold: Cosine similarity from which entries are offered for merging.
        max_merge_group: Most entries (candidate included) merged at once.
        min_merged_similarity: A merged text must be at least this similar to each source.
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
        max_merge_group: int = 3,
        min_merged_similarity: float = 0.5,
        game_name: str | None = None,
        checkpoint_every: int = 1,
    ) -> None:
        if not 0.0 < merge_threshold <= duplicate_threshold <= 1.0:
            raise ValueError(
                "thresholds must satisfy 0 < merge_threshold <= duplicate_threshold <= 1, got "
                f"merge_threshold={merge_threshold}, duplicate_threshold={duplicate_threshold}"
            )
        if max_merge_group < 2:
            raise ValueError(f"max_merge_group must be at least 2, got {max_merge_group}")
        if checkpoint_every < 1:
            raise ValueError(f"checkpoint_every must be at least 1, got {checkpoint_every}")
        self.checkpoint_every = checkpoint_every
        self.store = store
        self.game = game
        self.namespace = truths_namespace(game)
        self.model = model
        self.embeddings = embeddings if embeddings is not None else default_embeddings()
        self.mode = WeaveMode(mode)
        self.duplicate_threshold = duplicate_threshold
        self.merge_threshold = merge_threshold
        self.max_merge_group = max_merge_group
        self.min_merged_similarity = min_merged_similarity
        self.game_name = game_name or game
        self._vectors: dict[str, np.ndarray] = {}

    # -- reading ---------------------------------------------------------------------------

    def truths(self, status: TruthStatus | None = TruthStatus.ACTIVE) -> list[Truth]:
        """Entries of the truth base (default the active ones), in the order they were made."""
        return _of_status(self._read(), status)

    async def atruths(self, status: TruthStatus | None = TruthStatus.ACTIVE) -> list[Truth]:
        """Async :meth:`truths` (the store's async API)."""
        return _of_status(await self._aread(), status)

    def _read(self) -> dict[str, Truth]:
        return self._parsed(iterate(self.store, self.namespace))

    async def _aread(self) -> dict[str, Truth]:
        return self._parsed(await aiterate(self.store, self.namespace))

    def _parsed(self, items: Sequence[SearchItem]) -> dict[str, Truth]:
        return {
            item.key: parse_record(Truth, item.value, f"{self.namespace}/{item.key}")
            for item in items
        }

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
        live = [t for t in truths.values() if t.status != TruthStatus.REVERTED]
        active = sorted(
            (t for t in live if t.status == TruthStatus.ACTIVE), key=lambda t: (t.order, t.id)
        )
        known = {cid for t in live for cid in t.candidate_ids()}
        state = State(truths, known, {}, Index())
        if self.mode != WeaveMode.APPEND and active:
            self._embed([t.text for t in active])
        for truth in active:
            state.by_text.setdefault(prompts.normalize_text(truth.text), truth.id)
            if self.mode != WeaveMode.APPEND:
                state.index.add(truth.id, self._vectors[truth.text])
        return state

    # -- writing ---------------------------------------------------------------------------

    def _save(self, state: State, changed: Sequence[Truth]) -> None:
        """Apply changed entries to the working state; they are written by :meth:`_flush`."""
        for truth in changed:
            state.truths[truth.id] = truth
            state.pending[truth.id] = truth
            if truth.status != TruthStatus.REVERTED:
                state.known |= truth.candidate_ids()
            norm = prompts.normalize_text(truth.text)
            if truth.status == TruthStatus.ACTIVE:
                if norm not in state.by_text:
                    state.by_text[norm] = truth.id
                    if self.mode != WeaveMode.APPEND:
                        state.index.add(truth.id, self._vector(truth.text))
            else:
                if state.by_text.get(norm) == truth.id:
                    del state.by_text[norm]
                state.index.remove(truth.id)

    def _flush(self, state: State) -> None:
        """Write the pending entries in one store batch (one Chroma call: all or nothing)."""
        if state.pending:
            self.store.batch(
                [
                    PutOp(self.namespace, t.id, t.to_value(), index=["text"])
                    for t in state.pending.values()
                ]
            )
            state.pending.clear()

    def _new_entry(self, state: State, candidate: Candidate) -> Truth:
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
        )

    def insert(self, candidate: Candidate, *, config: RunnableConfig | None = None) -> WeaveReport:
        """Insert one candidate; see :meth:`insert_many`."""
        return self.insert_many([candidate], config=config)

    def insert_many(
        self, candidates: Iterable[Candidate], *, config: RunnableConfig | None = None
    ) -> WeaveReport:
        """Insert candidates in order, writing every ``checkpoint_every`` of them.

        A crash loses at most the candidates since the last write; inserting the same
        candidates again (idempotent by id) resumes where it stopped.

        Args:
            candidates: The candidates, in order.
            config: The caller's ``RunnableConfig``, passed on to every model call.

        Returns:
            What happened to them, counted.
        """
        candidates = list(candidates)
        report = WeaveReport(candidates=len(candidates))
        state = self._load()
        if self.mode == WeaveMode.MERGE:
            self._embed([c.text for c in candidates if c.id not in state.known])
        for done, candidate in enumerate(candidates, 1):
            if candidate.id in state.known:
                report.already_present += 1
            elif self.mode == WeaveMode.APPEND:
                self._save(state, [self._new_entry(state, candidate)])
                report.added += 1
            else:
                self._weave(state, candidate, report, config)
            if done % self.checkpoint_every == 0:
                self._flush(state)
        self._flush(state)
        if self.mode == WeaveMode.REWRITE and candidates:
            self._rewrite(state, max(c.round for c in candidates), report, config)
            self._flush(state)
        return report

    async def ainsert_many(
        self, candidates: Iterable[Candidate], *, config: RunnableConfig | None = None
    ) -> WeaveReport:
        """Async :meth:`insert_many` (runs in a worker thread)."""
        return await asyncio.to_thread(self.insert_many, list(candidates), config=config)

    def _attach(
        self, state: State, truth_id: str, source: Source, report: WeaveReport, exact: bool
    ) -> None:
        truth = state.truths[truth_id]
        self._save(state, [truth.model_copy(update={"provenance": [*truth.provenance, source]})])
        if exact:
            report.exact_duplicates += 1
        else:
            report.near_duplicates += 1

    def _weave(
        self,
        state: State,
        candidate: Candidate,
        report: WeaveReport,
        config: RunnableConfig | None,
    ) -> None:
        same = state.by_text.get(prompts.normalize_text(candidate.text))
        if same is not None:
            source = Source.of(candidate, Relation.EXACT_DUPLICATE, 1.0)
            self._attach(state, same, source, report, exact=True)
            return
        if self.mode == WeaveMode.REWRITE:
            self._save(state, [self._new_entry(state, candidate)])
            report.added += 1
            return
        ranked = state.index.similar(self._vector(candidate.text))
        near = [(score, tid) for score, tid in ranked if score >= self.duplicate_threshold]
        for score, tid in near:
            # Similar vectors are not enough: "always X" / "never X" score 0.99.
            if same_meaning(candidate.text, state.truths[tid].text):
                source = Source.of(candidate, Relation.NEAR_DUPLICATE, round(score, 4))
                self._attach(state, tid, source, report, exact=False)
                return
        if near:
            report.near_different += 1
        group = [state.truths[tid] for s, tid in ranked if s >= self.merge_threshold]
        group = group[: self.max_merge_group - 1]
        if group and self.model is not None:
            merged, reason = self._merge(state, group, candidate, config)
            if merged is not None:
                self._save(state, merged)
                report.merged += 1
                return
            if reason == "separate":
                report.similar_kept += 1
            else:
                report.merge_failures += 1
                report.failure_reasons[reason] += 1
        elif group:
            report.similar_kept += 1
        self._save(state, [self._new_entry(state, candidate)])
        report.added += 1

    def _merge(
        self,
        state: State,
        group: list[Truth],
        candidate: Candidate,
        config: RunnableConfig | None,
    ) -> tuple[list[Truth] | None, str]:
        """Ask the model to fold ``group`` and the candidate into one entry."""
        assert self.model is not None
        texts = [t.text for t in group] + [candidate.text]
        try:
            reply = prompts.ask(self.model, prompts.merge_messages(self.game_name, texts), config)
        except Exception:  # noqa: BLE001 - a failing model must not lose the round's truths
            return None, "model-error"
        text, reason = prompts.parse_merge_reply(reply, texts)
        if text is None:
            return None, reason
        vector = self._vector(text)
        if min(float(self._vector(t) @ vector) for t in texts) < self.min_merged_similarity:
            return None, "drifted"
        merged = Truth(
            id=f"m-{digest(self.game, sorted(t.id for t in group), candidate.id)}",
            game=self.game,
            text=text,
            round=candidate.round,
            order=state.next_order(),
            kind="merged",
            level=common([*(t.level for t in group), candidate.level]),
            episode=common([*(t.episode for t in group), candidate.episode]),
            provenance=[s for t in group for s in t.provenance] + [Source.of(candidate)],
            merged_from=[MergedSource(id=t.id, text=t.text, round=t.round) for t in group],
        )
        folded = [
            t.model_copy(
                update={
                    "status": TruthStatus.MERGED,
                    "merged_into": merged.id,
                    "merged_round": candidate.round,
                }
            )
            for t in group
        ]
        return [merged, *folded], "ok"

    def _rewrite(
        self, state: State, round_: int, report: WeaveReport, config: RunnableConfig | None
    ) -> None:
        """The released code's step: the model tidies the whole list, provenance kept."""
        rewrite_truths(self, state, round_, report, config)

    # -- reverting -------------------------------------------------------------------------

    def revert_round(self, round_: int) -> RevertReport:
        """Undo every change stamped with ``round_``: the paper's revert when a round hurts.

        Entries created in the round are marked reverted (kept, for the record), entries it
        merged away are active again, and duplicate provenance it attached is removed; all
        in one store batch.

        Raises:
            RevertError: A later round still builds on the truth base (revert it first).
        """
        return _revert.revert_round(self.store, self.namespace, self._read(), round_)

    async def arevert_round(self, round_: int) -> RevertReport:
        """Async :meth:`revert_round` (the store's async API, one batch)."""
        return await _revert.arevert_round(self.store, self.namespace, await self._aread(), round_)


def _of_status(records: dict[str, Truth], status: TruthStatus | None) -> list[Truth]:
    chosen = [t for t in records.values() if status is None or t.status == status]
    return sorted(chosen, key=lambda t: (t.order, t.id))
