"""One process per persistent Chroma directory: an OS file lock held while a store is open.

Chroma's ``PersistentClient`` is not safe across processes (concurrent start-up races on
the schema, stale reads from cached indexes, reported corruption), so a ChromaStore on a
directory takes an exclusive lock on ``<dir>/langgraph-games.lock`` for as long as it is
open. Stores of the same process share the lock (Chroma shares one client per path in a
process, and that is safe): the lock is re-entrant, for every thread of the process. The OS
drops the lock when the process dies, so a crash never leaves the directory locked. The
lock is `filelock <https://py-filelock.readthedocs.io>`_'s OS lock (``flock`` or Windows'
own); the holder writes its pid in the file, so a refused process is told who holds it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Protocol

from langgraph_games.memory.errors import StoreLockedError

LOCK_NAME = "langgraph-games.lock"


class _FileLock(Protocol):
    """What this module uses of a filelock lock (filelock is imported when a store opens)."""

    @property
    def lock_file(self) -> str: ...

    @property
    def is_locked(self) -> bool: ...

    def acquire(self, timeout: float | None = None) -> object: ...

    def release(self) -> None: ...


_registry_lock = threading.Lock()
_held: dict[str, _FileLock] = {}


def _write_pid(descriptor: int) -> None:
    """Name this process in the lock file it has just locked."""
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, str(os.getpid()).encode("ascii"), 0)


def _owner(path: Path) -> str:
    """The pid the holder wrote in ``path``, or ``"unknown"``."""
    try:
        return path.read_text(encoding="utf-8").strip() or "unknown"
    except OSError:  # gone, or locked against reading (Windows)
        return "unknown"


def acquire(directory: Path, timeout: float) -> str:
    """Lock ``directory`` for this process; returns the token to pass to :func:`release`.

    Raises:
        StoreLockedError: Another process holds the lock for longer than ``timeout`` s.
    """
    from filelock import FileLock, Timeout  # the memory extra's; only stores on a directory

    token = str(directory.resolve())
    with _registry_lock:
        lock: _FileLock | None = _held.get(token)
        if lock is None:
            lock = FileLock(Path(token) / LOCK_NAME, thread_local=False, on_acquired=_write_pid)
        try:
            lock.acquire(timeout=max(0.0, timeout))
        except Timeout:
            path = Path(lock.lock_file)
            raise StoreLockedError(
                f"the store directory {token} is open in another process (pid "
                f"{_owner(path)}, holding {path}); Chroma allows one process per persistent "
                f"directory. Use the store from one process, or serve it with `chroma run "
                f"--path {token}` and connect every process with ChromaStore(host=..., port=...)"
            ) from None
        _held[token] = lock
        return token


def release(token: str) -> None:
    """Drop one hold on a lock taken by :func:`acquire`; the last one unlocks it."""
    with _registry_lock:
        lock = _held.get(token)
        if lock is None:
            return
        lock.release()
        if not lock.is_locked:
            del _held[token]


def holds(directory: Path) -> bool:
    """Whether this process already holds ``directory``'s lock (a store there is open)."""
    with _registry_lock:
        return str(directory.resolve()) in _held
