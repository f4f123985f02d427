"""TruthWeaver's relation check, made from a graph node, streams and traces inside that run.

``ainsert_many`` runs the weaver in a worker thread with the node's config; the model's
tokens must still reach ``stream_mode="messages"`` and the run tree.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.store.memory import InMemoryStore
from typing_extensions import TypedDict

from langgraph_games.memory import Candidate, TruthWeaver, load_truths
from langgraph_games.models import ScriptedChatModel
from memory_fakes import BagOfWords
from streaming_support import TraceRecorder, assert_one_tree, message_chunks, streamed_text

WALLS = "avoid walls because each wall hit costs one life"
WALLS_SIMILAR = "stay away from walls since each wall hit costs one life"
SAME = '{"relation": "same", "reason": "both keep the agent off walls"}'


class State(TypedDict, total=False):
    same: int


def _graph() -> tuple[Any, TruthWeaver]:
    store = InMemoryStore()
    weaver = TruthWeaver(
        store, "maze", model=ScriptedChatModel(responses=[SAME]), embeddings=BagOfWords()
    )
    weaver.insert(Candidate(id="c1", text=WALLS, round=1))

    async def promote(state: State, config: RunnableConfig) -> State:
        candidate = Candidate(id="c2", text=WALLS_SIMILAR, round=2)
        report = await weaver.ainsert_many([candidate], config=config)
        return {"same": report.same_meaning}

    builder = StateGraph(State)
    builder.add_node("promote", promote)
    builder.add_edge(START, "promote")
    builder.add_edge("promote", END)
    return builder.compile(), weaver


async def test_the_relation_call_streams_from_the_node() -> None:
    graph, weaver = _graph()
    chunks = await message_chunks(graph, {})
    assert streamed_text(chunks, "promote") == SAME
    assert load_truths(weaver.store, "maze") == [WALLS]
    assert weaver.truths()[0].support == 2


async def test_the_relation_call_is_in_the_graphs_tree() -> None:
    graph, _ = _graph()
    recorder = TraceRecorder()
    final = await graph.ainvoke({}, {"callbacks": [recorder]})
    assert final["same"] == 1
    assert_one_tree(recorder)
