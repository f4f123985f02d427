"""Processes that write to a ChromaStore directory and are killed (SIGKILL) mid-write.

Spawned by ``tests/memory/test_store_crash.py``; the functions are top-level so that a
``spawn`` child can import them. Each child kills itself at a chosen point, so where it
dies does not depend on timing.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.base import IndexConfig, PutOp

from langgraph_games.memory import ChromaStore
from memory_fakes import fake_index

NS = ("crash",)
UPDATED = [f"u{i}" for i in range(8)]
DELETED = [f"d{i}" for i in range(4)]
ADDED = [f"n{i}" for i in range(4)]

# Where write_items is cut: (collection, method); the kill comes right after that call.
KILL_POINTS = {
    "new vectors written": ("vectors", "upsert"),
    "items committed": ("items", "upsert"),
    "deletes done": ("items", "delete"),
}


def index() -> IndexConfig:
    return fake_index(16, ["text"])


def old_text(key: str) -> str:
    return f"old value of {key}, written before the crash " + "o" * 200


def new_text(key: str) -> str:
    return f"new value of {key}, written by the killed batch " + "n" * 200


def build(directory: Path) -> None:
    """The store before the killed write: items to update and items to delete."""
    with ChromaStore(directory, index=index()) as store:
        store.batch([PutOp(NS, key, {"text": old_text(key)}) for key in UPDATED + DELETED])


def killed_batch() -> list[PutOp]:
    """The write the child is killed in: updates, new items and deletes."""
    return (
        [PutOp(NS, key, {"text": new_text(key)}) for key in UPDATED + ADDED]
        + [PutOp(NS, key, None) for key in DELETED]
    )  # fmt: skip


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def write_killed_at(directory: str, point: str) -> None:
    """Open the store, then run :func:`killed_batch` and die right after ``point``."""
    store = ChromaStore(directory, index=index())
    kind, method = KILL_POINTS[point]
    collection = store._items if kind == "items" else store._vectors
    real: Callable[..., Any] = getattr(collection, method)

    def then_die(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        _die()

    setattr(collection, method, then_die)
    store.batch(killed_batch())
    raise AssertionError(f"the batch finished although it should have died after {point}")


def torn_write(directory: str) -> None:
    """Die inside an SQLite write transaction on ``chroma.sqlite3``, its pages half on disk.

    Chroma runs SQLite inside its Rust core, where Python cannot stop it mid-commit. So
    the child holds the store open (and its lock) as a writer does, and makes the same
    kind of write on the same file through Python's ``sqlite3``: every item's stored
    value is overwritten, with a one-page cache so that SQLite writes changed pages into
    the database file (after saving the originals in its rollback journal) before the
    transaction commits. The kill then leaves a hot journal and a torn database file,
    which is what a kill inside Chroma's own commit leaves.
    """
    store = ChromaStore(directory)
    connection = sqlite3.connect(Path(directory) / "chroma.sqlite3", isolation_level=None)
    connection.execute("PRAGMA cache_size = 1")
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(
        "UPDATE embedding_metadata SET string_value = 'torn' WHERE key = 'chroma:document'"
    )
    _die()
    store.close()  # not reached
