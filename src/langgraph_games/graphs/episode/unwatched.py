"""The episode graph's nodes called by a plain loop, when nothing would see the graph run.

An episode graph run costs LangGraph's fixed price per step (its loop, channels, a task
for the node, its start and end events), and every model call of a turn-based episode
goes through one step. What that buys is what others can see and keep of the run: a
checkpoint after each step, its updates streamed, its run in a trace, a parent graph
streaming its subgraphs. When there is none of that, :func:`play_unwatched` calls the
same node functions, in the order the graph's edges route them, and folds their updates
into the state as the graph's channels do: the same moves, steps and result, at the cost
of the nodes' own work. Model calls inside see the node config and runtime a graph run
would give them (:func:`~langgraph_games.graphs.common.direct.node_scope`), and a call of a
one-call model with that config skips LangChain's callback layer
(:func:`~langgraph_games.models.plain_call.unwatched_calls`): nothing would see it.

:func:`~langgraph_games.graphs.episode.run.run_episode` plays this way when

- it has no checkpointer (and so no interactive seat, which stops at an interrupt),
- it is not called inside a runnable (a node of a graph of one's own: that graph's
  stream, trace and ``subgraphs=True`` then see the episode graph's run), and
- LangChain would attach no callback handler to the run: none in the given config, no
  tracing from the environment or a ``tracing_v2_enabled`` block, and
- the config's ``configurable`` does not set
  :data:`~langgraph_games.graphs.common.direct.NESTED_DECISIONS`.

Everything else runs the compiled graph (:func:`create_episode_graph`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import (
    get_async_callback_manager_for_config,
    var_child_runnable_config,
)
from langgraph.errors import GraphRecursionError
from langgraph.runtime import Runtime

from langgraph_games.graphs.common.direct import NESTED_DECISIONS, has_handlers, node_scope
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import finish_node, route_next, step_node
from langgraph_games.graphs.episode.options import EpisodeState
from langgraph_games.models.plain_call import unwatched_calls

__all__ = ["play_unwatched", "unwatched"]


def unwatched(config: RunnableConfig) -> bool:
    """Whether an episode run with ``config`` (and no checkpointer) may skip the graph.

    ``False`` inside a runnable, when LangChain would attach a callback handler to the
    run (given, tracing from the environment, a tracing block) and when ``configurable``
    sets :data:`~langgraph_games.graphs.common.direct.NESTED_DECISIONS`.
    """
    if var_child_runnable_config.get() is not None:
        return False
    if (config.get("configurable") or {}).get(NESTED_DECISIONS):
        return False
    if has_handlers(config):
        return False
    return not get_async_callback_manager_for_config(config).handlers


async def play_unwatched(
    state: EpisodeState, context: EpisodeContext, config: RunnableConfig
) -> EpisodeState:
    """Play the episode from ``state`` by calling the graph's nodes; its final state.

    Check :func:`unwatched` first: this loop writes no checkpoint, streams nothing and is
    seen by no callback. ``state`` holds the session record and the trajectory so far
    (both are copied, then grown in place as the graph's channels grow theirs);
    ``config``'s ``recursion_limit`` bounds the node runs, as it bounds a graph's steps.

    Raises:
        GraphRecursionError: The episode needs more node runs than ``recursion_limit``.
    """
    record: dict[str, Any] = dict(state["record"])
    record["actions"] = list(record.get("actions") or [])
    trajectory: list[Any] = list(state.get("trajectory") or [])
    final: dict[str, Any] = {**state, "record": record, "trajectory": trajectory}
    limit = int(config.get("recursion_limit") or 25)
    runtime: Runtime[EpisodeContext] = Runtime(context=context)
    with node_scope(config, runtime), unwatched_calls(config):
        route = await route_next(cast(EpisodeState, final), runtime)
        for _ in range(limit):
            if route == "__end__":
                return cast(EpisodeState, final)
            node = step_node if route == "step" else finish_node
            update: Mapping[str, Any] = await node(cast(EpisodeState, final), runtime)
            for key, value in update.items():
                if key == "record":  # a step's moves, as the record's channel folds them
                    record["actions"] += value["actions"]
                elif key == "trajectory":
                    trajectory += value
                else:
                    final[key] = value
            if route == "finish":
                return cast(EpisodeState, final)
            route = await route_next(cast(EpisodeState, final), runtime)
    raise GraphRecursionError(
        f"Recursion limit of {limit} reached without the episode ending: raise the "
        "config's recursion_limit (run_episode's default is 10**6)"
    )
