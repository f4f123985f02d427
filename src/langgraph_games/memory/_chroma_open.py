"""Opening a ChromaStore safely: directory checks, clients, collections."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langgraph_games.memory._lock import LOCK_NAME
from langgraph_games.memory.errors import StoreOpenError

FORMAT = 1
"""Version of the record layout in ``_codec``; a store written with another is refused."""

_MARK = "langgraph-games"
_SQLITE_HEADER = b"SQLite format 3\x00"
_CHROMA_TABLES = {"collections", "segments", "embeddings", "embedding_metadata", "migrations"}


def _settings() -> Any:
    from chromadb.config import Settings  # chromadb is heavy: loaded when a store opens

    return Settings(anonymized_telemetry=False)


def check_directory(directory: Path) -> None:
    """Refuse a path that is not a new, empty or Chroma directory; create it if missing."""
    if directory.exists() and not directory.is_dir():
        raise StoreOpenError(
            f"{directory} is a file; expected a directory (new, empty, or holding a Chroma store)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    database = directory / "chroma.sqlite3"
    if not database.exists():
        others = sorted(p.name for p in directory.iterdir() if p.name != LOCK_NAME)
        if others:
            shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            raise StoreOpenError(
                f"{directory} is not empty and holds no chroma.sqlite3 (found: {shown}); "
                "expected an empty directory or one written by ChromaStore/chromadb"
            )
        return
    with database.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if not header:
        return  # an empty file: Chroma was stopped before it created its schema
    if header != _SQLITE_HEADER:
        raise StoreOpenError(
            f"{database} is not an SQLite database (the store is damaged or this is not a "
            "Chroma directory); expected the chroma.sqlite3 that chromadb writes"
        )
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
    missing = _CHROMA_TABLES - tables
    if tables and missing:
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
    client: Any, name: str, kind: str, location: str, hnsw: Mapping[str, Any] | None
) -> Any:
    """Get or create ``<name>-<kind>`` and check that it is ours, in our format, cosine."""
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
