"""Checking, when a ChromaStore opens, that Chroma's vector indexes agree with its records.

Chroma keeps records (ids, documents, metadata) in ``chroma.sqlite3`` and each
collection's HNSW vector index in a folder of its own next to it; once the index is
written, the write-ahead log it was built from is purged. If that folder is lost (deleted,
not copied with a backup, ...) Chroma rebuilds an *empty* index and answers every query
from it without an error: searches return whatever the fallback finds, ``count()`` and
``get()`` still see every record, so nothing looks wrong. A damaged folder (truncated
files) makes Chroma raise its own internal errors on any read instead.

:func:`index_problem` detects both cheaply (a few ms): for up to three records of the
collection (the first, middle and last) it asks the index for the nearest neighbours of
the record's own vector; a sound index returns the record itself (or a duplicate at
distance 0) and as many neighbours as asked for, up to the number of records.

A store on a Chroma server is shared: other clients may be writing while one opens, and
the server's index can briefly lag its records (or fail to open a segment it is writing).
So a server store's probe is asked again for about a second and a half before it counts,
and a problem that stays is reported, never repaired at open: a rebuild replaces the
vectors collection, and the other clients' writes to it would fail. ``repair()`` does it
when the caller knows no one else writes.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from langchain_core.embeddings import Embeddings

from langgraph_games.memory._chroma_full import disk_full
from langgraph_games.memory._chroma_rebuild import RepairReport
from langgraph_games.memory.errors import StoreDamagedError, StoreFullError

__all__ = [
    "check_store",
    "chroma_errors",
    "damaged",
    "index_problem",
    "segment_folder",
    "vectors_lost",
]

logger = logging.getLogger("langgraph_games.memory")


class Checkable(Protocol):
    """What :func:`check_store` needs of a just opened ``ChromaStore``."""

    name: str
    location: str
    embeddings: Embeddings | None
    _items: Any
    _vectors: Any

    def reindex(self) -> RepairReport: ...


PROBE_NEIGHBOURS = 10
"""Neighbours asked for per probe (fewer back than records and this: the index lost some)."""
SAME_POINT = 1e-5
"""Cosine distance under which a neighbour is the probed vector itself (or a copy of it)."""
SERVER_SETTLE_S = (0.05, 0.1, 0.2, 0.4, 0.8)
"""Waits before each new probe of a server store's index while it shows a problem."""


def chroma_errors() -> tuple[type[BaseException], ...]:
    """Chroma's own error types: what the store wraps into its errors."""
    from chromadb.errors import ChromaError  # heavy: loaded when a store opens

    return (ChromaError,)


def index_problem(collection: Any) -> str | None:
    """Why ``collection``'s vector index disagrees with its records, or ``None``.

    Raises:
        ChromaError: Chroma cannot read the collection at all (damaged index files).
    """
    count = int(collection.count())
    if count == 0:
        return None
    wanted = min(count, PROBE_NEIGHBOURS)
    for offset in sorted({0, count // 2, count - 1}):
        got = collection.get(limit=1, offset=offset, include=["embeddings"])
        if not got["ids"]:
            return f"record {offset + 1} of {count} cannot be read back"
        record, vector = got["ids"][0], got["embeddings"][0]
        found = collection.query(
            query_embeddings=[list(vector)], n_results=wanted, include=["distances"]
        )
        ids, distances = found["ids"][0], found["distances"][0]
        if len(ids) < wanted:
            return (
                f"its vector index answers with {len(ids)} neighbours where {count} records "
                f"should give {wanted}"
            )
        if record not in ids and not (distances and float(distances[0]) <= SAME_POINT):
            return f"its vector index does not find the record {record!r} by its own vector"
    return None


def _probe(
    collection: Any,
    waits: tuple[float, ...],
    no_room: Callable[[BaseException], StoreFullError | None],
) -> str | None:
    """:func:`index_problem` (a read error as a problem), asked again after each wait.

    Raises:
        StoreFullError: The read failed because the disk is full (``no_room`` says so):
            the index is not at fault and must not be rebuilt.
    """
    for wait in (*waits, None):
        try:
            problem = index_problem(collection)
        except chroma_errors() as exc:
            full = no_room(exc)
            if full is not None:
                raise full from exc
            problem = f"Chroma cannot read its vector index ({type(exc).__name__}: {exc})"
        if problem is None or wait is None:
            return problem
        time.sleep(wait)
    return None  # not reached: the last round returns


def vectors_lost(collection: Any) -> bool:
    """Whether the vector index is unusable: it disagrees with its records or cannot be read."""
    try:
        return index_problem(collection) is not None
    except chroma_errors():
        return True


def items_problem(collection: Any) -> None:
    """Read the items collection once, so a damaged index raises now, not mid-run.

    Raises:
        ChromaError: Chroma cannot read it.
    """
    collection.count()
    collection.get(limit=1, include=["metadatas"])


def segment_folder(directory: Path, collection: str) -> Path | None:
    """The folder of ``collection``'s vector index inside a Chroma directory, if known."""
    database = directory / "chroma.sqlite3"
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            row = connection.execute(
                "SELECT s.id FROM segments s JOIN collections c ON s.collection = c.id "
                "WHERE c.name = ? AND s.scope = 'VECTOR'",
                (collection,),
            ).fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return directory / str(row[0]) if row else None


def damaged(location: str, collection: str, what: str, fix: str) -> StoreDamagedError:
    """The store's error for a damaged collection, naming where, what and the fix."""
    return StoreDamagedError(
        f"the ChromaStore at {location} is damaged: collection {collection!r}: {what}. {fix}"
    )


def check_store(store: Checkable, directory: Path | None, *, shared: bool = False) -> None:
    """Check a store that was just opened; rebuild a lost vector index or raise.

    - The items collection must be readable; if its (never searched) index files are
      damaged, :class:`StoreDamagedError` says which folder to move away.
    - The vectors collection must answer for its records (:func:`index_problem`). If it
      does not, a store opened with an index config rebuilds it from the records (a
      :meth:`~ChromaStore.reindex`, with a logged warning); one opened without an index
      config never reads vectors, so it only logs the problem and the fix.
    - A ``shared`` store (on a server, or through a client the caller made) is probed
      again while it shows a problem (:data:`SERVER_SETTLE_S`), and one that stays is
      raised, not rebuilt.

    A read that fails because the disk is full (Chroma applies its pending log on the
    first read, which needs room) is reported as such, and nothing is rebuilt.

    Raises:
        StoreDamagedError: The items cannot be read, the rebuild did not help, or a
            server store's index stays unusable.
        StoreFullError: The disk holding the store is full.
    """
    errors = chroma_errors()
    items, vectors = f"{store.name}-items", f"{store.name}-vectors"

    def no_room(exc: BaseException) -> StoreFullError | None:
        return disk_full(store.location, directory, "opening", exc)

    try:
        items_problem(store._items)
    except errors as exc:
        full = no_room(exc)
        if full is not None:
            raise full from exc
        folder = segment_folder(directory, items) if directory is not None else None
        fix = (
            f"ChromaStore never searches that index and its records are intact in "
            f"chroma.sqlite3: move the folder {folder} out of {directory} and open the "
            "store again"
            if folder is not None
            else "Restore the store's files from a copy"
        )
        raise damaged(
            store.location, items, f"Chroma cannot read it ({type(exc).__name__}: {exc})", fix
        ) from exc
    problem = _probe(store._vectors, SERVER_SETTLE_S if shared else (), no_room)
    if problem is None:
        return
    if shared:
        raise damaged(
            store.location,
            vectors,
            f"{problem} (still after {sum(SERVER_SETTLE_S):.2g} s)",
            "Other clients may be using the store, so it is not rebuilt "
            "when it opens: call repair() on it while no other client writes to it (it "
            "rebuilds the vector index from the records), or restore the server's files "
            "from a copy",
        )
    if store.embeddings is None:
        logger.warning(
            "ChromaStore %s, collection %r: %s. Opened without an index config, the store "
            "does not read vectors; open it with the index config it was written with to "
            "rebuild the index",
            store.location,
            vectors,
            problem,
        )
        return
    logger.warning(
        "ChromaStore %s, collection %r: %s; rebuilding the vector index from the records",
        store.location,
        vectors,
        problem,
    )
    try:
        store.reindex()
        again = index_problem(store._vectors)
    except errors as exc:
        again = f"Chroma failed while rebuilding it ({type(exc).__name__}: {exc})"
    if again is not None:
        raise damaged(
            store.location,
            vectors,
            f"{problem}, and after a rebuild: {again}",
            "Restore the store's files from a copy",
        )
