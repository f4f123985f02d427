"""The event loop that long runs of episodes use (:func:`run`): uvloop where it is installed.

Every model call of an episode goes through a few dozen turns of the event loop (LangGraph
runs each node as a task and streams through queues), and with many matches in flight the
loop's own bookkeeping is a visible share of the CPU. uvloop, a drop-in event loop written in
C, does the same work for less: with 64 concurrent Connect Four matches against a 100 ms
model, the CPU per model call went from 2.40 to 2.03 ms in one process
(``benchmarks/concurrency.py``). The command line, worker processes and the benchmarks run
their main coroutine through :func:`run`.

Which loop is chosen by the environment variable :data:`LOOP_ENV`:

- ``auto`` (the default): uvloop when it can be imported (it is installed with the package
  on Linux and macOS with CPython 3.11 or newer), else asyncio's own loop;
- ``uvloop``: uvloop, and an error saying how to install it when it is missing;
- ``asyncio``: asyncio's own loop.

The choice changes speed only: the same episodes give the same records on either loop.
A process started with standard input, output or error closed runs on asyncio's loop
whatever the setting: uvloop would take the free descriptor and abort closing it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

__all__ = ["LOOP_ENV", "LOOP_KINDS", "loop_kind", "run"]

T = TypeVar("T")

LOOP_ENV = "LANGGRAPH_GAMES_EVENT_LOOP"
"""The environment variable that picks the event loop (``auto``, ``uvloop`` or ``asyncio``)."""

LOOP_KINDS = ("auto", "uvloop", "asyncio")
"""The accepted values of :data:`LOOP_ENV`."""

LoopKind = Literal["uvloop", "asyncio"]

_RUNNER: Any = vars(asyncio).get("Runner")
"""``asyncio.Runner``, which takes a loop factory (Python 3.11 and newer), else ``None``."""


def _uvloop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    if _RUNNER is None:
        return None
    try:
        # imported when a loop is made: optional (no wheels for Windows), and 70 ms to import
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def loop_kind(setting: str | None = None) -> LoopKind:
    """The event loop :func:`run` uses, for ``setting`` (default: the :data:`LOOP_ENV` value).

    Raises:
        ValueError: An unknown setting, or ``uvloop`` asked for where it cannot be used.

    Example:
        >>> loop_kind("asyncio")
        'asyncio'
        >>> loop_kind("fast")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: LANGGRAPH_GAMES_EVENT_LOOP='fast' is not an event loop; accepted: auto, ...
    """
    value = (setting if setting is not None else os.environ.get(LOOP_ENV, "auto")).strip().lower()
    if value not in LOOP_KINDS:
        raise ValueError(
            f"{LOOP_ENV}={value!r} is not an event loop; accepted: {', '.join(LOOP_KINDS)}"
        )
    if value == "asyncio":
        return "asyncio"
    if _uvloop_factory() is not None:
        return "uvloop"
    if value == "uvloop":
        raise ValueError(
            f"{LOOP_ENV}=uvloop, but uvloop cannot be used here: it needs CPython 3.11 or newer "
            "on Linux or macOS and `pip install uvloop`; set it to 'auto' or 'asyncio'"
        )
    return "asyncio"


def _standard_streams_open() -> bool:
    """Whether descriptors 0, 1 and 2 are all open (uvloop aborts reusing one of them)."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            return False
    return True


def run(main: Coroutine[Any, Any, T], *, setting: str | None = None) -> T:
    """Run ``main`` to completion on a new event loop (see the module docstring for which).

    Like :func:`asyncio.run`: the loop is closed afterwards, with its async generators and
    default executor shut down, and Ctrl-C cancels ``main``.

    Args:
        main: The coroutine to run.
        setting: ``auto``, ``uvloop`` or ``asyncio``; default: the :data:`LOOP_ENV` value.

    Returns:
        What ``main`` returns.

    Raises:
        ValueError: See :func:`loop_kind` (``main`` is closed unrun).

    Example:
        >>> async def answer() -> int:
        ...     return 42
        >>> run(answer(), setting="asyncio")
        42
    """
    try:
        kind = loop_kind(setting)
    except ValueError:
        main.close()
        raise
    factory = _uvloop_factory() if kind == "uvloop" and _standard_streams_open() else None
    if factory is None or _RUNNER is None:
        return asyncio.run(main)
    with _RUNNER(loop_factory=factory) as runner:
        result: T = runner.run(main)
    return result
