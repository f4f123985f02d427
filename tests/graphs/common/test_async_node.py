"""One async node, run by a graph's async and sync APIs alike (no sync twin)."""

from __future__ import annotations

import contextvars
import threading

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from typing_extensions import TypedDict

from langgraph_games.graphs.common.async_node import async_node, run_blocking

WHO = contextvars.ContextVar("who", default="nobody")


class State(TypedDict, total=False):
    text: str
    seen: list[str]


async def shout(state: State, config: RunnableConfig) -> State:
    tags = ",".join(config.get("tags") or [])
    return {"text": state["text"].upper(), "seen": [WHO.get(), tags]}


def graph() -> CompiledStateGraph[State, None, State, State]:
    builder = StateGraph(State)
    builder.add_node("shout", async_node(shout, name="shout"))
    builder.add_edge(START, "shout")
    builder.add_edge("shout", END)
    return builder.compile()


def test_run_blocking_keeps_the_callers_context_variables() -> None:
    async def read() -> tuple[str, str]:
        return WHO.get(), threading.current_thread().name

    WHO.set("caller")
    who, thread = run_blocking(read)
    assert who == "caller" and thread == threading.current_thread().name


async def test_inside_a_running_loop_it_runs_on_a_thread_of_its_own() -> None:
    async def read() -> tuple[str, str]:
        return WHO.get(), threading.current_thread().name

    WHO.set("async caller")
    who, thread = run_blocking(read)
    assert who == "async caller" and thread.startswith("async-node")


async def test_the_same_node_under_ainvoke_and_invoke() -> None:
    compiled = graph()
    WHO.set("me")
    config: RunnableConfig = {"tags": ["t1"]}
    awaited = await compiled.ainvoke({"text": "hi"}, config)
    blocking = compiled.invoke({"text": "hi"}, config)
    assert awaited == blocking == {"text": "HI", "seen": ["me", "t1"]}
