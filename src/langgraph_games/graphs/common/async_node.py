"""Async nodes that a graph runs under its sync API too: each node is written once, async.

LangGraph awaits ``async def`` nodes under ``ainvoke``/``astream`` but refuses them under
``invoke``/``stream`` ("No synchronous function provided"). :func:`async_node` wraps an
async node so that a sync run executes the same coroutine to completion on a private event
loop, in the thread LangGraph runs the node in: the graph keeps one implementation, and
its sync API (and a sync parent graph using it as a subgraph) keeps working.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from langchain_core.runnables import RunnableLambda

__all__ = ["async_node", "run_blocking"]

T = TypeVar("T")


def run_blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to completion from sync code and return its result.

    Where no event loop runs in this thread it runs on a new loop here (``asyncio.run``,
    which copies this thread's context variables, so LangGraph's ``get_config`` and
    ``get_store`` work inside). Where one does (sync code called from async code), it runs
    on a new loop in a thread of its own, with a copy of the context, while this thread
    waits: blocking the running loop for that time, as any sync call does.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="async-node") as pool:
        return pool.submit(context.run, lambda: asyncio.run(make())).result()


def async_node(node: Callable[..., Awaitable[T]], *, name: str) -> RunnableLambda[Any, T]:
    """A graph node from an async function, runnable by ``ainvoke`` and ``invoke`` alike.

    The async API awaits ``node`` on the caller's loop; the sync API runs it through
    :func:`run_blocking`. ``node`` may take LangChain's ``config`` (passed by name).

    Args:
        node: The node, an async function (or a ``functools.partial`` of one).
        name: The node's name in traces.
    """

    @functools.wraps(node)
    def blocking(*args: Any, **kwargs: Any) -> T:
        async def call() -> T:
            return await node(*args, **kwargs)

        return run_blocking(call)

    return RunnableLambda(blocking, afunc=node, name=name)
