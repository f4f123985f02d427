"""An opt-in cache of model calls: LangChain's ``BaseCache`` on a SQLite file.

A run with ``--cache PATH`` (``study``: ``--model-cache PATH``), or with
``LANGGRAPH_GAMES_CACHE=PATH`` in its environment, gives every chat model it
builds a :class:`SQLiteModelCache` as its LangChain ``cache``. LangChain then looks each
call up before it reaches the endpoint, keyed by the prompt (the messages) and the
model's ``llm_string`` (its class, model name, endpoint and sampling settings such as the
temperature), and stores each fresh reply. A rerun of the same command therefore makes
no call whose prompt and settings it has seen; a changed temperature, model or prompt
misses.

A reply served from the cache carries ``response_metadata["cached"] = True``
(:func:`is_cached`). The usage accounting counts it apart (``cached_calls``), never as a
call: no tokens, no latency of its own, no slot of the endpoint's call limiter and no
token of its rate limiter (LangChain applies the rate limiter only on a miss).

The file is shared safely by the worker processes of a run and by runs one after another:
SQLite in WAL mode with a busy timeout, one short transaction per write, and the first
reply stored under a key is the one kept (``INSERT OR IGNORE``), so every reader of a key
sees the same reply. A file that is not such a cache is refused in one line naming it
(:class:`ModelCacheError`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.load import dumps
from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict
from langchain_core.outputs import ChatGeneration, Generation

from langgraph_games.models.errors import ModelError

__all__ = [
    "CACHE_ENV",
    "ModelCacheError",
    "SQLiteModelCache",
    "attach_cache",
    "cache_of",
    "is_cached",
    "open_cache",
    "peek",
    "process_cache",
    "using_cache",
]

CACHE_ENV = "LANGGRAPH_GAMES_CACHE"
"""The environment variable naming the model-call cache file (what ``--cache`` sets)."""

CACHED = "cached"
"""The ``response_metadata`` key marking a reply served from the cache."""

_FORMAT = "langgraph-games model cache 1"
_BUSY_TIMEOUT_MS = 30_000


class ModelCacheError(ModelError, ValueError):
    """The cache file cannot be used: not a cache, unreadable, or not writable."""


def _key(prompt: str, llm_string: str) -> str:
    return hashlib.sha256(f"{llm_string}\x00{prompt}".encode()).hexdigest()


def _encode(generations: Sequence[Generation]) -> str:
    items: list[dict[str, object]] = []
    for generation in generations:
        item: dict[str, object] = {"info": generation.generation_info}
        if isinstance(generation, ChatGeneration):
            item["message"] = message_to_dict(generation.message)
        else:
            item["text"] = generation.text
        items.append(item)
    return json.dumps(items)


def _decode(text: str) -> list[Generation]:
    generations: list[Generation] = []
    for item in json.loads(text):
        info = item.get("info")
        if "message" in item:
            message = messages_from_dict([item["message"]])[0]
            metadata = {**message.response_metadata, CACHED: True}
            message = message.model_copy(update={"response_metadata": metadata})
            generations.append(ChatGeneration(message=message, generation_info=info))
        else:
            generations.append(Generation(text=item["text"], generation_info=info))
    return generations


class SQLiteModelCache(BaseCache):
    """LangChain's cache interface on one SQLite file, safe across threads and processes.

    Args:
        path: The cache file (created with its folder when missing).

    Raises:
        ModelCacheError: ``path`` is not a model cache, or cannot be opened or written.

    Example:
        >>> import tempfile
        >>> from langchain_core.messages import AIMessage
        >>> from langchain_core.outputs import ChatGeneration
        >>> cache = SQLiteModelCache(Path(tempfile.mkdtemp()) / "calls.sqlite")
        >>> cache.update("prompt", "model", [ChatGeneration(message=AIMessage("e4"))])
        >>> hit = cache.lookup("prompt", "model")
        >>> hit[0].message.content, is_cached(hit[0].message), cache.lookup("other", "model")
        ('e4', True, None)
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser().absolute()
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        with self._lock:
            self._connect()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by path: a copy in another process opens the file itself."""
        return (type(self), (str(self.path),))

    def _fail(self, exc: BaseException) -> ModelCacheError:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ModelCacheError(
            f"model cache {self.path}: {reason}; name a model cache file, or a new path "
            "for an empty one"
        )

    def _connect(self) -> sqlite3.Connection:
        """This process's connection (opened, and the file checked, on first use)."""
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        if self.path.is_dir():
            raise ModelCacheError(f"model cache {self.path}: is a folder; give a file path")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(
                self.path, timeout=_BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
            try:
                self._prepare(connection)
            except BaseException:
                connection.close()
                raise
        except ModelCacheError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise self._fail(exc) from exc
        self._connection, self._pid = connection, os.getpid()
        return connection

    def _prepare(self, connection: sqlite3.Connection) -> None:
        connection.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if tables and "cache_format" not in tables:
            raise ModelCacheError(
                f"model cache {self.path}: a SQLite file of something else (tables: "
                f"{', '.join(sorted(tables))[:120]}); name a model cache file, or a new path"
            )
        connection.execute("PRAGMA journal_mode = WAL")
        with connection:
            connection.execute("CREATE TABLE IF NOT EXISTS cache_format (format TEXT NOT NULL)")
            connection.execute(
                "CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, llm_string TEXT "
                "NOT NULL, prompt TEXT NOT NULL, generations TEXT NOT NULL)"
            )
            rows = [row[0] for row in connection.execute("SELECT format FROM cache_format")]
            if not rows:
                connection.execute("INSERT INTO cache_format VALUES (?)", (_FORMAT,))
            elif rows != [_FORMAT]:
                raise ModelCacheError(
                    f"model cache {self.path}: format {rows[0]!r}, this version reads "
                    f"{_FORMAT!r}; name a new path"
                )

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._connect()
            try:
                yield connection
            except sqlite3.Error as exc:
                raise self._fail(exc) from exc

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """The stored reply of ``prompt`` to ``llm_string``, marked cached; ``None``: a miss."""
        with self._db() as connection:
            row = connection.execute(
                "SELECT generations FROM calls WHERE key = ?", (_key(prompt, llm_string),)
            ).fetchone()
        return None if row is None else _decode(row[0])

    def contains(self, prompt: str, llm_string: str) -> bool:
        """Whether a reply of ``prompt`` to ``llm_string`` is stored."""
        with self._db() as connection:
            row = connection.execute(
                "SELECT 1 FROM calls WHERE key = ?", (_key(prompt, llm_string),)
            ).fetchone()
        return row is not None

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Store a fresh reply (a key already stored keeps its first reply)."""
        values = (_key(prompt, llm_string), llm_string, prompt, _encode(return_val))
        with self._db() as connection, connection:
            connection.execute("INSERT OR IGNORE INTO calls VALUES (?, ?, ?, ?)", values)

    def clear(self, **kwargs: Any) -> None:
        """Forget every stored reply."""
        with self._db() as connection, connection:
            connection.execute("DELETE FROM calls")

    def __len__(self) -> int:
        with self._db() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        """Close this process's connection (a later call opens it again)."""
        with self._lock:
            if self._connection is not None and self._pid == os.getpid():
                self._connection.close()
            self._connection = None


_opened: dict[Path, SQLiteModelCache] = {}
_opened_lock = threading.Lock()


def open_cache(path: str | os.PathLike[str]) -> SQLiteModelCache:
    """The process's cache on ``path`` (one per file, opened and checked on first use).

    Raises:
        ModelCacheError: ``path`` cannot be used as a model cache.
    """
    resolved = Path(path).expanduser().absolute()
    with _opened_lock:
        if resolved not in _opened:
            _opened[resolved] = SQLiteModelCache(resolved)
        return _opened[resolved]


def process_cache() -> SQLiteModelCache | None:
    """The cache :data:`CACHE_ENV` names, ``None`` when it is unset or empty."""
    path = os.environ.get(CACHE_ENV, "").strip()
    return open_cache(path) if path else None


@contextlib.contextmanager
def using_cache(path: str | os.PathLike[str] | None) -> Iterator[SQLiteModelCache | None]:
    """Models built inside (in this process and the workers it starts) use ``path``.

    Sets :data:`CACHE_ENV` for the duration (worker processes inherit it) and puts the
    previous value back after. ``None`` changes nothing.

    Raises:
        ModelCacheError: ``path`` cannot be used as a model cache (checked at once).
    """
    if path is None:
        yield None
        return
    cache = open_cache(path)
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(cache.path)
    try:
        yield cache
    finally:
        if before is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = before


def attach_cache(model: BaseChatModel) -> BaseChatModel:
    """Give ``model`` the process's cache (:func:`process_cache`) unless it has its own.

    Returns:
        ``model`` itself.
    """
    cache = process_cache()
    if cache is not None and model.cache is None:
        model.cache = cache
    return model


def cache_of(model: Any) -> SQLiteModelCache | None:
    """The model-call cache ``model`` uses, if it is one of ours."""
    cache = getattr(model, "cache", None)
    return cache if isinstance(cache, SQLiteModelCache) else None


def peek(model: BaseChatModel, messages: Sequence[BaseMessage]) -> bool:
    """Whether calling ``model`` with ``messages`` (no other arguments) will be a cache hit.

    Computes LangChain's key as its chat models do; any doubt answers ``False``, so a
    hit is never missed by the accounting, only (at worst) given a limiter slot.
    """
    cache = cache_of(model)
    if cache is None:
        return False
    try:
        llm_string = model._get_llm_string(stop=None)
        prompt = dumps([m.model_copy(update={"id": None}) if m.id else m for m in messages])
        return cache.contains(prompt, llm_string)
    except Exception:  # noqa: BLE001 - only decides whether a slot is held
        return False


def is_cached(message: Any) -> bool:
    """Whether ``message`` is a reply served from the model-call cache.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> is_cached(AIMessage("e4", response_metadata={"cached": True}))
        True
        >>> is_cached(AIMessage("e4")), is_cached("e4")
        (False, False)
    """
    metadata = getattr(message, "response_metadata", None) or {}
    return bool(isinstance(metadata, dict) and metadata.get(CACHED) is True)
