"""One process per persistent Chroma directory: an OS file lock held while a store is open.

Chroma's ``PersistentClient`` is not safe across processes (concurrent start-up races on
the schema, stale reads from cached indexes, reported corruption), so a ChromaStore on a
directory takes an exclusive lock on ``<dir>/langgraph-games.lock`` for as long as it is
open. Stores of the same process share the lock (Chroma shares one client per path in a
process, and that is safe). The OS drops the lock when the process dies, so a crash never
leaves the directory locked. The locking itself is the package's one OS file lock
(:func:`langgraph_games._processes.try_lock`), which results files use too.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from langgraph_games._processes import try_lock, unlock
from langgraph_games.memory.errors import StoreLockedError

LOCK_NAME = "langgraph-games.lock"

_registry_lock = threading.Lock()
_held: dict[str, _Held] = {}


@dataclass
class _Held:
    handle: IO[str]
    count: int


def acquire(directory: Path, timeout: float) -> str:
    """Lock ``directory`` for this process; returns the token to pass to :func:`release`.

    Raises:
        StoreLockedError: Another process holds the lock for longer than ``timeout`` s.
    """
    token = str(directory.resolve())
    with _registry_lock:
        held = _held.get(token)
        if held is not None:
            held.count += 1
            return token
        handle = open(directory / LOCK_NAME, "a+", encoding="utf-8")  # noqa: SIM115
        deadline = time.monotonic() + max(0.0, timeout)
        while not try_lock(handle):
            if time.monotonic() >= deadline:
                handle.seek(0)
                owner = handle.read().strip() or "unknown"
                handle.close()
                raise StoreLockedError(
                    f"the store directory {token} is open in another process (pid {owner}); "
                    "Chroma allows one process per persistent directory. Use the store from "
                    f"one process, or serve it with `chroma run --path {token}` and connect "
                    "every process with ChromaStore(host=..., port=...)"
                )
            time.sleep(0.05)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        _held[token] = _Held(handle, 1)
        return token


def release(token: str) -> None:
    """Drop one hold on a lock taken by :func:`acquire`; the last one unlocks it."""
    with _registry_lock:
        held = _held.get(token)
        if held is None:
            return
        held.count -= 1
        if held.count == 0:
            del _held[token]
            try:
                unlock(held.handle)
            finally:
                held.handle.close()


def holds(directory: Path) -> bool:
    """Whether this process already holds ``directory``'s lock (a store there is open)."""
    with _registry_lock:
        return str(directory.resolve()) in _held
