"""Opening a ChromaStore safely: directory checks, clients, collections."""

from __future__ import annotations

import logging
import sqlite3
import uuid
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langgraph_games.memory._chroma_full import disk_full
from langgraph_games.memory._lock import LOCK_NAME
from langgraph_games.memory.errors import StoreDamagedError, StoreLockedError, StoreOpenError

FORMAT = 1
"""Version of the record layout in ``_codec``; a store written with another is refused."""

_MARK = "langgraph-games"
_SQLITE_HEADER = b"SQLite format 3\x00"
_CHROMA_TABLES = {"collections", "segments", "embeddings", "embedding_metadata", "migrations"}
_JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")
"""The first bytes of a rollback journal whose header was written: one SQLite replays."""
_HNSW_FILES = ("header.bin", "data_level0.bin", "length.bin", "link_lists.bin")

logger = logging.getLogger("langgraph_games.memory")


def _settings() -> Any:
    from chromadb.config import Settings  # chromadb is heavy: loaded when a store opens

    return Settings(anonymized_telemetry=False)


def segment_folders(directory: Path) -> list[Path]:
    """Chroma's vector index folders in ``directory``: UUID-named, holding HNSW files."""
    found = []
    for entry in sorted(directory.iterdir()):
        try:
            uuid.UUID(entry.name)
        except ValueError:
            continue
        if entry.is_dir() and any((entry / name).is_file() for name in _HNSW_FILES):
            found.append(entry)
    return found


def _records_gone(directory: Path, what: str, folders: list[Path]) -> StoreDamagedError:
    shown = ", ".join(f.name for f in folders[:4]) + (", ..." if len(folders) > 4 else "")
    return StoreDamagedError(
        f"the ChromaStore at {directory} is damaged: {what}, but {len(folders)} vector index "
        f"folder(s) of a store are still there ({shown}). chroma.sqlite3 holds every record "
        "(the values, keys and namespaces); those folders hold only vectors, from which the "
        "items cannot be rebuilt, so the store is not opened as a new, empty one. Restore "
        "chroma.sqlite3 from a backup of this store taken together with its folders; or, "
        f"to start an empty store at this path, move those folders out of {directory}. "
        "Nothing in the directory was changed"
    )


def _check_listing(directory: Path, database: Path) -> bool:
    """The checks that need no SQLite; whether ``database`` holds anything to read."""
    if not database.exists():
        folders = segment_folders(directory)
        if folders:
            raise _records_gone(directory, "its records file chroma.sqlite3 is missing", folders)
        others = sorted(p.name for p in directory.iterdir() if p.name != LOCK_NAME)
        if others:
            shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            raise StoreOpenError(
                f"{directory} is not empty and holds no chroma.sqlite3 (found: {shown}); "
                "expected an empty directory or one written by ChromaStore/chromadb"
            )
        return False
    with database.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if not header:
        folders = segment_folders(directory)
        if folders:
            raise _records_gone(
                directory, "its records file chroma.sqlite3 is empty (0 bytes)", folders
            )
        return False  # an empty file: Chroma was stopped before it created its schema
    if header != _SQLITE_HEADER:
        raise StoreOpenError(
            f"{database} is not an SQLite database (the store is damaged or this is not a "
            "Chroma directory); expected the chroma.sqlite3 that chromadb writes"
        )
    if _schema_empty(database) and _interrupted(directory) is None:
        folders = segment_folders(directory)
        if folders:
            raise _records_gone(
                directory, "its records file chroma.sqlite3 holds no tables", folders
            )
        return False  # Chroma was stopped before it created its schema
    return True


def _schema_empty(database: Path) -> bool:
    """Whether an SQLite file's schema is empty, read from its first page without SQLite.

    Page 1 holds the schema table's root after the 100-byte file header; a leaf table
    page (type 13) with no cells means no table, index or view exists.
    """
    with database.open("rb") as handle:
        head = handle.read(105)
    return len(head) == 105 and head[100] == 13 and head[103:105] == b"\0\0"


def check_directory(directory: Path) -> None:
    """Refuse a path that is not a new, empty or Chroma directory; create it if missing.

    Only looks at names and sizes (it runs before the store's lock is taken, and changes
    nothing where it refuses): :func:`check_database` reads the database under the lock.

    Raises:
        StoreOpenError: ``directory`` is a file, or holds something else than a store.
        StoreDamagedError: ``chroma.sqlite3`` is missing or empty while vector index
            folders of a store are there.
    """
    if directory.exists() and not directory.is_dir():
        raise StoreOpenError(
            f"{directory} is a file; expected a directory (new, empty, or holding a Chroma store)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    _check_listing(directory, directory / "chroma.sqlite3")


def _interrupted(directory: Path) -> tuple[str, str] | None:
    """What an interrupted write left beside ``chroma.sqlite3``, and what SQLite does to it."""
    journal = directory / "chroma.sqlite3-journal"
    wal = directory / "chroma.sqlite3-wal"
    if journal.is_file() and journal.stat().st_size > 0:
        with journal.open("rb") as handle:
            hot = handle.read(len(_JOURNAL_MAGIC)) == _JOURNAL_MAGIC
        if hot:  # else its header was never written: SQLite ignores it, nothing to undo
            return (
                "a write was interrupted (killed or crashed) and left its rollback journal "
                "chroma.sqlite3-journal",
                "SQLite rolled that write back",
            )
    if wal.is_file() and wal.stat().st_size > 0:
        return (
            "the program that last wrote it stopped with its write-ahead log "
            "chroma.sqlite3-wal still there",
            "SQLite replayed the log's committed writes",
        )
    return None


def _recover(directory: Path, database: Path, found: str, done: str) -> None:
    """Let SQLite recover ``database`` (a hot journal or a WAL), then check its pages."""
    fix = (
        "Restore the store's directory from a backup, or move it aside to start an "
        "empty store at this path"
    )
    try:
        connection = sqlite3.connect(database)  # read-write: SQLite recovers on first read
        try:
            rows = connection.execute("PRAGMA quick_check").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        full = disk_full(str(directory), directory, "opening", exc)
        if full is not None:
            raise full from exc
        if "locked" in str(exc):
            raise StoreLockedError(
                f"{database} is being written by another program (not a ChromaStore, which "
                f"would hold {directory / LOCK_NAME}); {found}. Stop that program, or serve "
                f"the directory with `chroma run --path {directory}` and connect with "
                "ChromaStore(host=..., port=...)"
            ) from exc
        raise StoreDamagedError(
            f"the ChromaStore at {directory} is damaged: {found}, and SQLite cannot "
            f"recover {database.name} ({type(exc).__name__}: {exc}). {fix}"
        ) from exc
    problems = [str(row[0]) for row in rows if row and row[0] != "ok"]
    if problems:
        shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
        raise StoreDamagedError(
            f"the ChromaStore at {directory} is damaged: {found}; {done}, but SQLite's "
            f"check of {database.name} still fails ({shown}). {fix}"
        )
    logger.warning(
        "ChromaStore %s: %s; %s, and the database checks out (every item is as its last "
        "completed write left it)",
        directory,
        found,
        done,
    )


def check_database(directory: Path) -> None:
    """Recover and check ``chroma.sqlite3``; run with the store's directory lock held.

    A write killed inside an SQLite transaction leaves a hot rollback journal; SQLite
    undoes it the next time the database is opened for writing, but a read-only look (or
    Chroma's own start-up before it) would refuse it. So a journal or write-ahead log
    left beside the database is recovered here, with a warning, and the database's pages
    are checked (``PRAGMA quick_check``); the store's own check of its vector index
    follows when the store opens.

    Raises:
        StoreOpenError: The database is not a Chroma store, or not SQLite.
        StoreDamagedError: The database is missing, empty or without tables while index
            folders are there; or SQLite cannot recover it.
        StoreFullError: The disk is full, so SQLite cannot recover it now.
    """
    database = directory / "chroma.sqlite3"
    if not _check_listing(directory, database):
        return
    interrupted = _interrupted(directory)
    if interrupted is not None:
        _recover(directory, database, *interrupted)
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            tables = {
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise StoreOpenError(
            f"{database} cannot be read as SQLite ({exc}); the store is damaged"
        ) from exc
    if not tables:
        folders = segment_folders(directory)
        if folders:
            raise _records_gone(
                directory, "its records file chroma.sqlite3 holds no tables", folders
            )
        return  # Chroma was stopped before it created its schema
    missing = _CHROMA_TABLES - tables
    if missing:
        raise StoreOpenError(
            f"{database} is an SQLite database but not a Chroma store (tables "
            f"{', '.join(sorted(missing))} are missing); expected the chroma.sqlite3 that "
            "chromadb writes"
        )


def connect(
    path: str | Path | None,
    client: Any,
    host: str | None,
    port: int,
    ssl: bool,
    headers: Mapping[str, str] | None,
) -> tuple[Any, str]:
    """The Chroma client for the chosen mode and a readable name of its location."""
    import chromadb  # heavy: loaded when a store opens, not on `import langgraph_games`

    if client is not None:
        return client, f"client:{id(client):x}"
    if path is not None:
        directory = Path(path)
        try:
            return chromadb.PersistentClient(path=str(directory), settings=_settings()), str(
                directory.resolve()
            )
        except Exception as exc:
            full = disk_full(str(directory.resolve()), directory, "opening", exc)
            if full is not None:
                raise full from exc
            raise StoreOpenError(
                f"Chroma cannot open {directory} ({type(exc).__name__}: {exc}); expected a "
                "directory written by chromadb>=1.3 and not damaged"
            ) from exc
    if host is not None:
        url = f"{'https' if ssl else 'http'}://{host}:{port}"
        try:
            made = chromadb.HttpClient(
                host=host, port=port, ssl=ssl, headers=dict(headers or {}), settings=_settings()
            )
            made.heartbeat()
        except Exception as exc:
            raise StoreOpenError(
                f"cannot reach a Chroma server at {url} ({type(exc).__name__}: {exc}); start "
                f"one with `chroma run --path DIR --host {host} --port {port}`"
            ) from exc
        return made, url
    return chromadb.EphemeralClient(settings=_settings()), "memory"


def embed_identity(embed: Any) -> str:
    """A name for the embedding model, recorded by the store to catch a silent switch."""
    if isinstance(embed, str):
        return embed
    model_id = getattr(embed, "model_id", None)
    if isinstance(model_id, str) and model_id:
        return model_id
    target = embed if callable(embed) and not hasattr(embed, "embed_documents") else type(embed)
    return f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}"


def open_collection(
    client: Any,
    name: str,
    kind: str,
    location: str,
    hnsw: Mapping[str, Any] | None,
    directory: Path | None = None,
) -> Any:
    """Get or create ``<name>-<kind>`` and check that it is ours, in our format, cosine.

    ``directory`` (a persistent store's) lets a failure on a full disk say so.
    """
    from chromadb.errors import ChromaError, NotFoundError  # heavy: loaded on first open

    full = f"{name}-{kind}"
    try:
        try:
            collection = client.get_collection(full, embedding_function=None)
        except (NotFoundError, ValueError):
            try:
                collection = client.create_collection(
                    full,
                    embedding_function=None,
                    configuration={"hnsw": {"space": "cosine", **dict(hnsw or {})}},
                    metadata={
                        "lgg": _MARK,
                        "format": FORMAT,
                        "kind": kind,
                        "dims": 0,
                        "embed": "-",
                    },
                )
            except ChromaError:  # another client created it meanwhile
                collection = client.get_collection(full, embedding_function=None)
    except StoreOpenError:
        raise
    except Exception as exc:
        no_room = disk_full(location, directory, "opening", exc)
        if no_room is not None:
            raise no_room from exc
        raise StoreOpenError(
            f"Chroma failed to open collection {full!r} in {location} "
            f"({type(exc).__name__}: {exc}); the store may be damaged"
        ) from exc
    meta = dict(collection.metadata or {})
    if meta.get("lgg") != _MARK or meta.get("kind") != kind:
        raise StoreOpenError(
            f"collection {full!r} in {location} was not created by langgraph-games' "
            f"ChromaStore (its metadata is {meta}); choose another name= for this store"
        )
    if meta.get("format") != FORMAT:
        raise StoreOpenError(
            f"collection {full!r} in {location} uses store format {meta.get('format')!r}; "
            f"this version of langgraph-games reads format {FORMAT}"
        )
    with warnings.catch_warnings():  # Chroma warns about its own legacy config format here
        warnings.simplefilter("ignore", DeprecationWarning)
        configuration = collection.configuration or {}
    space = (configuration.get("hnsw") or {}).get("space", "cosine")
    if space != "cosine":
        raise StoreOpenError(
            f"collection {full!r} in {location} measures {space!r} distance; expected cosine"
        )
    return collection
