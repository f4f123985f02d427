"""``Retry-After`` pauses shared by the processes of one run.

When a provider answers ``Retry-After``, the endpoint's rate limiter pauses every request
of this process (:mod:`~langgraph_games.models.ratelimit`). A run's worker processes
(``--workers N``) have limiters of their own, so each would otherwise run into the same
refusal. :func:`share_pauses` names a folder in the environment (``LANGGRAPH_GAMES_PAUSES``),
which the processes started afterwards inherit; each endpoint's pause is then also written
there, as one small file holding the wall-clock time it ends, and every limiter of every
process reads it before letting a request go (a ``stat`` per request, the file read again
only when it changed). Writes go to a temporary file renamed over the old one, so a reader
sees the old time or the new one. The folder serves the processes of one machine; Ray
actors on other machines keep their own pauses.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

__all__ = ["PAUSES_ENV", "SharedPause", "share_pauses"]

PAUSES_ENV = "LANGGRAPH_GAMES_PAUSES"
"""The environment variable naming the folder of shared pauses."""

_clock = time.time  # module-level so tests can move the clock


def share_pauses(directory: str | Path | None = None) -> Path:
    """Share ``Retry-After`` pauses with the processes this one starts from now on.

    Args:
        directory: The folder (created if missing); default a fresh temporary one,
            removed when this process exits.

    Returns:
        The folder, also in ``os.environ[PAUSES_ENV]``.
    """
    if directory is None:
        folder = Path(tempfile.mkdtemp(prefix="lgg-pauses-"))
        owner = os.getpid()

        def remove() -> None:
            if os.getpid() == owner:  # not in a forked child
                shutil.rmtree(folder, ignore_errors=True)

        atexit.register(remove)
    else:
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
    os.environ[PAUSES_ENV] = str(folder)
    return folder


class SharedPause:
    """One endpoint's pause in the shared folder (nothing when none is shared).

    Args:
        name: The endpoint's key.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._file = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:20]
        self._seen: tuple[str, int] | None = None
        self._until = 0.0

    def _path(self) -> Path | None:
        folder = os.environ.get(PAUSES_ENV)
        return Path(folder) / self._file if folder else None

    def until(self) -> float:
        """The wall-clock time the shared pause ends (0: none)."""
        path = self._path()
        if path is None:
            return 0.0
        try:
            stamp = (str(path), path.stat().st_mtime_ns)
        except OSError:
            return 0.0
        if stamp != self._seen:
            try:
                self._until = float(path.read_text(encoding="ascii") or 0)
            except (OSError, ValueError):
                self._until = 0.0
            self._seen = stamp
        return self._until

    def remaining(self) -> float:
        """Seconds the shared pause still holds (0 when none)."""
        return max(0.0, self.until() - _clock())

    def extend(self, seconds: float) -> None:
        """Hold every process's requests for ``seconds`` from now (never shortened)."""
        path = self._path()
        if path is None:
            return
        end = _clock() + max(0.0, seconds)
        if end <= self.until():
            return
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(repr(end), encoding="ascii")
            os.replace(tmp, path)
        except OSError:  # the folder went away: pauses stay per process
            tmp.unlink(missing_ok=True)
