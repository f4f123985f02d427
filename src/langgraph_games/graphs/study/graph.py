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

Input: ``document`` (text) and optionally ``format`` (``auto``, ``latex``, ``markdown`` or
``text``). Output: ``context``, ``answers`` (question -> items), ``paragraphs`` (how many),
``kept`` (indices of relevant paragraphs), ``cached``, ``cache_key``, ``usage`` and
``calls``. :func:`read_document` reads a file with clear errors.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import operator
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Send

from langgraph_games.graphs.common.llm import (
    USAGE_KEYS,
    add_usage,
    model_identity,
    reply_text,
)
from langgraph_games.graphs.study.documents import (  # re-exported: the study graph's helpers
    Format,
    StudyError,
    context_blocks,
    detect_format,
    format_block,
    is_yes,
    merge_items,
    read_document,
    split_paragraphs,
)
from langgraph_games.models.limiter import limiter_for
from langgraph_games.models.usage import ainvoke_measured, invoke_measured

__all__ = [
    "ACTIONS_QUESTION",
    "DEFAULT_STUDY_CONCURRENCY",
    "GAME_QUESTIONS",
    "LATEX_SUFFIX",
    "RELEVANCE_QUESTIONS",
    "STORE_NAMESPACE",
    "StudyError",
    "StudyInput",
    "StudyOutput",
    "context_blocks",
    "create_study_graph",
    "read_document",
    "split_paragraphs",
]

RELEVANCE_QUESTIONS: tuple[str, ...] = (
    "Would this paragraph help me succeed in this game?",
    "Does this paragraph contain information on the game mechanics, or game strategies?",
)
"""SPRING's two relevance questions (Q_rel)."""

GAME_QUESTIONS: tuple[str, ...] = (
    "Write all information helpful for the game in a numbered list.",
    "In plain text. List all objects I need to interact/avoid to survive in the game. Use "
    '"I would like to X object Y" in each step. Replace Y by the actual object, X by the '
    "actual interaction.",
    "Write all game objectives numbered list. For each objective, list its requirements.",
    "Write all actions as a numbered list. For each action, list its requirements.",
)
"""SPRING's four game questions (Q_game)."""

ACTIONS_QUESTION = GAME_QUESTIONS[3]
"""The game question about actions: its answer alone is the context of SPRING's "action
descriptions" ablation."""

LATEX_SUFFIX = "DO NOT answer in LaTeX."
"""Appended to the game questions when the document is LaTeX, as in the paper."""

DEFAULT_STUDY_CONCURRENCY = 8
"""Model calls a study makes at once by default: enough to keep an endpoint busy, few
enough that a rate-limited one is not flooded (a 30-paragraph document would otherwise
send 60 relevance calls at once)."""

STORE_NAMESPACE = ("langgraph_games", "study")
"""Where results are cached in the store."""

Merge = Literal["items", "model"]


# ----- the graph ------------------------------------------------------------------------


class StudyInput(TypedDict, total=False):
    """What a caller passes: the document text and, optionally, its format."""

    document: str
    format: Format


class StudyOutput(TypedDict, total=False):
    """What a study returns."""

    context: str
    answers: dict[str, list[str]]
    paragraphs: int
    kept: list[int]
    cached: bool
    cache_key: str
    usage: dict[str, int]
    calls: int


class StudyState(TypedDict, total=False):
    """The graph's working state."""

    document: str
    format: Format
    doc_format: str
    texts: list[str]
    paragraphs: int
    cache_key: str
    relevance: Annotated[list[dict[str, Any]], operator.add]
    found: Annotated[list[dict[str, Any]], operator.add]
    usage: Annotated[dict[str, int], add_usage]
    calls: Annotated[int, operator.add]
    kept: list[int]
    context: str
    answers: dict[str, list[str]]
    cached: bool


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
        A compiled graph taking :class:`StudyInput` and returning :class:`StudyOutput`.

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
    role = f"You are reading a document about {game_name} to learn how to play it well."
    gate = limiter_for(model).child(concurrency, name=f"study:{identity}")

    async def ask(messages: list[BaseMessage], config: RunnableConfig) -> tuple[Any, Any]:
        return await ainvoke_measured(
            model,
            messages,
            config,
            attempts=call_attempts,
            base_delay_s=retry_delay_s,
            limiter=gate,
        )

    def ask_sync(messages: list[BaseMessage], config: RunnableConfig) -> tuple[Any, Any]:
        return invoke_measured(
            model,
            messages,
            config,
            attempts=call_attempts,
            base_delay_s=retry_delay_s,
            limiter=gate,
        )

    def totals(counted: Sequence[Any]) -> dict[str, Any]:
        """Token counts and calls summed over ``(reply, usage)`` pairs."""
        usage: dict[str, int] = {}
        calls = 0
        for _, used in counted:
            usage = add_usage(usage, {key: used[key] for key in USAGE_KEYS})
            calls += int(used["calls"])
        return {"usage": usage, "calls": calls}

    def prepare_update(state: StudyState) -> dict[str, Any]:
        document: Any = state.get("document")
        if isinstance(document, bytes):
            try:
                document = document.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise StudyError(f"the document is not UTF-8 text (byte {exc.start})") from exc
        if not isinstance(document, str):
            raise StudyError(
                f"the input needs 'document' as text, got {type(document).__name__}; "
                "use read_document(path) for files"
            )
        if not document.strip():
            raise StudyError("the document is empty")
        fmt = state.get("format") or "auto"
        if fmt not in ("auto", "latex", "markdown", "text"):
            raise StudyError(f"format must be auto, latex, markdown or text, got {fmt!r}")
        doc_format = detect_format(document) if fmt == "auto" else fmt
        texts = split_paragraphs(document, doc_format)
        if not texts:
            raise StudyError("the document has no paragraph with words in it")
        key = hashlib.sha256(
            json.dumps(
                {
                    "document": hashlib.sha256(document.encode("utf-8")).hexdigest(),
                    "model": identity,
                    "relevance": relevance_qs,
                    "questions": game_qs,
                    "merge": merge,
                    "game": game_name,
                    "format": doc_format,
                },
                sort_keys=True,
            ).encode("utf-8")
        ).hexdigest()
        return {
            "doc_format": doc_format,
            "texts": texts,
            "paragraphs": len(texts),
            "cache_key": key,
            "cached": False,
            "usage": {},
            "calls": 0,
        }

    def hit(update: dict[str, Any], item: Any) -> dict[str, Any]:
        if item is not None:
            value = item.value
            update.update(
                cached=True, context=value["context"], answers=value["answers"], kept=value["kept"]
            )
        return update

    def prepare_sync(state: StudyState) -> dict[str, Any]:
        update = prepare_update(state)
        cache = store or get_store()
        return hit(update, cache.get(STORE_NAMESPACE, update["cache_key"]) if cache else None)

    async def prepare(state: StudyState) -> dict[str, Any]:
        update = prepare_update(state)
        cache = store or get_store()
        item = await cache.aget(STORE_NAMESPACE, update["cache_key"]) if cache else None
        return hit(update, item)

    def after_prepare(state: StudyState) -> Any:
        if state.get("cached"):
            return END
        return [
            Send("relevance", {"index": i, "text": text})
            for i, text in enumerate(state.get("texts") or [])
        ]

    def relevance_messages(text: str, question: str) -> list[BaseMessage]:
        return [
            SystemMessage(role),
            HumanMessage(f"Paragraph:\n{text}\n\nQuestion: {question} Answer yes or no."),
        ]

    def relevance_result(task: dict[str, Any], counted: Sequence[Any]) -> dict[str, Any]:
        answers = [reply_text(reply) for reply, _ in counted]
        return {
            "relevance": [
                {"index": task["index"], "answers": answers, "kept": any(map(is_yes, answers))}
            ],
            **totals(counted),
        }

    async def relevance(task: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        counted = await asyncio.gather(
            *(ask(relevance_messages(task["text"], q), config) for q in relevance_qs)
        )
        return relevance_result(task, counted)

    def relevance_sync(task: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        counted = [ask_sync(relevance_messages(task["text"], q), config) for q in relevance_qs]
        return relevance_result(task, counted)

    def select(state: StudyState) -> dict[str, Any]:
        kept = sorted(r["index"] for r in state.get("relevance") or [] if r["kept"])
        return {"kept": kept}

    def after_select(state: StudyState) -> Any:
        texts = state.get("texts") or []
        fmt = state.get("doc_format")
        sends = [
            Send("answer", {"index": i, "text": texts[i], "question": q, "format": fmt})
            for i in state.get("kept") or []
            for q in range(len(game_qs))
        ]
        return sends or "merge"

    def answer_messages(task: dict[str, Any]) -> list[BaseMessage]:
        question = game_qs[task["question"]]
        if task.get("format") == "latex":
            question = f"{question} {LATEX_SUFFIX}"
        return [
            SystemMessage(role),
            HumanMessage(f"Paragraph:\n{task['text']}\n\nQuestion: {question}"),
        ]

    def answer_result(task: dict[str, Any], counted: tuple[Any, Any]) -> dict[str, Any]:
        return {
            "found": [
                {
                    "question": task["question"],
                    "index": task["index"],
                    "answer": reply_text(counted[0]),
                }
            ],
            **totals([counted]),
        }

    async def answer(task: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return answer_result(task, await ask(answer_messages(task), config))

    def answer_sync(task: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return answer_result(task, ask_sync(answer_messages(task), config))

    def collected(state: StudyState) -> list[list[str]]:
        by_question: list[list[tuple[int, str]]] = [[] for _ in game_qs]
        for item in state.get("found") or []:
            by_question[item["question"]].append((item["index"], item["answer"]))
        return [[text for _, text in sorted(pairs)] for pairs in by_question]

    def dedupe_messages(question: str, items: Sequence[str]) -> list[BaseMessage]:
        listed = "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
        return [
            SystemMessage(role),
            HumanMessage(f"Question: {question}\n{listed}\n\nRemove duplicate items."),
        ]

    def finish(
        state: StudyState, merged: list[list[str]], counted: Sequence[Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The state update and the value to cache."""
        answers = {q: items for q, items in zip(game_qs, merged, strict=True)}
        context = "\n\n".join(format_block(q, items) for q, items in answers.items())
        value = {
            "context": context,
            "answers": answers,
            "kept": state.get("kept") or [],
            "paragraphs": state.get("paragraphs", 0),
            "model": identity,
            "format": state.get("doc_format"),
        }
        return {"context": context, "answers": answers, **totals(counted)}, value

    def model_merged(first: list[list[str]], counted: Sequence[Any], asked: list[int]) -> None:
        for q, (reply, _) in zip(asked, counted, strict=True):
            items = merge_items([reply_text(reply)])
            if items:  # an empty or unusable reply keeps the item-level merge
                first[q] = items

    async def merge_node(state: StudyState, config: RunnableConfig) -> dict[str, Any]:
        merged = [merge_items(texts) for texts in collected(state)]
        counted: list[Any] = []
        if merge == "model":
            asked = [q for q, items in enumerate(merged) if items]
            counted = list(
                await asyncio.gather(
                    *(ask(dedupe_messages(game_qs[q], merged[q]), config) for q in asked)
                )
            )
            model_merged(merged, counted, asked)
        update, value = finish(state, merged, counted)
        cache = store or get_store()
        if cache is not None:
            await cache.aput(STORE_NAMESPACE, state["cache_key"], value, index=False)
        return update

    def merge_sync(state: StudyState, config: RunnableConfig) -> dict[str, Any]:
        merged = [merge_items(texts) for texts in collected(state)]
        counted: list[Any] = []
        if merge == "model":
            asked = [q for q, items in enumerate(merged) if items]
            counted = [ask_sync(dedupe_messages(game_qs[q], merged[q]), config) for q in asked]
            model_merged(merged, counted, asked)
        update, value = finish(state, merged, counted)
        cache = store or get_store()
        if cache is not None:
            cache.put(STORE_NAMESPACE, state["cache_key"], value, index=False)
        return update

    builder = StateGraph(StudyState, input_schema=StudyInput, output_schema=StudyOutput)
    builder.add_node("prepare", RunnableLambda(prepare_sync, afunc=prepare, name="prepare"))
    # Send targets receive their Send payload, not the graph state (hence the ignores).
    builder.add_node(
        "relevance",
        RunnableLambda(relevance_sync, afunc=relevance, name="relevance"),  # type: ignore[type-var]
    )
    builder.add_node("select", select)
    builder.add_node(
        "answer",
        RunnableLambda(answer_sync, afunc=answer, name="answer"),  # type: ignore[type-var]
    )
    builder.add_node("merge", RunnableLambda(merge_sync, afunc=merge_node, name="merge"))
    builder.add_edge(START, "prepare")
    builder.add_conditional_edges("prepare", after_prepare, ["relevance", END])
    builder.add_edge("relevance", "select")
    builder.add_conditional_edges("select", after_select, ["answer", "merge"])
    builder.add_edge("answer", "merge")
    builder.add_edge("merge", END)
    return builder.compile(store=store, name=name)
