"""Running a one-node decision graph's node directly when nothing watches the run.

A decision graph invoked inside the episode loop is a nested LangGraph run. That run
costs a fixed price per decision (its own loop, checkpoint bookkeeping, start and end
events, a task for its node: about 0.6 ms, a third of the episode loop's work per model
call with an instant model), and what it adds over calling its node is what others can
see of it: its run in a trace, its events in ``astream(..., subgraphs=True)``, the node
name on streamed tokens. When nobody is there to see them (no callback handler in the
calling node's config: no tracer, no ``stream_mode="messages"``, no ``astream_events``,
and no parent streaming its subgraphs),
:class:`~langgraph_games.graphs.common.decision.GraphPlayer` calls the node itself, with
the same input, the caller's config and a runtime holding the same context and store;
the decision is the same. When anyone watches, the graph runs as a graph.

Only graphs registered here take that path:
:func:`~langgraph_games.graphs.common.prompt_agent.compile_model_check` registers the
single-call strategies it compiles (GAMEBoT, EvoEmpirBench, Minesweeper Agent), whose
node reads nothing of the run but its context and store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from weakref import WeakKeyDictionary

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.runtime import Runtime

__all__ = [
    "DirectNode",
    "direct_node",
    "register_direct_node",
    "run_unobserved",
    "unobserved_config",
]

DirectNode = Callable[[Any, RunnableConfig, Runtime[Any]], Awaitable[Mapping[str, Any]]]
"""A graph's only node: ``(state, config, runtime) -> update``."""

_NODES: WeakKeyDictionary[Any, DirectNode] = WeakKeyDictionary()

# LangGraph's configurable keys: the runtime of the node being run (only a LangGraph
# node's config has it), and a parent streaming its subgraphs' events
# (``astream(..., subgraphs=True)``). tests/graphs/episode/test_direct_decisions.py checks
# both: an unwatched episode calls the node, and such a stream still shows the decision
# graph's own updates.
_RUNTIME_KEY = "__pregel_runtime"
_SUBGRAPH_STREAM_KEY = "__pregel_stream"


def register_direct_node(graph: Any, node: DirectNode) -> None:
    """Declare that ``graph`` (a compiled graph) is ``START -> node -> END`` and nothing else.

    ``node`` must read nothing of its run but its state, its config (passed on to model
    calls) and its runtime's ``context`` and ``store``; its update's ``decision`` is the
    graph's output.
    """
    _NODES[graph] = node


def direct_node(graph: Any) -> DirectNode | None:
    """The node registered for ``graph`` by :func:`register_direct_node`, if any."""
    return _NODES.get(graph)


def unobserved_config() -> RunnableConfig | None:
    """The calling LangGraph node's config when nothing would see a nested run, else ``None``.

    ``None`` outside a LangGraph node (a graph run there may be traced from the
    environment), when the config has callback handlers (tracing, token streaming,
    events, a caller's handler) and when a parent streams its subgraphs.

    Example:
        >>> unobserved_config() is None  # not inside a node
        True
    """
    config = var_child_runnable_config.get()
    if config is None:
        return None
    configurable = config.get("configurable") or {}
    if _RUNTIME_KEY not in configurable or _SUBGRAPH_STREAM_KEY in configurable:
        return None
    callbacks = config.get("callbacks")
    if callbacks is None:
        return config
    if isinstance(callbacks, list):
        return None if callbacks else config
    return None if getattr(callbacks, "handlers", None) else config


async def run_unobserved(
    graph: Any, graph_input: Mapping[str, Any], context: Any
) -> Mapping[str, Any] | None:
    """``graph``'s registered node run directly on ``graph_input``, if nothing watches.

    Returns:
        The node's update, or ``None`` when the graph has no registered node or the run
        is watched (see :func:`unobserved_config`): then the caller runs the graph.
    """
    node = direct_node(graph)
    if node is None:
        return None
    config = unobserved_config()
    if config is None:
        return None
    store = getattr(config["configurable"][_RUNTIME_KEY], "store", None)
    return await node(graph_input, config, Runtime(context=context, store=store))
