"""Progress on stderr for commands that read and write (leaderboard, report, replay).

Like ``arena`` and ``eval``, progress goes to stderr (stdout keeps the tables) and
``-q`` turns it off. Nothing is shown for work that ends within :data:`DELAY` seconds,
so a quick command prints only its result:

- :func:`progress_bar`: a tqdm bar over counted steps (bootstrap replicates, pages),
  shown once the work has run ``DELAY`` seconds;
- :func:`stage`: one line naming a step that has no count (reading files, drawing
  plots), printed if the step is still running after ``DELAY`` seconds, and a line with
  its time when it ends.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["DELAY", "progress_bar", "stage"]

DELAY = 2.0
"""Seconds a step runs before its progress is shown."""


def _nothing() -> None:
    """A tick that shows nothing."""


@contextmanager
def progress_bar(
    desc: str, total: int | None, unit: str, *, enabled: bool = True
) -> Iterator[Callable[[], None]]:
    """A tqdm bar on stderr; the context gives the function to call once per step."""
    if not enabled or total == 0:
        yield _nothing
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, delay=DELAY)
    try:
        yield lambda: bar.update(1)
    finally:
        bar.close()


@contextmanager
def stage(desc: str, *, enabled: bool = True) -> Iterator[None]:
    """Say on stderr that ``desc`` is under way if it runs past :data:`DELAY` seconds."""
    if not enabled:
        yield
        return
    shown = threading.Event()
    started = time.monotonic()

    def show() -> None:
        print(f"{desc}...", file=sys.stderr, flush=True)
        shown.set()

    timer = threading.Timer(DELAY, show)
    timer.daemon = True
    if DELAY <= 0:
        show()
    else:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if timer.is_alive():
            timer.join()  # a line being printed now is finished before the last one
        if shown.is_set():
            print(f"{desc}: done in {time.monotonic() - started:.1f} s", file=sys.stderr)
