"""Checks that a graph's model calls stream and trace inside the caller's run.

Three views of one run, each used by the per-strategy streaming tests:

- :func:`message_chunks`: ``astream(stream_mode="messages")`` -> the AI message chunks
  with their metadata (the node that called the model);
- :class:`TraceRecorder` and :func:`assert_one_tree`: a callback handler given to the top
  call sees every chat-model run as a descendant of the one top graph run;
- :func:`event_kinds`: the event names of ``astream_events(version="v2")``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessageChunk, BaseMessage


class TraceRecorder(BaseCallbackHandler):
    """Records the run tree: each chain and chat-model run with its parent."""

    def __init__(self) -> None:
        self.parents: dict[UUID, UUID | None] = {}
        self.names: dict[UUID, str] = {}
        self.chat_runs: list[UUID] = []

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self.parents[run_id] = parent_run_id
        self.names[run_id] = str(kwargs.get("name") or "")

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self.parents[run_id] = parent_run_id
        self.names[run_id] = "chat model"
        self.chat_runs.append(run_id)

    def roots(self) -> list[UUID]:
        """Runs with no parent."""
        return [run for run, parent in self.parents.items() if parent is None]

    def root_of(self, run: UUID) -> UUID | None:
        """The top of ``run``'s chain of parents (None when a parent was never seen)."""
        seen = {run}
        while (parent := self.parents.get(run)) is not None:
            if parent not in self.parents or parent in seen:
                return None
            seen.add(parent)
            run = parent
        return run


def assert_one_tree(recorder: TraceRecorder, *, model_calls: int = 1) -> None:
    """One root run, and every chat-model run (at least ``model_calls``) descends from it."""
    roots = recorder.roots()
    assert len(roots) == 1, f"expected one root run, got {[recorder.names[r] for r in roots]}"
    assert len(recorder.chat_runs) >= model_calls, "the handler saw too few chat-model runs"
    for run in recorder.chat_runs:
        assert recorder.root_of(run) == roots[0], "a chat-model run outside the graph's tree"


async def message_chunks(
    graph: Any, graph_input: Any, **kwargs: Any
) -> list[tuple[AIMessageChunk, dict[str, Any]]]:
    """The AI message chunks (and their metadata) of ``stream_mode="messages"``."""
    out: list[tuple[AIMessageChunk, dict[str, Any]]] = []
    async for item in graph.astream(graph_input, stream_mode="messages", subgraphs=True, **kwargs):
        _namespace, (message, metadata) = item
        if isinstance(message, AIMessageChunk):
            out.append((message, metadata))
    return out


def streamed_text(chunks: Sequence[tuple[AIMessageChunk, dict[str, Any]]], node: str) -> str:
    """The text streamed by the model calls of ``node`` (at least two chunks each)."""
    texts = [c.text for c, meta in chunks if meta.get("langgraph_node") == node]
    assert len(texts) >= 2, f"no token stream from node {node!r}: {len(texts)} chunk(s)"
    return "".join(texts)


async def event_kinds(graph: Any, graph_input: Any, **kwargs: Any) -> set[str]:
    """The event names of ``astream_events(version="v2")``."""
    return {
        event["event"] async for event in graph.astream_events(graph_input, version="v2", **kwargs)
    }


async def stream_event_nodes(graph: Any, graph_input: Any, **kwargs: Any) -> set[str]:
    """The nodes whose model calls sent ``on_chat_model_stream`` events."""
    return {
        str(event["metadata"].get("langgraph_node"))
        async for event in graph.astream_events(graph_input, version="v2", **kwargs)
        if event["event"] == "on_chat_model_stream"
    }
