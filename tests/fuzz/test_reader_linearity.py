"""Every reader of model output reads a reply at the cap in time linear in its length.

Each reader of the fuzz suite (every registered game's move, answer and GAMEBoT readers,
and the graphs' readers) reads every worst shape of ``fuzz.replies`` at
:data:`~langgraph_games.models.messages.MAX_REPLY_CHARS` characters, the longest reply any
reader is given, and at a tenth of that. A reader linear in its input takes about ten
times as long on the full reply; a pattern that backtracks over a long run, or a scan
repeated per match, takes a hundred times as long or more. The bound on that growth
(:data:`MAX_GROWTH`) is generous, both sizes are timed in CPU time of this process with
the garbage collector off, and a growth past the bound is measured again (the best of a
few reads of each size) before it fails the test, so a busy machine does not fail it.
Reads that take less than :data:`NOISE` at the cap are not compared: their timings are
mostly noise, and a reader quadratic in the reply takes seconds there.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import pytest

from fuzz.readers import READERS, Reader
from fuzz.replies import WORST
from langgraph_games.games import list_games, make
from langgraph_games.models.messages import MAX_REPLY_CHARS

MAX_GROWTH = 40.0
"""The most a read may grow over a tenfold longer reply (linear: about 10; quadratic: 100)."""

NOISE = 0.004
"""CPU seconds below which a read at the cap is too quick to compare (timer and cache noise)."""

SIZES = (MAX_REPLY_CHARS, MAX_REPLY_CHARS // 10, MAX_REPLY_CHARS // 100)
SHAPES = {name: tuple(shape(size) for size in SIZES) for name, shape in WORST.items()}


def _cpu(read: Callable[[str], Any], text: str, tries: int) -> float:
    """The least CPU time of ``tries`` reads of ``text`` (other work only adds to it)."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(tries):
            start = time.process_time()
            read(text)
            best = min(best, time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return best


def _growth(read: Callable[[str], Any], big: str, small: str) -> tuple[float, float] | None:
    """The CPU time of ``big`` and its growth over ``small``, or ``None`` when quick.

    One read of each first: other work on the machine can only slow a read, which makes a
    growth look smaller (a slow ``small``) or larger (a slow ``big``); a large one is
    measured again, the best of several reads of each, before it is reported.
    """
    took = _cpu(read, big, 1)
    if took < NOISE:
        return None
    base = _cpu(read, small, 1)
    if took <= MAX_GROWTH * base:
        return took, took / base
    took = min(took, _cpu(read, big, 2))
    base = max(_cpu(read, small, 5), 1e-9)
    return took, took / base


def _too_slow(read: Callable[[str], Any], texts: tuple[str, ...]) -> str | None:
    """How a read grows too fast, from the smallest sizes up, or ``None``.

    A tenth of the cap is compared with a hundredth first, so that a reader quadratic in
    the reply fails in seconds rather than minutes at the cap.
    """
    full, tenth, hundredth = texts
    for big, small in ((tenth, hundredth), (full, tenth)):
        measured = _growth(read, big, small)
        if measured is not None and measured[1] > MAX_GROWTH:
            took, growth = measured
            return f"{1000 * took:.0f} ms for {len(big):,} characters, {growth:.0f}x a tenth"
    return None


def test_the_shapes_are_replies_at_the_cap() -> None:
    for name, texts in SHAPES.items():
        assert tuple(len(text) for text in texts) == SIZES, name


def test_every_registered_game_has_its_readers_here() -> None:
    names = {reader.name for reader in READERS}
    for info in list_games():
        own = {f"{info.id}.{reader}" for reader in ("parse_action", "read_action", "gamebot")}
        own |= {f"{info.id}.answer{sub.index}" for sub in make(info.id).subproblems}
        assert own <= names, own - names


def test_the_growth_of_a_quadratic_reader_is_caught() -> None:
    def quadratic(text: str) -> int:
        return sum(text.count(" ", i, i + 4 * len(text) // 5) for i in range(0, len(text), 100))

    full, tenth, _ = SHAPES["spaces"]
    measured = _growth(quadratic, full, tenth)
    assert measured is not None and measured[1] > MAX_GROWTH, measured
    assert _too_slow(quadratic, SHAPES["spaces"]) is not None


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_every_shape_at_the_cap_is_read_in_linear_time(reader: Reader) -> None:
    for texts in SHAPES.values():
        reader.read(texts[-1])  # compiled patterns and caches, before anything is timed
    measured = {name: _too_slow(reader.read, texts) for name, texts in SHAPES.items()}
    slow = {name: why for name, why in measured.items() if why is not None}
    assert not slow, slow
