"""Telling a full disk from a damaged ChromaStore.

When the disk holding a persistent store fills up, Chroma (1.x, whose SQLite runs inside
its Rust core) rarely says so. Measured on a small tmpfs filled to the brim, a write
fails with ``chromadb.errors.InternalError`` and one of:

* ``Query error: Database error: error returned from database: (code: 13) database or
  disk is full`` (SQLite's own message: appending the write to Chroma's log failed);
* ``Error in compaction: Failed to apply logs to the metadata segment`` (the log was
  appended but applying it failed; the cause is not passed on);

and a read or an open on a full disk that still has log entries to apply fails with
``Error executing plan: Error sending backfill request to compactor: Failed to apply
logs to the metadata segment``. So a Chroma error counts as "disk full" when its text
says so (:data:`FULL_MARKERS`), or when the disk holding the store has less room left
than the operation needs (:func:`write_need`, or :data:`LOW_ROOM` for reads and opens).

A write also checks the room it needs *before* it starts (:func:`check_room`): Chroma
applies a log entry that it appended before failing as soon as it has room again, so a
write that fails half-way may still take effect later, while one refused before it
starts leaves the store exactly as it was.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path

from langgraph_games.memory.errors import StoreFullError

__all__ = [
    "FULL_MARKERS",
    "LOW_ROOM",
    "check_room",
    "disk_full",
    "free_bytes",
    "says_disk_full",
    "write_need",
]

FULL_MARKERS = (
    "database or disk is full",
    "no space left on device",
    "os error 28",
    "disk quota exceeded",
    "os error 122",
)
"""Lower-case fragments of SQLite, OS and Rust messages that mean the disk is full."""

LOW_ROOM = 64 * 1024 * 1024
"""Free bytes below which a Chroma failure on a read or an open counts as a full disk."""

WRITE_BASE = 512 * 1024
"""Free bytes any write needs (SQLite's rollback journal and Chroma's log; 150 KiB measured)."""

WRITE_FACTOR = 10
"""Free bytes a write needs per byte of its records (measured on Chroma 1.5: 2.6 to 15)."""


def free_bytes(directory: Path) -> int | None:
    """Bytes free to this user on the disk holding ``directory``; ``None`` if unknown."""
    try:
        return int(shutil.disk_usage(directory).free)
    except OSError:
        return None


def write_need(payload: int) -> int:
    """Free bytes a Chroma write of ``payload`` bytes of records needs, with some margin.

    Chroma appends the records to its log, then copies them into its metadata tables, a
    full-text index of every string and the HNSW index, each through SQLite's rollback
    journal. Measured on a tmpfs filled to the brim (``payload`` as
    ``_chroma_write.payload_bytes`` counts it): 1 item needed 150 KiB free, 20 items
    570 KiB (21 KiB of records), 200 items of 1 kB 3.2 MiB (340 KiB), 2,000 items 11 MiB
    (2.1 MiB).
    """
    return WRITE_BASE + WRITE_FACTOR * payload


def says_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or an error it was raised from) says that the disk is full."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if isinstance(current, sqlite3.Error) and getattr(current, "sqlite_errorcode", 0) == 13:
            return True  # SQLITE_FULL
        text = str(current).lower()
        if any(marker in text for marker in FULL_MARKERS):
            return True
        current = current.__cause__ or current.__context__
    return False


_AGAIN = {
    "opening": "open the store again",
    "reading": "run the read again",
    "repairing": "call repair() again",
    "reindexing": "call reindex() again",
}


def _size(count: int | None) -> str:
    if count is None:
        return "an unknown amount"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def disk_full(
    location: str,
    directory: Path | None,
    doing: str,
    exc: BaseException,
    *,
    need: int = LOW_ROOM,
) -> StoreFullError | None:
    """The store's error for ``exc`` if it came from a full disk, else ``None``.

    Args:
        location: The store's location, for the message.
        directory: The store's directory (``None``: a server or in-memory store, whose
            disk cannot be looked at; only the error's text counts).
        doing: What Chroma was doing ("writing", "opening", ...), for the message.
        exc: Chroma's (or SQLite's, or the OS's) error.
        need: Free bytes under which an unexplained failure counts as a full disk.
    """
    free = free_bytes(directory) if directory is not None else None
    if not says_disk_full(exc) and (free is None or free >= need):
        return None
    where = f"the disk holding the ChromaStore at {location}"
    cause = f"Chroma failed while {doing} ({type(exc).__name__}: {exc}; {_size(free)} free)"
    if doing == "writing":
        outcome = (
            "Nothing stored before was lost. This write was cut short: each item it "
            "touches is either as it was or entirely as written, and Chroma may still "
            "apply the part it had logged once it has room. Free space on that disk and "
            "run the write again"
        )
    else:
        again = _AGAIN.get(doing, f"try {doing} again")
        outcome = f"Nothing stored was lost. Free space on that disk and {again}"
    return StoreFullError(f"{where} is full: {cause}. {outcome}")


def check_room(location: str, directory: Path, payload: int) -> None:
    """Refuse a write of ``payload`` bytes of records before it starts if the disk is full.

    Raises:
        StoreFullError: The disk holding ``directory`` has less room than the write needs;
            nothing was written.
    """
    need = write_need(payload)
    free = free_bytes(directory)
    if free is None or free >= need:
        return
    raise StoreFullError(
        f"the disk holding the ChromaStore at {location} is full: {_size(free)} free, "
        f"and this write needs about {_size(need)}. Nothing was written and nothing stored "
        "was lost. Free space on that disk and run the write again"
    )
