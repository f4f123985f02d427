"""A single-call strategy's ``decide`` function, called by its graph's node and by its player.

A single-call strategy (GAMEBoT, EvoEmpirBench, Minesweeper Agent) is one step: build the
prompt, ask the model once, read the reply. That step is a :data:`Decide` function,
``(input, config, runtime) -> update``, and its decision graph is ``START -> model ->
END`` with that function as the node (``compile_model_check`` builds both and ties them
together with :func:`register_decide`).

A decision graph invoked inside the episode loop is a nested LangGraph run, which costs a
fixed price per decision (its own loop, start and end events, a task for its node: about
0.6 ms, a third of the episode loop's work per model call with an instant model), and
what it adds over calling the function is what others can see of it: its run in a trace,
its events in ``astream(..., subgraphs=True)``, the node name on streamed tokens. So
:class:`~langgraph_games.graphs.common.decision.GraphPlayer` calls the function itself,
with the same input, the calling node's config and a runtime holding the same context
and store, when :func:`unwatched_runtime` finds

- that it is inside a LangGraph node (LangGraph's ``get_runtime()``), and
- no callback handler in the node's config (no tracer, no ``stream_mode="messages"``, no
  ``astream_events``, no caller's handler), and
- no :data:`NESTED_DECISIONS` option in the run's ``configurable``.

A parent that streams its subgraphs (``astream(..., subgraphs=True)``) and wants the
decision graphs' own updates in that stream passes the option:
``config={"configurable": {NESTED_DECISIONS: True}}`` (a player built with
``direct=False`` always runs its graph). The decision is the same either way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from weakref import WeakKeyDictionary

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.config import get_config
from langgraph.runtime import Runtime, get_runtime

__all__ = [
    "NESTED_DECISIONS",
    "Decide",
    "decide_function",
    "decide_unwatched",
    "has_handlers",
    "node_scope",
    "register_decide",
    "unwatched_runtime",
]

Decide = Callable[[Any, RunnableConfig, Runtime[Any]], Awaitable[Mapping[str, Any]]]
"""A single-call strategy's step: ``(input, config, runtime) -> update`` (``decision`` in it).

It reads nothing of its run but the input, the config (passed on to the model call) and
the runtime's ``context`` and ``store``."""

NESTED_DECISIONS = "nested_decision_graphs"
"""``configurable`` key: when true, every decision graph runs as a nested graph run.

Example: ``graph.astream(input, {"configurable": {NESTED_DECISIONS: True}},
subgraphs=True)`` shows each decision graph's own ``updates``."""

_DECIDERS: WeakKeyDictionary[Any, Decide] = WeakKeyDictionary()

_SCOPE: ContextVar[tuple[RunnableConfig, Runtime[Any]] | None] = ContextVar(
    "langgraph_games_node_scope", default=None
)
"""The config and runtime of a node run without LangGraph (see :func:`node_scope`)."""


@contextmanager
def node_scope(config: RunnableConfig, runtime: Runtime[Any]) -> Iterator[None]:
    """Run code as LangGraph runs a node's, for a loop that calls its nodes itself.

    Inside, LangChain's ``get_config()`` (and every runnable called without a config)
    gets ``config``, and :func:`unwatched_runtime` gets ``(config, runtime)``, as they
    would inside a node of a graph run with that config and runtime. A graph run started
    inside sets its own nodes' config, and they see their own runtime again.
    """
    config_token = var_child_runnable_config.set(config)
    scope_token = _SCOPE.set((config, runtime))
    try:
        yield
    finally:
        _SCOPE.reset(scope_token)
        var_child_runnable_config.reset(config_token)


def register_decide(graph: Any, decide: Decide) -> None:
    """Declare that ``graph`` (a compiled graph) is ``START -> decide -> END`` and nothing else.

    ``decide``'s update's ``decision`` is the graph's output.
    """
    _DECIDERS[graph] = decide


def decide_function(graph: Any) -> Decide | None:
    """The function registered for ``graph`` by :func:`register_decide`, if any."""
    return _DECIDERS.get(graph)


def unwatched_runtime() -> tuple[RunnableConfig, Runtime[Any]] | None:
    """The calling LangGraph node's config and runtime when nothing would see a nested run.

    ``None`` outside a LangGraph node (a graph run there may be traced from the
    environment), when the config has callback handlers (tracing, token streaming,
    events, a caller's handler) and when the run's ``configurable`` sets
    :data:`NESTED_DECISIONS`.

    Example:
        >>> unwatched_runtime() is None  # not inside a node
        True
    """
    try:
        config = get_config()
    except RuntimeError:  # outside any runnable
        return None
    scope = _SCOPE.get()
    runtime: Runtime[Any] | None
    if scope is not None and scope[0] is config:  # a node called by a loop of ours
        runtime = scope[1]
    else:
        try:
            runtime = get_runtime()
        except KeyError:  # a config without configurable: not a LangGraph node's
            return None
    if runtime is None or (config.get("configurable") or {}).get(NESTED_DECISIONS):
        return None
    return None if has_handlers(config) else (config, runtime)


def has_handlers(config: RunnableConfig) -> bool:
    """Whether ``config`` carries a callback handler (a list of them, or a manager with some)."""
    callbacks = config.get("callbacks")
    if isinstance(callbacks, list):
        return bool(callbacks)
    return callbacks is not None and bool(getattr(callbacks, "handlers", None))


async def decide_unwatched(
    graph: Any, graph_input: Mapping[str, Any], context: Any
) -> Mapping[str, Any] | None:
    """``graph``'s :data:`Decide` function called on ``graph_input``, if nothing watches.

    Returns:
        The function's update, or ``None`` when the graph has no registered function or
        the run is watched (see :func:`unwatched_runtime`): then the caller runs the graph.
    """
    decide = decide_function(graph)
    if decide is None:
        return None
    found = unwatched_runtime()
    if found is None:
        return None
    config, runtime = found
    return await decide(graph_input, config, Runtime(context=context, store=runtime.store))
