"""SmartPlay, SPRING's question DAG and study stream their model's tokens in one trace tree.

Each calls the model from several nodes (SmartPlay: ``think`` then ``choose``; SPRING:
one node per question of the DAG; study: relevance, answer and merge, fanned out with
``Send``). Every call carries its node's config.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.store.memory import InMemoryStore

from langgraph_games.games import GameSession
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.smartplay.graph import create_smartplay_agent
from langgraph_games.graphs.spring.graph import create_spring_agent
from langgraph_games.graphs.study.graph import create_study_graph
from langgraph_games.graphs.study.prompts import GAME_QUESTIONS
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for
from streaming_support import (
    TraceRecorder,
    assert_one_tree,
    event_kinds,
    message_chunks,
    streamed_text,
)

DOCUMENT = "# Notes\n\nTrees give wood. Wood makes a table.\n\nCows wander on grass.\n"


def _study_script(messages: Sequence[BaseMessage]) -> str:
    question = str(messages[-1].content).rsplit("\n\nQuestion: ", 1)[1]
    if question.endswith("Answer yes or no."):
        return "Yes, it does."
    if question.startswith(GAME_QUESTIONS[0]):
        return "1. Collect wood from trees.\n2. Stay alive."
    return "1. Nothing to add here."


def _smartplay() -> tuple[Any, Any, int]:
    model = ScriptedChatModel(responses=["Paper beats rock, I think.", "Paper, my final answer."])
    session = GameSession("rock_paper_scissors", seed=1)
    return create_smartplay_agent(model), request_to_input(request_for(session)), 2


def _spring() -> tuple[Any, Any, int]:
    model = ScriptedChatModel(script=lambda messages: "Move Right, as the rules say.")
    agent = create_spring_agent(model, ["Left", "Right"], "The goal is on the right.")
    return agent, {"observation": "You stand left of the goal."}, 2


def _study() -> tuple[Any, Any, int]:
    model = ScriptedChatModel(script=_study_script)
    graph = create_study_graph(model, game_name="Crafter", store=InMemoryStore())
    return graph, {"document": DOCUMENT}, 4


async def test_smartplay_streams_think_and_choose() -> None:
    graph, graph_input, _ = _smartplay()
    chunks = await message_chunks(graph, graph_input)
    assert streamed_text(chunks, "think") == "Paper beats rock, I think."
    assert streamed_text(chunks, "choose") == "Paper, my final answer."
    final = await graph.ainvoke(graph_input)
    assert final["decision"].action == "Paper"


async def test_spring_streams_every_question_node() -> None:
    graph, graph_input, _ = _spring()
    chunks = await message_chunks(graph, graph_input)
    nodes = {meta["langgraph_node"] for _, meta in chunks}
    assert "qa" in nodes and len(nodes) >= 2, nodes  # the DAG's questions, each its own node
    for node in nodes:
        assert "Move Right" in streamed_text(chunks, node)


async def test_study_streams_relevance_and_answers() -> None:
    graph, graph_input, _ = _study()
    chunks = await message_chunks(graph, graph_input)
    assert streamed_text(chunks, "relevance").startswith("Yes, it does.")
    assert "Collect wood from trees." in streamed_text(chunks, "answer")


async def test_one_trace_tree_for_each_multi_call_strategy() -> None:
    for build in (_smartplay, _spring, _study):
        graph, graph_input, calls = build()
        recorder = TraceRecorder()
        await graph.ainvoke(graph_input, {"callbacks": [recorder]})
        assert_one_tree(recorder, model_calls=calls)


async def test_stream_events_include_the_model_stream() -> None:
    for build in (_smartplay, _spring, _study):
        graph, graph_input, _ = build()
        kinds = await event_kinds(graph, graph_input)
        assert {"on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"} <= kinds
