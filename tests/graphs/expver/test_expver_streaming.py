"""The Agent-ExpVer loop streams and traces every model call inside its one run.

GeoLink (the EEB agent playing each level, inside ``play``/``replay``/``evaluate``),
InsightForce (``reflect``) and TruthWeaver (``promote``) all get the node's config.
"""

from __future__ import annotations

from typing import Any

from langgraph.store.memory import InMemoryStore

from expver_support import GOOD, coach_script, level, reflection
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords
from streaming_support import (
    TraceRecorder,
    assert_one_tree,
    event_kinds,
    message_chunks,
    stream_event_nodes,
    streamed_text,
)


def _graph() -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(script=coach_script(GOOD))
    graph = create_expver_graph(
        model,
        "maze",
        train_levels=[level("train", 1, steps=4)],
        test_levels=[level("eval", 2, steps=4)],
        store=InMemoryStore(),
        options=ExpVerOptions(
            rounds=1, levels_per_round=1, episode=EpisodeOptions(max_retries=0, max_steps=4)
        ),
        embeddings=BagOfWords(),
    )
    return graph, model


async def test_insightforce_and_geolink_tokens_stream() -> None:
    graph, _ = _graph()
    chunks = await message_chunks(graph, {})
    assert streamed_text(chunks, "reflect") == reflection(GOOD)
    played = streamed_text(chunks, "model")  # the EEB agent's node, inside play/replay/evaluate
    assert played.startswith("I weigh the moves. Action: ")
    namespaces = {str(meta.get("langgraph_checkpoint_ns")) for _, meta in chunks}
    # the baseline on the test levels (begin, levels played at once), the play, the replay
    for node in ("begin", "play", "replay"):
        assert any(ns.startswith(f"{node}:") for ns in namespaces), node


async def test_every_model_run_is_in_the_loops_tree() -> None:
    graph, model = _graph()
    recorder = TraceRecorder()
    await graph.ainvoke({}, {"callbacks": [recorder]})
    assert len(model.calls) >= 3
    assert_one_tree(recorder, model_calls=len(model.calls))
    assert len(recorder.chat_runs) == len(model.calls)


async def test_loop_events_include_the_model_stream() -> None:
    graph, _ = _graph()
    kinds = await event_kinds(graph, {})
    assert {"on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"} <= kinds
    graph, _ = _graph()
    assert await stream_event_nodes(graph, {}) == {"reflect", "model"}  # InsightForce, GeoLink
