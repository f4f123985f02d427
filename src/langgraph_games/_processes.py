"""What keeps a run's processes apart and lets them end cleanly (no heavy imports here).

- :class:`OwnedLock`: an exclusive OS lock on a file that names the process holding it, so
  one run at a time writes a results file and a second one is told which process holds
  it. The OS drops the lock when its process dies (a crash never leaves it locked).
- :func:`sigint_blocked`: worker processes started inside it begin life with Ctrl-C
  blocked, so a Ctrl-C during their start-up (their imports) prints nothing there; the
  parent stops them.
- :func:`reimporting_main`: whether this process is a spawned worker still importing the
  script that started its parent (a script that calls the command line or a run at import
  time, with no ``if __name__ == "__main__":`` guard); such a worker exits with
  :data:`REIMPORT_EXIT` and the parent says what to fix.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import IO

__all__ = [
    "REIMPORT_EXIT",
    "LockHeldError",
    "OwnedLock",
    "reimporting_main",
    "sigint_blocked",
    "try_lock",
    "unlock",
]

REIMPORT_EXIT = 87
"""Exit code of a spawned worker that found itself running the command again while it
re-imported its parent's main script (see :func:`reimporting_main`)."""


def try_lock(handle: IO[str]) -> bool:
    """Take an exclusive lock on ``handle``'s file at once; ``False`` if another holds it."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def unlock(handle: IO[str]) -> None:
    """Drop the lock :func:`try_lock` took on ``handle``'s file."""
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class LockHeldError(Exception):
    """Another holder has the lock (``owner``: the pid it wrote, or ``"unknown"``)."""

    def __init__(self, path: Path, owner: str) -> None:
        super().__init__(f"{path} is held by process {owner}")
        self.path = path
        self.owner = owner


class OwnedLock:
    """An exclusive lock on ``path`` held by one open file, with the holder's pid in it.

    Taken at once or refused (:meth:`acquire` never waits): a second holder, in another
    process or in this one, gets :class:`LockHeldError` naming the pid. :meth:`release`
    removes the file while still holding it, so nothing is left beside the data once a run
    ends; a taker that opened the file before it was removed sees that the path no longer
    leads to what it locked and opens it again. A process that dies without releasing
    leaves the file, unlocked (the OS drops the lock), and the next taker reuses it.

    Args:
        path: The lock file (created on :meth:`acquire`).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._handle: IO[str] | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._handle is not None

    def acquire(self) -> None:
        """Take the lock now and write this process's pid in it.

        Raises:
            LockHeldError: Another open file holds it (its pid is in the error).
            OSError: The lock file cannot be created.
        """
        if self._handle is not None:
            raise LockHeldError(self.path, str(os.getpid()))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - kept while held
            locked = try_lock(handle)
            if _same_file(handle, self.path):
                if locked:
                    break
                handle.seek(0)
                owner = handle.read().strip() or "unknown"
                handle.close()
                raise LockHeldError(self.path, owner)
            if locked:  # removed by its last holder after this open: open it again
                unlock(handle)
            handle.close()
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        """Remove the lock file and drop the lock (nothing if not held)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            with contextlib.suppress(OSError):  # Windows cannot remove an open file
                self.path.unlink()
            unlock(handle)
        finally:
            handle.close()


def _same_file(handle: IO[str], path: Path) -> bool:
    """Whether ``path`` still names the file ``handle`` has open."""
    try:
        on_disk = path.stat()
    except FileNotFoundError:
        return False
    opened = os.fstat(handle.fileno())
    return (on_disk.st_dev, on_disk.st_ino) == (opened.st_dev, opened.st_ino)


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block Ctrl-C (``SIGINT``) in this thread while the block runs.

    A process started inside inherits the blocked signal from its first instruction,
    before Python or any import runs, so a Ctrl-C meant for the parent (the terminal
    sends it to the whole process group) is never raised in it. This process still gets
    it: another thread (the main one) takes it. No-op where signal masks do not exist.
    """
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def reimporting_main() -> bool:
    """Whether the caller runs while a spawned worker re-imports its parent's main script.

    A ``spawn`` worker imports the script that started its parent, under the name
    ``__mp_main__``, before it does anything else. A script that starts a run at import
    time (no ``if __name__ == "__main__":`` guard) would start it again there, in every
    worker; this sees that the call comes from that import.
    """
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") == "__mp_main__" and frame.f_code.co_name == "<module>":
            return True
        frame = frame.f_back
    return False
