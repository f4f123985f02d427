"""The garbage collector tuned for long runs of episodes (:func:`steady_gc`).

An episode allocates many short-lived objects per model call (LangGraph's tasks,
configs and checkpoints, LangChain's callback managers), and CPython's cyclic collector
runs every 700 net allocations by default, each time scanning its youngest generation
and, every tenth time, the next one; with many episodes in flight it also walks
everything the run built at the start (imported modules, compiled graphs, engines,
models) again and again. Measured with 64 concurrent Connect Four matches on an instant
model, a third of the CPU per model call was the collector.

:func:`steady_gc` freezes what exists when the run starts (:func:`gc.freeze`: moved to a
permanent generation the collector skips) and collects the youngest generation every
10,000 net allocations instead of 700. Cycles are still collected, later; memory use was
the same in the measurement above. Everything is restored when the block ends. The
executor and the command line run inside it; code that runs many episodes itself can too.
A worker process or Ray actor, which plays episodes until it exits, sets the same once
(:func:`tune_worker_process`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG_THRESHOLD", "steady_gc", "tune_worker_process"]

YOUNG_THRESHOLD = 10_000
"""Net allocations between collections of the youngest generation inside :func:`steady_gc`."""

_depth = 0


@contextmanager
def steady_gc(young: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Run the block with the run's start frozen and the young generation collected less often.

    Nested blocks keep the outermost block's settings; the outermost restores the
    thresholds and unfreezes on exit.

    Example:
        >>> import gc
        >>> before = gc.get_threshold()
        >>> with steady_gc():
        ...     gc.get_threshold()[0]
        10000
        >>> gc.get_threshold() == before
        True
    """
    global _depth
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    before = gc.get_threshold()
    gc.collect()  # don't freeze garbage
    gc.freeze()
    gc.set_threshold(young, *before[1:])
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        gc.set_threshold(*before)
        gc.unfreeze()


def tune_worker_process(young: int = YOUNG_THRESHOLD) -> None:
    """:func:`steady_gc`'s settings for the rest of a process that only plays episodes.

    Called once by a worker process or Ray actor after it has loaded its models and
    players; never restored (the process ends with the run).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, *gc.get_threshold()[1:])
