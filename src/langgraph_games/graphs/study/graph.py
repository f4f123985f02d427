"""SPRING's paper-study module: read a document into a game context C.

SPRING (Wu et al., 2023, Section 2.1) reads the LaTeX source of the Crafter paper:

1. **Relevance.** The document is split into paragraphs; a paragraph is kept if the model
   answers "Yes" to either relevance question.
2. **Per-paragraph answers.** Each game question is asked about each kept paragraph
   (a fan-out with ``Send``: every paragraph x question pair is one call).
3. **Merge.** The answers to each question are merged into one list without duplicates.
   By default this is done without the model: answers are split into items (numbered or
   bulleted lines) and an item is dropped when its normalised text was already seen.
   ``merge="model"`` asks the model to "Remove duplicate items." as the paper did.
4. **Assemble.** C joins one ``Question: q`` / ``Answer:`` block per game question.

The fan-outs are bounded: at most ``concurrency`` model calls of the graph run at once
(default :data:`DEFAULT_STUDY_CONCURRENCY`), through a child of the endpoint's
:class:`~langgraph_games.models.limiter.CallLimiter`, so a bound set on the endpoint for
the whole process applies too, and a retried attempt waits for a slot like a first one.

The result is cached in the LangGraph store the graph runs with (``compile(store=...)``,
or the parent graph's), keyed by the document's SHA-256, the model's identity and the
settings, so studying the same document again costs no model call.

Shape: the nodes are module-level ``async def`` functions
(:mod:`~langgraph_games.graphs.study.nodes`) over a :class:`~langgraph_games.graphs.study.
nodes.StudyContext` built here and bound to them; this module only wires them. Each node
is written once: ``ainvoke``/``astream`` await it on the caller's loop, and the sync API
(``invoke``, ``stream``, a sync parent graph) runs the same coroutine to completion on a
private event loop in the node's worker thread (``asyncio.run``; a thread of its own when
the calling thread already runs a loop), see
:func:`~langgraph_games.graphs.common.async_node.async_node`. Prefer ``ainvoke`` in async
code: a sync call blocks its thread until the study is done.

Input: ``document`` (text) and optionally ``format`` (``auto``, ``latex``, ``markdown`` or
``text``). Output: ``context``, ``answers`` (question -> items), ``paragraphs`` (how many),
``kept`` (indices of relevant paragraphs), ``cached``, ``cache_key``, ``usage`` and
``calls``. :func:`read_document` reads a file with clear errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from langgraph_games.graphs.common.async_node import async_node
from langgraph_games.graphs.common.llm import model_identity
from langgraph_games.graphs.study import nodes
from langgraph_games.graphs.study.documents import (  # re-exported: the study graph's helpers
    Format,
    StudyError,
    context_blocks,
    detect_format,
    read_document,
    split_paragraphs,
)
from langgraph_games.graphs.study.nodes import (
    STORE_NAMESPACE,
    Merge,
    StudyContext,
    StudyInput,
    StudyOutput,
    StudyState,
)
from langgraph_games.graphs.study.prompts import (
    ACTIONS_QUESTION,
    GAME_QUESTIONS,
    LATEX_SUFFIX,
    RELEVANCE_QUESTIONS,
    role,
)
from langgraph_games.models.limiter import limiter_for

__all__ = [
    "ACTIONS_QUESTION",
    "DEFAULT_STUDY_CONCURRENCY",
    "GAME_QUESTIONS",
    "LATEX_SUFFIX",
    "RELEVANCE_QUESTIONS",
    "STORE_NAMESPACE",
    "Merge",
    "StudyCalls",
    "StudyError",
    "StudyInput",
    "StudyOutput",
    "context_blocks",
    "create_study_graph",
    "read_document",
    "split_paragraphs",
    "study_calls",
]


@dataclass(frozen=True)
class StudyCalls:
    """The model calls a study of a document makes, known before it starts.

    Attributes:
        paragraphs: Paragraphs of the document.
        relevance: Relevance calls (every question about every paragraph).
        answers: Most answer calls (every game question about every paragraph, if all
            are relevant).
        merges: Most merge calls (``merge="model"``: one per game question).
    """

    paragraphs: int
    relevance: int
    answers: int
    merges: int

    @property
    def most(self) -> int:
        """The most calls the study can make."""
        return self.relevance + self.answers + self.merges

    def describe(self) -> str:
        """One line for people."""
        merges = f" and up to {self.merges} merge calls" if self.merges else ""
        return (
            f"{self.paragraphs} paragraphs: {self.relevance} relevance calls, then up to "
            f"{self.answers} answer calls{merges}: at most {self.most} model calls "
            "(none if this study is cached)"
        )


def study_calls(document: str, format: Format = "auto", merge: Merge = "items") -> StudyCalls:
    """The calls studying ``document`` makes with SPRING's questions (see :class:`StudyCalls`).

    Raises:
        StudyError: The document has no paragraph with words in it.
    """
    texts = split_paragraphs(document, detect_format(document) if format == "auto" else format)
    if not texts:
        raise StudyError("the document has no paragraph with words in it")
    return StudyCalls(
        paragraphs=len(texts),
        relevance=len(texts) * len(RELEVANCE_QUESTIONS),
        answers=len(texts) * len(GAME_QUESTIONS),
        merges=len(GAME_QUESTIONS) if merge == "model" else 0,
    )


DEFAULT_STUDY_CONCURRENCY = 8
"""Model calls a study makes at once by default: enough to keep an endpoint busy, few
enough that a rate-limited one is not flooded (a 30-paragraph document would otherwise
send 60 relevance calls at once)."""


def create_study_graph(
    model: BaseChatModel,
    *,
    game_name: str = "the game",
    relevance_questions: Sequence[str] = RELEVANCE_QUESTIONS,
    game_questions: Sequence[str] = GAME_QUESTIONS,
    merge: Merge = "items",
    model_id: str | None = None,
    store: BaseStore | None = None,
    concurrency: int | None = DEFAULT_STUDY_CONCURRENCY,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    name: str = "study",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile SPRING's paper-study graph.

    Args:
        model: Any LangChain chat model.
        game_name: Named in the prompts.
        relevance_questions: A paragraph is kept when any of these is answered "yes"
            (the first word of the answer, case-insensitive).
        game_questions: Asked about every kept paragraph; one context block each.
        merge: ``items`` (drop repeated items without the model) or ``model`` (the
            paper's "Remove duplicate items." call per question).
        model_id: The model's label in the cache key (default: provider and model name).
        store: A store to cache results in; without one the graph uses the store it runs
            with, if any.
        concurrency: At most this many model calls of the graph at once (all its runs
            together); ``None`` for no bound of its own (the endpoint's still applies).
        call_attempts: Attempts per model call on transient failures, with backoff
            (:func:`~langgraph_games.models.retry.ainvoke_with_retry`).
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        name: The compiled graph's name.

    Returns:
        A compiled graph taking :class:`StudyInput` and returning :class:`StudyOutput`
        (``ainvoke`` in async code; ``invoke`` works too, see the module's notes).

    Raises:
        StudyError: No questions were given, or ``concurrency`` is not >= 1. At run
            time: the document is not text, is empty or has no paragraph with words.
    """
    relevance_qs = tuple(relevance_questions)
    game_qs = tuple(game_questions)
    if not relevance_qs or not game_qs:
        raise StudyError("the study graph needs at least one relevance and one game question")
    if merge not in ("items", "model"):
        raise StudyError(f"merge must be 'items' or 'model', got {merge!r}")
    if concurrency is not None and (
        isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1
    ):
        raise StudyError(f"concurrency must be a whole number >= 1 or None, got {concurrency!r}")
    identity = model_id or model_identity(model)
    ctx = StudyContext(
        model=model,
        identity=identity,
        game_name=game_name,
        role=role(game_name),
        relevance_questions=relevance_qs,
        game_questions=game_qs,
        merge=merge,
        store=store,
        gate=limiter_for(model).child(concurrency, name=f"study:{identity}"),
        call_attempts=call_attempts,
        retry_delay_s=retry_delay_s,
    )
    builder = StateGraph(StudyState, input_schema=StudyInput, output_schema=StudyOutput)
    # Send targets (relevance, answer) receive their Send payload, not the graph state.
    builder.add_node("prepare", async_node(partial(nodes.prepare, ctx), name="prepare"))
    builder.add_node("relevance", async_node(partial(nodes.relevance, ctx), name="relevance"))
    builder.add_node("select", async_node(nodes.select, name="select"))
    builder.add_node("answer", async_node(partial(nodes.answer, ctx), name="answer"))
    builder.add_node("merge", async_node(partial(nodes.merge, ctx), name="merge"))
    builder.add_edge(START, "prepare")
    builder.add_conditional_edges("prepare", nodes.after_prepare, ["relevance", END])
    builder.add_edge("relevance", "select")
    builder.add_conditional_edges("select", partial(nodes.after_select, ctx), ["answer", "merge"])
    builder.add_edge("answer", "merge")
    builder.add_edge("merge", END)
    return builder.compile(store=store, name=name)
