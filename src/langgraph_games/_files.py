"""Writing a whole file so that a reader never sees half of it (crash, kill or disk full).

:func:`write_atomic` writes next to the target under a name of its own (this process's
pid and a counter), flushes it to disk, and renames it over the target: the target is the
old file or the new one, never a mix. A failed write removes its temporary file.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

__all__ = ["write_atomic"]

_COUNTER = itertools.count()


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns the path.

    Raises:
        OSError: The folder cannot be written (disk full, permissions): the target is
            unchanged.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{next(_COUNTER)}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target
