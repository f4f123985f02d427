"""The study graph's state, context and nodes: module-level async functions, written once.

:func:`~langgraph_games.graphs.study.graph.create_study_graph` builds a
:class:`StudyContext` and binds it to the nodes that need it (``functools.partial``);
each node is an ``async def`` that the graph runs under its sync API too
(:func:`~langgraph_games.graphs.common.async_node.async_node`). The cache goes through
the store's async API (``aget``/``aput``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_store
from langgraph.graph import END
from langgraph.store.base import BaseStore
from langgraph.types import Send
from typing_extensions import TypedDict

from langgraph_games.graphs.common.llm import USAGE_KEYS, add_usage, reply_text
from langgraph_games.graphs.study.documents import (
    Format,
    StudyError,
    detect_format,
    format_block,
    is_yes,
    merge_items,
    split_paragraphs,
)
from langgraph_games.graphs.study.prompts import (
    answer_messages,
    dedupe_messages,
    relevance_messages,
)
from langgraph_games.models.limiter import CallLimiter
from langgraph_games.models.usage import ainvoke_measured

__all__ = [
    "STORE_NAMESPACE",
    "AnswerTask",
    "Merge",
    "RelevanceTask",
    "StudyContext",
    "StudyInput",
    "StudyOutput",
    "StudyState",
    "after_prepare",
    "after_select",
    "answer",
    "merge",
    "prepare",
    "relevance",
    "select",
]

STORE_NAMESPACE = ("langgraph_games", "study")
"""Where results are cached in the store."""

Merge = Literal["items", "model"]

Counted = tuple[AIMessage, dict[str, float]]
"""A reply and its usage (:func:`~langgraph_games.models.usage.ainvoke_measured`)."""


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
    usage: dict[str, float]
    calls: int


class RelevanceRecord(TypedDict):
    """The relevance answers about one paragraph, and whether it is kept."""

    index: int
    answers: list[str]
    kept: bool


class FoundRecord(TypedDict):
    """One game question's answer about one kept paragraph."""

    question: int
    index: int
    answer: str


class StudyState(TypedDict, total=False):
    """The graph's working state."""

    document: str
    format: Format
    doc_format: str
    texts: list[str]
    paragraphs: int
    cache_key: str
    relevance: Annotated[list[RelevanceRecord], operator.add]
    found: Annotated[list[FoundRecord], operator.add]
    usage: Annotated[dict[str, float], add_usage]
    calls: Annotated[int, operator.add]
    kept: list[int]
    context: str
    answers: dict[str, list[str]]
    cached: bool


class RelevanceTask(TypedDict):
    """One paragraph to judge (a ``Send`` payload)."""

    index: int
    text: str


class AnswerTask(TypedDict):
    """One game question about one kept paragraph (a ``Send`` payload)."""

    index: int
    text: str
    question: int
    format: str | None


@dataclass(frozen=True)
class StudyContext:
    """What the study's nodes run with, built once per compiled graph.

    Attributes:
        model: The chat model that reads the document.
        identity: The model's label in the cache key.
        game_name: Named in the prompts and the cache key.
        role: The system message of every call.
        relevance_questions: A paragraph is kept when any is answered "yes".
        game_questions: Asked about every kept paragraph.
        merge: ``items`` or ``model``.
        store: The cache given at build time (else the store the graph runs with).
        gate: Bounds the graph's model calls at once (a child of the endpoint's limiter).
        call_attempts: Attempts per model call.
        retry_delay_s: First backoff delay.
    """

    model: BaseChatModel
    identity: str
    game_name: str
    role: str
    relevance_questions: tuple[str, ...]
    game_questions: tuple[str, ...]
    merge: Merge
    store: BaseStore | None
    gate: CallLimiter
    call_attempts: int
    retry_delay_s: float

    async def ask(self, messages: list[BaseMessage], config: RunnableConfig) -> Counted:
        """One model call through the gate, with retries and usage."""
        return await ainvoke_measured(
            self.model,
            messages,
            config,
            attempts=self.call_attempts,
            base_delay_s=self.retry_delay_s,
            limiter=self.gate,
        )

    def cache(self) -> BaseStore | None:
        """The store results are cached in: the one given, else the graph's (if any)."""
        return self.store or get_store()


def _totals(counted: Sequence[Counted]) -> StudyState:
    """Token counts and calls summed over ``(reply, usage)`` pairs."""
    usage: dict[str, float] = {}
    calls = 0
    for _, used in counted:
        usage = add_usage(usage, {key: used[key] for key in USAGE_KEYS})
        calls += int(used["calls"])
    return {"usage": usage, "calls": calls}


def _document(state: StudyState) -> str:
    """The input document as text, or a clear error."""
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
    return document


async def prepare(ctx: StudyContext, state: StudyState) -> StudyState:
    """Check the input, split it into paragraphs and look the study up in the cache."""
    document = _document(state)
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
                "model": ctx.identity,
                "relevance": ctx.relevance_questions,
                "questions": ctx.game_questions,
                "merge": ctx.merge,
                "game": ctx.game_name,
                "format": doc_format,
            },
            sort_keys=True,
        ).encode("utf-8")
    ).hexdigest()
    update: StudyState = {
        "doc_format": doc_format,
        "texts": texts,
        "paragraphs": len(texts),
        "cache_key": key,
        "cached": False,
        "usage": {},
        "calls": 0,
    }
    cache = ctx.cache()
    item = await cache.aget(STORE_NAMESPACE, key) if cache is not None else None
    if item is not None:
        value = item.value
        update.update(
            {
                "cached": True,
                "context": value["context"],
                "answers": value["answers"],
                "kept": value["kept"],
            }
        )
    return update


def after_prepare(state: StudyState) -> list[Send] | str:
    """A cached study ends here; otherwise every paragraph goes to ``relevance``."""
    if state.get("cached"):
        return END
    return [
        Send("relevance", RelevanceTask(index=i, text=text))
        for i, text in enumerate(state.get("texts") or [])
    ]


async def relevance(ctx: StudyContext, task: RelevanceTask, config: RunnableConfig) -> StudyState:
    """Ask the relevance questions about one paragraph (at once); kept on any "yes"."""
    counted = await asyncio.gather(
        *(
            ctx.ask(relevance_messages(ctx.role, task["text"], q), config)
            for q in ctx.relevance_questions
        )
    )
    answers = [reply_text(reply) for reply, _ in counted]
    return {
        "relevance": [
            {"index": task["index"], "answers": answers, "kept": any(map(is_yes, answers))}
        ],
        **_totals(counted),
    }


async def select(state: StudyState) -> StudyState:
    """The indices of the kept paragraphs, in document order."""
    return {"kept": sorted(r["index"] for r in state.get("relevance") or [] if r["kept"])}


def after_select(ctx: StudyContext, state: StudyState) -> list[Send] | str:
    """Every game question about every kept paragraph goes to ``answer`` (else ``merge``)."""
    texts = state.get("texts") or []
    fmt = state.get("doc_format")
    sends = [
        Send("answer", AnswerTask(index=i, text=texts[i], question=q, format=fmt))
        for i in state.get("kept") or []
        for q in range(len(ctx.game_questions))
    ]
    return sends or "merge"


async def answer(ctx: StudyContext, task: AnswerTask, config: RunnableConfig) -> StudyState:
    """Ask one game question about one kept paragraph."""
    question = ctx.game_questions[task["question"]]
    messages = answer_messages(ctx.role, task["text"], question, task.get("format") == "latex")
    counted = await ctx.ask(messages, config)
    return {
        "found": [
            {"question": task["question"], "index": task["index"], "answer": reply_text(counted[0])}
        ],
        **_totals([counted]),
    }


def _collected(ctx: StudyContext, state: StudyState) -> list[list[str]]:
    """Each game question's answers, in paragraph order."""
    by_question: list[list[tuple[int, str]]] = [[] for _ in ctx.game_questions]
    for item in state.get("found") or []:
        by_question[item["question"]].append((item["index"], item["answer"]))
    return [[text for _, text in sorted(pairs)] for pairs in by_question]


async def merge(ctx: StudyContext, state: StudyState, config: RunnableConfig) -> StudyState:
    """Merge each question's answers into one list, assemble C and cache the study."""
    merged = [merge_items(texts) for texts in _collected(ctx, state)]
    counted: list[Counted] = []
    if ctx.merge == "model":
        asked = [q for q, items in enumerate(merged) if items]
        counted = list(
            await asyncio.gather(
                *(
                    ctx.ask(dedupe_messages(ctx.role, ctx.game_questions[q], merged[q]), config)
                    for q in asked
                )
            )
        )
        for q, (reply, _) in zip(asked, counted, strict=True):
            items = merge_items([reply_text(reply)])
            if items:  # an empty or unusable reply keeps the item-level merge
                merged[q] = items
    answers = {q: items for q, items in zip(ctx.game_questions, merged, strict=True)}
    context = "\n\n".join(format_block(q, items) for q, items in answers.items())
    cache = ctx.cache()
    if cache is not None:
        value = {
            "context": context,
            "answers": answers,
            "kept": state.get("kept") or [],
            "paragraphs": state.get("paragraphs", 0),
            "model": ctx.identity,
            "format": state.get("doc_format"),
        }
        await cache.aput(STORE_NAMESPACE, state["cache_key"], value, index=False)
    return {"context": context, "answers": answers, **_totals(counted)}
