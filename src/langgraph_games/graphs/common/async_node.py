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
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.runtime import get_runtime

__all__ = ["AsyncNode", "async_node", "run_blocking"]

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


class AsyncNode(Runnable[Any, T]):
    """A graph node from an async function, runnable by ``ainvoke`` and ``invoke`` alike.

    The async API awaits the function on the caller's loop; the sync API runs it through
    :func:`run_blocking`. The function gets the node's config and LangGraph's runtime (by
    name) if it takes a ``config`` or ``runtime`` parameter, as a plain node does.
    LangGraph runs it inside the node's own run (the config's callbacks, ``get_config()``
    and ``get_runtime()`` are the node's), so it adds no run of its own to traces, as
    LangChain's ``RunnableLambda`` does (about a sixth of a millisecond per node run).
    """

    def __init__(self, node: Callable[..., Awaitable[T]], *, name: str) -> None:
        self.node = node
        self.name = name
        parameters = inspect.signature(node).parameters
        self._takes_config = "config" in parameters
        self._takes_runtime = "runtime" in parameters

    def _call(self, state: Any, config: RunnableConfig | None) -> Awaitable[T]:
        kwargs: dict[str, object] = {}
        if self._takes_config:
            kwargs["config"] = config or {}
        if self._takes_runtime:
            kwargs["runtime"] = get_runtime()
        return self.node(state, **kwargs)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> T:
        """Run the node to completion from sync code (see :func:`run_blocking`)."""

        async def call() -> T:
            return await self._call(input, config)

        return run_blocking(call)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> T:
        """Await the node."""
        return await self._call(input, config)


def async_node(node: Callable[..., Awaitable[T]], *, name: str) -> AsyncNode[T]:
    """A graph node from an async function, runnable by ``ainvoke`` and ``invoke`` alike.

    See :class:`AsyncNode`.

    Args:
        node: The node, an async function (or a ``functools.partial`` of one); it may
            take LangChain's ``config`` and LangGraph's ``runtime`` (passed by name).
        name: The node's name in traces.
    """
    return AsyncNode(node, name=name)
