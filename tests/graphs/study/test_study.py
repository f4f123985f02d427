"""The study graph: relevance filter, fan-out answers, merge, context, cache, bad input."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.memory import InMemoryStore
from typing_extensions import TypedDict

from langgraph_games.games.crafter.manual import crafter_manual
from langgraph_games.graphs.study.graph import (
    GAME_QUESTIONS,
    LATEX_SUFFIX,
    STORE_NAMESPACE,
    StudyError,
    context_blocks,
    create_study_graph,
    read_document,
    split_paragraphs,
)
from memory_fakes import AsyncOnlyStore

DOCUMENT = """\
# Crafter notes

Trees give wood. Wood is needed for a table.

The authors thank their funding agencies.

Cows wander on grass. Eating a cow restores food.
"""


def study_script(messages) -> str:
    """Relevant if the paragraph mentions wood or cows; answers depend on the paragraph."""
    prompt = messages[-1].content
    paragraph = prompt.split("Paragraph:\n", 1)[1].split("\n\nQuestion: ", 1)[0]
    question = prompt.rsplit("\n\nQuestion: ", 1)[1]
    if question.endswith("Answer yes or no."):
        if "funding" in paragraph:
            return "No."
        return "Yes, it does." if "wood" in paragraph.lower() else "yes"
    if question.startswith(GAME_QUESTIONS[0]):
        if "wood" in paragraph:
            return "1. Collect wood from trees.\n2. Stay alive."
        return "1. Eat cows for food.\n2. stay alive!"
    if question.startswith(GAME_QUESTIONS[3]):
        return "1. Do: interact" if "wood" in paragraph else "garbage \u2603 text"
    return ""


EXPECTED_CONTEXT = f"""\
Question: {GAME_QUESTIONS[0]}
Answer:
1. Collect wood from trees.
2. Stay alive.
3. Eat cows for food.

Question: {GAME_QUESTIONS[1]}
Answer:
(nothing found)

Question: {GAME_QUESTIONS[2]}
Answer:
(nothing found)

Question: {GAME_QUESTIONS[3]}
Answer:
1. Do: interact
2. garbage \u2603 text"""


def test_study_builds_the_expected_context_and_caches_it(scripted) -> None:
    model = scripted(script=study_script)
    store = InMemoryStore()
    graph = create_study_graph(model, game_name="Crafter", store=store)
    out = asyncio.run(graph.ainvoke({"document": DOCUMENT}))
    assert out["paragraphs"] == 3 and out["kept"] == [0, 2]
    assert out["context"] == EXPECTED_CONTEXT
    assert out["answers"][GAME_QUESTIONS[1]] == []
    assert out["cached"] is False
    # 3 paragraphs x 2 relevance questions, then 2 kept x 4 game questions.
    assert out["calls"] == 14 and len(model.calls) == 14
    assert out["usage"]["total_tokens"] == 14 * 12
    assert model.calls[0][0].content == (
        "You are reading a document about Crafter to learn how to play it well."
    )
    item = store.get(STORE_NAMESPACE, out["cache_key"])
    assert item is not None and item.value["context"] == EXPECTED_CONTEXT
    again = graph.invoke({"document": DOCUMENT})  # sync path, same store: no model call
    assert again["cached"] is True and again["context"] == EXPECTED_CONTEXT
    assert len(model.calls) == 14 and again["calls"] == 0
    other = create_study_graph(model, game_name="Crafter", store=store, model_id="other:model")
    assert other.invoke({"document": DOCUMENT})["cached"] is False


def test_the_store_can_come_from_compile_time_of_a_parent(scripted) -> None:
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    class Outer(TypedDict, total=False):
        document: str
        context: str

    study = create_study_graph(scripted(script=study_script))
    outer = StateGraph(Outer)
    outer.add_node("study", study)
    outer.add_edge(START, "study")
    outer.add_edge("study", END)
    store = InMemoryStore()
    result = outer.compile(store=store).invoke({"document": DOCUMENT})
    assert result["context"] == EXPECTED_CONTEXT
    assert len(store.search(STORE_NAMESPACE)) == 1


def test_merge_by_model_uses_the_reply_or_keeps_the_items(scripted) -> None:
    def script(messages) -> str:
        prompt = messages[-1].content
        if prompt.endswith("Remove duplicate items."):
            return "" if "objectives" in prompt else "1. One merged item"
        return study_script(messages)

    model = scripted(script=script)
    out = create_study_graph(model, merge="model").invoke({"document": DOCUMENT})
    blocks = context_blocks(out["context"])
    assert blocks[GAME_QUESTIONS[0]] == "1. One merged item"
    assert blocks[GAME_QUESTIONS[1]] == "(nothing found)"  # nothing to merge: no call
    assert out["calls"] == 14 + 2


def test_a_weak_model_keeps_nothing_and_still_gives_a_context(scripted) -> None:
    model = scripted(default="\u2603 the the the")
    out = create_study_graph(model).invoke({"document": crafter_manual()})
    assert out["kept"] == [] and out["paragraphs"] == len(split_paragraphs(crafter_manual()))
    assert out["context"].count("(nothing found)") == 4


def test_latex_documents(scripted) -> None:
    latex = r"""\documentclass{article}
\usepackage{x}
\begin{document}
\section{Crafter}
Collect wood % a comment that goes away
from trees.

\end{document}
ignored after the end
"""
    assert split_paragraphs(latex) == ["\\section{Crafter}\nCollect wood\nfrom trees."]
    model = scripted(default="yes")
    create_study_graph(model, relevance_questions=["Useful?"]).invoke({"document": latex})
    asked = [m[-1].content for m in model.calls[1:]]
    assert all(q.endswith(LATEX_SUFFIX) for q in asked) and len(asked) == 4


def test_paragraph_splitting_markdown_fences() -> None:
    text = "# Title\n\nPara one.\n\n```\ncode\n\nmore code\n```\n\n## Empty heading\n"
    assert split_paragraphs(text) == ["# Title\nPara one.", "```\ncode\n\nmore code\n```"]


def test_bad_documents(scripted, tmp_path) -> None:
    graph = create_study_graph(scripted(default="yes"))
    with pytest.raises(StudyError, match="empty"):
        graph.invoke({"document": "   \n\n "})
    with pytest.raises(StudyError, match="no paragraph with words"):
        graph.invoke({"document": "12 34\n\n%% --"})
    with pytest.raises(StudyError, match="needs 'document' as text, got NoneType"):
        graph.invoke({})
    with pytest.raises(StudyError, match="not UTF-8"):
        graph.invoke({"document": b"\xff\xfe\x00junk"})
    with pytest.raises(StudyError, match="format must be"):
        graph.invoke({"document": "Some words.", "format": "pdf"})
    with pytest.raises(StudyError, match="no such file"):
        read_document(tmp_path / "missing.tex")
    with pytest.raises(StudyError, match="not a file"):
        read_document(tmp_path)
    binary = tmp_path / "paper.pdf"
    binary.write_bytes(b"%PDF-1.4\n\xe2\x28\xa1")
    with pytest.raises(StudyError, match="not UTF-8 text"):
        read_document(binary)
    text = tmp_path / "notes.md"
    text.write_text("Trees give wood.", encoding="utf-8")
    assert read_document(text) == "Trees give wood."
    with pytest.raises(StudyError, match="at least one relevance"):
        create_study_graph(scripted(), game_questions=[])


def test_the_graph_shape_is_the_golden_drawing() -> None:
    golden = Path(__file__).parents[1] / "golden" / "study.mmd"
    drawing = create_study_graph(FakeListChatModel(responses=["x"])).get_graph().draw_mermaid()
    assert drawing == golden.read_text(encoding="utf-8")


def test_sync_and_async_runs_use_only_the_async_store_api(scripted) -> None:
    store = AsyncOnlyStore()
    model = scripted(script=study_script)
    graph = create_study_graph(model, game_name="Crafter", store=store)
    out = graph.invoke({"document": DOCUMENT})  # a sync run of the async nodes
    assert out["context"] == EXPECTED_CONTEXT and out["cached"] is False
    again = asyncio.run(graph.ainvoke({"document": DOCUMENT}))
    assert again["cached"] is True and again["context"] == EXPECTED_CONTEXT
    assert len(model.calls) == 14


async def test_a_sync_call_from_async_code_runs_the_same_nodes(scripted) -> None:
    # invoke() inside a running event loop: nodes that LangGraph runs in this thread get
    # a loop of their own in another thread.
    class Outer(TypedDict, total=False):
        document: str
        context: str

    model = scripted(script=study_script)
    direct = create_study_graph(model, game_name="Crafter").invoke({"document": DOCUMENT})
    assert direct["context"] == EXPECTED_CONTEXT
    outer = StateGraph(Outer)
    outer.add_node("study", create_study_graph(model, game_name="Crafter"))
    outer.add_edge(START, "study")
    outer.add_edge("study", END)
    parent = outer.compile(checkpointer=InMemorySaver())  # a sync checkpointer too
    config = {"configurable": {"thread_id": "t"}}
    assert parent.invoke({"document": DOCUMENT}, config)["context"] == EXPECTED_CONTEXT
    assert len(model.calls) == 28
