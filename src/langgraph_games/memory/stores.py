"""Which LangGraph store holds a run's truths: a store spec, opened as a ``BaseStore``.

Training (``run_training(store=...)``, ``train --store``), evaluation (``eval --truths``)
and the ``truths`` command take any LangGraph store. From Python, pass the store object;
on the command line, a *store spec*:

==========================  =====================================================
spec                        store
==========================  =====================================================
``DIR`` or ``chroma:DIR``   :class:`~langgraph_games.memory.ChromaStore` in a directory
``sqlite:PATH``             LangGraph's ``SqliteStore`` in a database file
``postgres://...``          LangGraph's ``PostgresStore`` (``postgresql://`` too;
                            needs ``langgraph-checkpoint-postgres``)
``memory:``                 LangGraph's ``InMemoryStore``: gone when the process ends
==========================  =====================================================

What each gives beyond LangGraph's ``BaseStore`` (see :func:`store_features`): semantic
search (``search(query=...)``, :func:`~langgraph_games.memory.load_truths` with
``query``) only where the store has an index configured; ChromaStore alone holds a
directory for one process at a time (a lock) and checks and repairs its files when it
opens. The truth records, the run marker and the resume after a crash live in plain
items, so they work on every store that lasts (all but ``memory:``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langgraph.store.base import BaseStore, IndexConfig, Op, Result
from langgraph.store.memory import InMemoryStore

from langgraph_games.memory.chroma_store import ChromaStore
from langgraph_games.memory.errors import StoreOpenError

__all__ = [
    "NOT_KEPT",
    "POSTGRES_PACKAGE",
    "STORE_SPECS",
    "StoreFeatures",
    "StoreSpec",
    "ThreadedStore",
    "check_available",
    "open_store",
    "parse_store",
    "store_features",
    "with_async_api",
]

StoreKind = Literal["chroma", "sqlite", "postgres", "memory"]

STORE_SPECS = "a directory (Chroma), chroma:DIR, sqlite:PATH, postgres://... or memory:"
"""The store specs accepted, as error messages name them."""

POSTGRES_PACKAGE = "langgraph-checkpoint-postgres"
"""The package that provides LangGraph's ``PostgresStore``."""

NOT_KEPT = (
    "memory: holds nothing once the process that wrote it ended; give a store that lasts: "
    "a Chroma directory, sqlite:PATH or postgres://..."
)
"""Why a ``memory:`` store cannot be read or edited after its run."""

_KINDS: dict[str, StoreKind] = {
    "chroma": "chroma",
    "sqlite": "sqlite",
    "memory": "memory",
    "postgres": "postgres",
    "postgresql": "postgres",
}
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_PASSWORD = re.compile(r"^([a-z]+://[^:/@]*:)[^@]*@")


@dataclass(frozen=True)
class StoreSpec:
    """A store spec, read (:func:`parse_store`).

    Attributes:
        kind: ``chroma``, ``sqlite``, ``postgres`` or ``memory``.
        location: The directory, database file or URI (``""`` for ``memory``).
    """

    kind: StoreKind
    location: str

    @property
    def lasts(self) -> bool:
        """Whether what is written outlives the process (all but ``memory:``)."""
        return self.kind != "memory"

    def __str__(self) -> str:
        """The spec as given back to users (a URI's password hidden).

        Example:
            >>> str(parse_store("postgresql://me:secret@db/games"))
            'postgresql://me:***@db/games'
        """
        if self.kind == "chroma":
            return self.location
        if self.kind == "postgres":
            return _PASSWORD.sub(r"\1***@", self.location)
        return f"{self.kind}:{self.location}"


def parse_store(spec: str | Path) -> StoreSpec:
    r"""Read a store spec (see the module's table).

    A word before a colon that is no known scheme is refused (``redis://x``); a path with
    no such word, a one-letter drive (``C:\\runs``) included, is a Chroma directory.

    Raises:
        ValueError: An unknown scheme, or a spec without its location.

    Example:
        >>> [str(parse_store(s)) for s in ["runs/store", "sqlite:t.db", "memory:"]]
        ['runs/store', 'sqlite:t.db', 'memory:']
        >>> try:
        ...     parse_store("redis://host")
        ... except ValueError as error:
        ...     print(str(error).split(";")[0])
        unknown store 'redis://host'
    """
    text = str(spec)
    match = _SCHEME.match(text) if isinstance(spec, str) else None
    scheme = match.group(1).lower() if match and len(match.group(1)) > 1 else ""
    kind = _KINDS.get(scheme, "chroma") if scheme else "chroma"
    if scheme and scheme not in _KINDS:
        raise ValueError(f"unknown store {text!r}; accepted: {STORE_SPECS}")
    location = text if kind == "postgres" else text[len(scheme) + 1 :] if scheme else text
    if kind == "memory" and location:
        raise ValueError(f"memory: takes no location, got {text!r}; accepted: {STORE_SPECS}")
    if kind != "memory" and not location.strip():
        raise ValueError(f"store {text!r} names no location; accepted: {STORE_SPECS}")
    return StoreSpec(kind, location)


@dataclass(frozen=True)
class StoreFeatures:
    """What a store offers beyond LangGraph's ``BaseStore``.

    Attributes:
        semantic_search: ``search(query=...)`` ranks by meaning (an index is configured);
            without one a query is not used (see :func:`~langgraph_games.memory.load_truths`).
        lasts: What is written outlives the process.
        exclusive: One process at a time holds it (ChromaStore's directory lock).
    """

    semantic_search: bool
    lasts: bool
    exclusive: bool


def store_features(store: BaseStore) -> StoreFeatures:
    """What ``store`` offers (:class:`StoreFeatures`).

    Example:
        >>> store_features(InMemoryStore())
        StoreFeatures(semantic_search=False, lasts=False, exclusive=False)
    """
    inner = store.store if isinstance(store, ThreadedStore) else store
    indexed = getattr(inner, "index_config", None) is not None
    if isinstance(inner, ChromaStore):  # a directory, a server, a client or memory
        on_disk = not inner.location.startswith(("memory", "client:", "http"))
        return StoreFeatures(indexed, lasts=inner.location != "memory", exclusive=on_disk)
    return StoreFeatures(indexed, lasts=not isinstance(inner, InMemoryStore), exclusive=False)


class ThreadedStore(BaseStore):
    """An async API for a store that has none (LangGraph's ``SqliteStore``): threads.

    Its sync batches run in a worker thread.

    Training and evaluation read and write through the async API; :func:`with_async_api`
    wraps a store only when its own async API refuses.

    Args:
        store: The store; it stays its opener's to close.
    """

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        self.supports_ttl = store.supports_ttl
        self.ttl_config = store.ttl_config
        self.index_config = getattr(store, "index_config", None)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """The store's own batch."""
        return self.store.batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """The store's sync batch, in a worker thread."""
        return await asyncio.to_thread(self.store.batch, list(ops))


async def with_async_api(store: BaseStore) -> BaseStore:
    """``store``, or a :class:`ThreadedStore` of it when its async API is not implemented."""
    try:
        await store.abatch([])
    except NotImplementedError:
        return ThreadedStore(store)
    return store


def sqlite_vectors() -> bool:
    """Whether this Python's SQLite can load ``sqlite-vec`` (SqliteStore's vector index)."""
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        return False
    try:
        import sqlite_vec  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return True


def check_available(spec: StoreSpec) -> None:
    """Refuse a spec whose store cannot be opened here (``postgres://`` without its package).

    Raises:
        StoreOpenError: The package the store needs is not installed.
    """
    if spec.kind == "postgres" and importlib.util.find_spec("langgraph.store.postgres") is None:
        raise StoreOpenError(
            f"postgres:// stores need the {POSTGRES_PACKAGE} package "
            f"(pip install {POSTGRES_PACKAGE})"
        )


@contextmanager
def open_store(
    spec: str | Path | StoreSpec, *, index: IndexConfig | None = None, create: bool = True
) -> Iterator[BaseStore]:
    """The store a spec names, open for the ``with`` block (closed after it).

    Args:
        spec: A store spec (see the module's table) or a path.
        index: The index to configure (e.g. :func:`~langgraph_games.memory.minilm_index`)
            where the store can have one: ChromaStore, ``InMemoryStore`` and
            ``SqliteStore`` where SQLite can load ``sqlite-vec``. ``PostgresStore`` gets
            none (its vectors need ``pgvector`` on the server): no semantic search.
        create: Whether a Chroma directory or SQLite file may be made; ``False`` refuses
            one that is not there, and ``memory:`` (which holds nothing when opened).

    Raises:
        ValueError: The spec is not understood.
        StoreOpenError: Nothing there (``create=False``), the location is not usable, or
            ``postgres://`` without its package.
    """
    chosen = spec if isinstance(spec, StoreSpec) else parse_store(spec)
    if chosen.kind == "memory":
        if not create:
            raise StoreOpenError(NOT_KEPT)
        yield InMemoryStore(index=index)
    elif chosen.kind == "chroma":
        folder = Path(chosen.location)
        if not create and not (folder / "chroma.sqlite3").is_file():
            raise StoreOpenError(
                f"no truth store at {folder}: expected a directory written by "
                "'langgraph-games train' (the 'truths:' line it prints) or by ChromaStore"
            )
        with ChromaStore(folder, index=index) as store:
            yield store
    elif chosen.kind == "sqlite":
        with _sqlite(chosen.location, index, create) as store:
            yield store
    else:
        with _postgres(chosen.location) as store:
            yield store


@contextmanager
def _sqlite(path: str, index: IndexConfig | None, create: bool) -> Iterator[BaseStore]:
    from langgraph.store.sqlite import SqliteStore

    if not create and not Path(path).is_file():
        raise StoreOpenError(f"no SQLite store at {path}: the file does not exist")
    vectors: Any = index if index is not None and sqlite_vectors() else None
    with ExitStack() as stack:
        try:
            store = stack.enter_context(SqliteStore.from_conn_string(path, index=vectors))
            store.setup()
        except sqlite3.DatabaseError as exc:
            raise StoreOpenError(f"sqlite:{path} is not a usable SQLite store: {exc}") from None
        yield store


@contextmanager
def _postgres(uri: str) -> Iterator[BaseStore]:
    check_available(StoreSpec("postgres", uri))
    from langgraph.store.postgres import PostgresStore  # type: ignore[import-not-found]

    opened: Any = PostgresStore.from_conn_string(uri)
    with opened as store:
        store.setup()
        yield store
