"""ChromaStore: a LangGraph ``BaseStore`` kept in Chroma, searchable with offline vectors."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import threading
import uuid
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from langgraph_games._extras import missing_extra
from langgraph_games.memory import _chroma_read as read
from langgraph_games.memory import _lock
from langgraph_games.memory._chroma_check import check_store, chroma_errors, damaged, vectors_lost
from langgraph_games.memory._chroma_full import check_room, disk_full
from langgraph_games.memory._chroma_open import (
    FORMAT,
    check_database,
    check_directory,
    connect,
    embed_identity,
    open_collection,
)
from langgraph_games.memory._chroma_rebuild import RepairReport, rebuild
from langgraph_games.memory._chroma_write import write_items
from langgraph_games.memory._codec import check_namespace_for_put, check_put_value, item_id
from langgraph_games.memory.errors import EmbeddingDimensionError, MemoryExtraError, StoreOpenError

__all__ = ["ChromaStore", "RepairReport"]

_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,480}[A-Za-z0-9])?$")
_write_locks: dict[tuple[str, str], threading.RLock] = {}
_write_locks_guard = threading.Lock()


def _shared_write_lock(location: str, name: str) -> threading.RLock:
    with _write_locks_guard:
        return _write_locks.setdefault((location, name), threading.RLock())


@dataclass
class _Plan:
    results: list[Result]
    reads: list[tuple[int, Op]] = field(default_factory=list)
    writes: list[PutOp] = field(default_factory=list)
    paths: dict[tuple[tuple[str, ...], str], list[tuple[str, str]]] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)


class ChromaStore(BaseStore):
    """A LangGraph store whose items live in Chroma: persistent, shared, searchable.

    Items are JSON objects under namespaced keys, exactly as in LangGraph's stores; with an
    ``index`` config, the configured fields are embedded and ``search(query=...)`` ranks by
    cosine similarity (Chroma's own default embedding, which downloads a model, is never
    used). Works as ``graph.compile(store=ChromaStore(...))`` and directly.

    Where it lives (give at most one):

    * ``path``: a persistent directory, owned by one process at a time (a lock file is
      held while the store is open; see :meth:`close`).
    * ``host``/``port``: a Chroma server (``chroma run --path DIR --port N``) that any
      number of processes share.
    * ``client``: any Chroma client you built yourself.
    * none: an in-memory store, dropped by :meth:`close`.

    Args:
        path: Persistent directory (created if missing; must be empty or a Chroma store).
        client: A ready Chroma client.
        host: Chroma server host.
        port: Chroma server port.
        ssl: Use HTTPS for the server.
        headers: Extra HTTP headers for the server.
        index: LangGraph ``IndexConfig`` (``dims``, ``embed``, ``fields``); see
            :func:`~langgraph_games.memory.minilm_index` for the offline default.
        name: Prefix of the two Chroma collections (``<name>-items``, ``<name>-vectors``);
            several stores can share one Chroma database under different names.
        hnsw: Extra Chroma HNSW settings for a new vectors collection (``ef_search``, ...).
        lock_timeout: Seconds to wait for another process to release ``path``.
        reindex: Rebuild every vector if the store was indexed with another embedding.

    Opening a directory first lets SQLite roll back a write that a kill or a crash
    interrupted (with a logged warning), then checks that the vector index answers for
    its records; a lost or unreadable one is rebuilt from the records (with a logged
    warning) when an index config is given. A directory whose records file is missing
    or empty while index folders are there is refused, never opened as a new store.

    Raises:
        StoreOpenError: The location is corrupt, not a Chroma store, written by an
            incompatible format, (``StoreLockedError``) held by another process, or
            (``StoreDamagedError``) holds index files Chroma cannot read that cannot be
            rebuilt, or has lost its records file; ``StoreDamagedError`` also when Chroma
            fails on a later read or write; (``StoreFullError``) the disk holding the
            store is full, when opening or on a later write.
        EmbeddingDimensionError: ``index["dims"]`` differs from the store's vectors.

    Example:
        >>> from langgraph_games.memory import ChromaStore, minilm_index
        >>> with ChromaStore(index=minilm_index(["text"])) as store:
        ...     store.put(("truths", "maze"), "t1", {"text": "Avoid monsters at night."})
        ...     store.put(("truths", "maze"), "t2", {"text": "Collect every coin first."})
        ...     [hit.key for hit in store.search(("truths",), query="stay away from enemies")]
        ['t1', 't2']
    """

    supports_ttl = False

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        client: Any = None,
        host: str | None = None,
        port: int = 8000,
        ssl: bool = False,
        headers: Mapping[str, str] | None = None,
        index: IndexConfig | None = None,
        name: str | None = None,
        hnsw: Mapping[str, Any] | None = None,
        lock_timeout: float = 10.0,
        reindex: bool = False,
    ) -> None:
        if sum(x is not None for x in (path, client, host)) > 1:
            raise ValueError("give at most one of path=, client= and host=")
        missing = missing_extra("memory", "a ChromaStore", {"chromadb": "chromadb"})
        if missing is not None:  # before the lock or any file: nothing is left behind
            raise MemoryExtraError(missing)
        self._ephemeral = path is None and client is None and host is None
        self.name = name or (f"mem{uuid.uuid4().hex[:12]}" if self._ephemeral else "langgraph")
        if not _NAME.match(self.name):
            raise ValueError(
                f"name {self.name!r} is not usable: 1-480 characters from [A-Za-z0-9._-], "
                "starting and ending with a letter or digit"
            )
        self._prepare_index(index)
        self._lock_token: str | None = None
        self._directory = Path(path) if path is not None else None
        first_here = False
        if self._directory is not None:
            check_directory(self._directory)  # refusals that change nothing, lock included
            first_here = not _lock.holds(self._directory)
            self._lock_token = _lock.acquire(self._directory, lock_timeout)
        # What close() (or garbage collection) must let go of: the Chroma client this store
        # made, then the directory lock. Closing the client matters: Chroma keeps one cached
        # index per path and process, which would not see another process's later writes.
        self._held = _Held(lock=self._lock_token)
        self._finalizer = weakref.finalize(self, _release, self._held)
        try:
            if self._directory is not None and first_here:
                # Under the lock, before Chroma sees the files; skipped while this process
                # already has the store open (its Chroma client holds the database).
                check_database(self._directory)
            self._client, self.location = connect(path, client, host, port, ssl, headers)
            if client is None:
                self._held.client = self._client
            self._items = open_collection(
                self._client, self.name, "items", self.location, hnsw, self._directory
            )
            self._vectors = open_collection(
                self._client, self.name, "vectors", self.location, hnsw, self._directory
            )
            self._max_batch = int(self._client.get_max_batch_size())
        except BaseException:
            self._finalizer()
            raise
        self._write_lock = _shared_write_lock(self.location, self.name)
        try:
            try:
                self._check_index(reindex)
                check_store(self, self._directory, shared=host is not None or client is not None)
            except chroma_errors() as exc:
                raise self._failed("opening", exc) from exc
        except BaseException:
            self.close()
            raise

    # -- opening ---------------------------------------------------------------------------

    def _prepare_index(self, index: IndexConfig | None) -> None:
        self.index_config = dict(index) if index else None
        self.embeddings: Embeddings | None = None
        self._dims = 0
        self._embed_id = ""
        self._fields: list[tuple[str, str | list[str]]] = []
        if not index:
            return
        dims = index.get("dims")
        if not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
            raise ValueError(f"index['dims'] must be a positive int, got {dims!r}")
        embed = index.get("embed")
        if embed is None:
            raise ValueError("index['embed'] is required: an Embeddings, a function or a name")
        self.embeddings = ensure_embeddings(embed)
        self._dims = dims
        self._embed_id = embed_identity(embed)
        fields = index.get("fields") or ["$"]
        self._fields = [(p, "$" if p == "$" else tokenize_path(p)) for p in fields]

    def _check_index(self, reindex: bool) -> None:
        if not self._dims:
            return
        meta = dict(self._items.metadata or {})
        dims, embed = int(meta.get("dims", 0)), str(meta.get("embed", ""))
        if dims == self._dims and embed == self._embed_id:
            return
        if dims == 0:
            meta.update(dims=self._dims, embed=self._embed_id)
            self._items.modify(metadata=meta)
            return
        if reindex:
            self.reindex()
            return
        where = f"the store {self.location} (collection {self.name!r})"
        if dims != self._dims:
            raise EmbeddingDimensionError(
                f"{where} holds {dims}-dim vectors from {embed!r}, but the index config "
                f"declares dims={self._dims} ({self._embed_id!r}); open it with a {dims}-dim "
                "index from the same model, or pass reindex=True to rebuild every vector",
                expected=dims,
                got=self._dims,
            )
        raise StoreOpenError(
            f"{where} was indexed with {embed!r} but the index config embeds with "
            f"{self._embed_id!r}; vectors of two models cannot be compared. Use the same "
            "embedding, or pass reindex=True to rebuild every vector"
        )

    # -- batch -----------------------------------------------------------------------------

    def _plan(self, ops: Iterable[Op]) -> _Plan:
        ops = list(ops)
        plan = _Plan(results=[None] * len(ops))
        latest: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for i, op in enumerate(ops):
            validate_op_namespace(op)
            if isinstance(op, PutOp):
                if op.value is not None:
                    check_namespace_for_put(op.namespace)
                    check_put_value(op.value, op.namespace, op.key)
                latest.pop((op.namespace, op.key), None)
                latest[(op.namespace, op.key)] = op
            elif isinstance(op, SearchOp):
                if op.limit < 0 or op.offset < 0:
                    raise ValueError(f"search limit and offset must be >= 0, got {op}")
                plan.reads.append((i, op))
                if op.query and self.embeddings is not None:
                    plan.queries.append(op.query)
            elif isinstance(op, (GetOp, ListNamespacesOp)):
                plan.reads.append((i, op))
            else:
                raise ValueError(f"unknown store operation {type(op).__name__}")
        plan.writes = list(latest.values())
        texts: dict[str, None] = {}
        for op in plan.writes:
            if op.value is not None:
                paths = self._texts(op.value, op.index)
                plan.paths[(op.namespace, op.key)] = paths
                texts.update(dict.fromkeys(text for _, text in paths))
        plan.texts = list(texts)
        plan.queries = list(dict.fromkeys(plan.queries))
        return plan

    def _texts(
        self, value: Mapping[str, object], index: Literal[False] | list[str] | None
    ) -> list[tuple[str, str]]:
        """(path, text) pairs to embed for a value, following LangGraph's rules."""
        if self.embeddings is None or index is False:
            return []
        fields = (
            self._fields
            if index is None
            else [(p, "$" if p == "$" else tokenize_path(p)) for p in index]
        )
        out: list[tuple[str, str]] = []
        for path, tokens in fields:
            texts = get_text_at_path(value, tokens)
            if len(texts) > 1:
                out.extend((f"{path}.{i}", text) for i, text in enumerate(texts))
            elif texts:
                out.append((path, texts[0]))
        return out

    def _checked(self, vectors: Sequence[Sequence[float]], count: int) -> list[list[float]]:
        if len(vectors) != count:
            raise EmbeddingDimensionError(
                f"the embedding function returned {len(vectors)} vectors for {count} texts",
                expected=count,
                got=len(vectors),
            )
        out = []
        for vector in vectors:
            if len(vector) != self._dims:
                raise EmbeddingDimensionError(
                    f"the embedding function returned a {len(vector)}-dim vector; the store's "
                    f"index expects dims={self._dims} ({self._embed_id!r}). Nothing was written",
                    expected=self._dims,
                    got=len(vector),
                )
            out.append([float(x) for x in vector])
        return out

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run store operations; reads see the state before this batch's writes."""
        plan = self._plan(ops)
        queries: list[list[float]] = []
        texts: list[list[float]] = []
        if self.embeddings is not None:
            if plan.queries:
                queries = self._checked(
                    [self.embeddings.embed_query(q) for q in plan.queries], len(plan.queries)
                )
            if plan.texts:
                texts = self._checked(self.embeddings.embed_documents(plan.texts), len(plan.texts))
        return self._execute(plan, queries, texts)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async :meth:`batch`: embeddings awaited, Chroma calls run in a worker thread."""
        plan = self._plan(ops)
        queries: list[list[float]] = []
        texts: list[list[float]] = []
        if self.embeddings is not None:
            if plan.queries:
                got = await asyncio.gather(*(self.embeddings.aembed_query(q) for q in plan.queries))
                queries = self._checked(got, len(plan.queries))
            if plan.texts:
                texts = self._checked(
                    await self.embeddings.aembed_documents(plan.texts), len(plan.texts)
                )
        return await asyncio.to_thread(self._execute, plan, queries, texts)

    def _failed(self, doing: str, exc: BaseException) -> StoreOpenError:
        full = disk_full(self.location, self._directory, doing, exc)
        if full is not None:
            return full
        return damaged(
            self.location,
            self.name,
            f"Chroma failed while {doing} ({type(exc).__name__}: {exc})",
            "Open the store again (opening checks its files and rebuilds a lost vector "
            "index), or call repair()",
        )

    def _execute(
        self, plan: _Plan, queries: list[list[float]], texts: list[list[float]]
    ) -> list[Result]:
        try:
            return self._run(plan, queries, texts)
        except chroma_errors() as exc:
            raise self._failed("writing" if plan.writes else "reading", exc) from exc

    def _run(
        self, plan: _Plan, queries: list[list[float]], texts: list[list[float]]
    ) -> list[Result]:
        query_vectors = dict(zip(plan.queries, queries, strict=True))
        gets = [(i, op) for i, op in plan.reads if isinstance(op, GetOp)]
        if gets:
            found = read.get_items(self._items, [item_id(g.namespace, g.key) for _, g in gets])
            for i, g in gets:
                hit = found.get(item_id(g.namespace, g.key))
                plan.results[i] = read.plain_item(hit) if hit is not None else None
        for i, op in plan.reads:
            if isinstance(op, SearchOp):
                vector = query_vectors.get(op.query) if op.query else None
                plan.results[i] = (
                    read.search_scored(self._items, self._vectors, op, vector)
                    if vector is not None
                    else read.search_plain(self._items, op)
                )
            elif isinstance(op, ListNamespacesOp):
                plan.results[i] = read.list_namespaces(self._items, op)
        if plan.writes:
            self._write(plan.writes, plan.paths, dict(zip(plan.texts, texts, strict=True)))
        return plan.results

    # -- writing ---------------------------------------------------------------------------

    def _write(
        self,
        writes: Sequence[PutOp],
        paths: Mapping[tuple[tuple[str, ...], str], list[tuple[str, str]]],
        vectors: Mapping[str, list[float]],
        *,
        keep_times: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        """Write puts and deletes crash-safely (see ``_chroma_write``).

        A persistent store first checks that its disk has room for the write
        (``StoreFullError`` if not, and nothing is written).
        """
        room = (
            functools.partial(check_room, self.location, self._directory)
            if self._directory is not None
            else None
        )
        with self._write_lock:
            write_items(
                self._items,
                self._vectors,
                self._max_batch,
                writes,
                paths,
                vectors,
                keep_times=keep_times,
                check_room=room,
            )

    # -- maintenance -----------------------------------------------------------------------

    def repair(self) -> RepairReport:
        """Tidy up after a crash: re-embed items missing vectors, drop unused vectors.

        Never needed for correctness (searches ignore vectors of versions that were not
        committed), but it reclaims their space and restores search for items whose
        vectors were lost. A vector index that no longer answers for its records (its
        files lost) is rebuilt whole, as :meth:`reindex` does. Runs under the store's
        write lock; returns what it did.
        """
        try:
            return self._rebuild(force=self.embeddings is not None and vectors_lost(self._vectors))
        except chroma_errors() as exc:
            raise self._failed("repairing", exc) from exc

    def reindex(self) -> RepairReport:
        """Compute every item's vectors again with this store's index config.

        Use after changing the embedding model or dims (or open with ``reindex=True``).
        """
        try:
            return self._rebuild(force=True)
        except chroma_errors() as exc:
            raise self._failed("reindexing", exc) from exc

    def _rebuild(self, *, force: bool) -> RepairReport:
        return rebuild(self, force=force)

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the Chroma client it made and release the directory lock.

        An in-memory store also drops its data. Reopening later (in this or another
        process) reads the directory afresh.
        """
        if self._ephemeral and self._finalizer.alive:
            for kind in ("items", "vectors"):
                with contextlib.suppress(Exception):  # already gone is fine when closing
                    self._client.delete_collection(f"{self.name}-{kind}")
        self._finalizer()

    def __enter__(self) -> ChromaStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        dims = f", dims={self._dims}" if self._dims else ""
        return f"ChromaStore({self.location!r}, name={self.name!r}{dims}, format={FORMAT})"


@dataclass
class _Held:
    """What a store must let go of when it closes (each is let go of once)."""

    client: object = None
    lock: str | None = None


def _release(held: _Held) -> None:
    client, token = held.client, held.lock
    held.client = held.lock = None
    try:
        if client is not None and hasattr(client, "close"):
            client.close()
    finally:
        if token is not None:
            _lock.release(token)
