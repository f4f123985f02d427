"""Game contexts for SPRING-style players: study a document once, cache it, reuse it.

:func:`study_document` runs the study graph (:func:`~langgraph_games.graphs.study.graph.
create_study_graph`) on a document with a chat model and caches the result in a SQLite
LangGraph store (``AsyncSqliteStore``), keyed by the document's hash, the model and the study
settings: studying the same document with the same model again makes no model call, in
this process or a later one. :func:`read_context` reads a context written to a file (by
``langgraph-games study --output FILE`` or by hand).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import LLMResult
from langchain_core.runnables import RunnableConfig

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.study.documents import Format, StudyError, read_document
from langgraph_games.graphs.study.graph import (
    DEFAULT_STUDY_CONCURRENCY,
    create_study_graph,
    study_calls,
)
from langgraph_games.graphs.study.nodes import Merge

__all__ = ["DEFAULT_CACHE", "Studied", "game_document", "read_context", "study_document"]

DEFAULT_CACHE = Path("runs") / "study.sqlite"
"""Where ``langgraph-games study`` and ``eval --study`` cache studied contexts."""


@dataclass
class Studied:
    """A studied document: the context and what producing it cost.

    Attributes:
        context: The context C (question and answer blocks).
        paragraphs: Paragraphs in the document.
        kept: Indices of the paragraphs judged relevant.
        calls: Model calls made now (0 when the cache answered).
        usage: Token counts of those calls.
        cached: Whether the cache answered.
        cache_key: The key in the store.
        answers: Question -> merged items.
    """

    context: str
    paragraphs: int
    kept: list[int]
    calls: int
    usage: dict[str, int]
    cached: bool
    cache_key: str
    answers: dict[str, list[str]] = field(default_factory=dict)

    def summary(self) -> str:
        """One line for people: paragraphs kept, calls, tokens, cache."""
        tokens = self.usage.get("input_tokens", 0) + self.usage.get("output_tokens", 0)
        source = "from the cache" if self.cached else f"{self.calls} model calls, {tokens} tokens"
        return (
            f"{len(self.kept)} of {self.paragraphs} paragraphs relevant; context of "
            f"{len(self.context)} characters ({source}; key {self.cache_key[:12]})"
        )


class _CallProgress(BaseCallbackHandler):
    """Counts finished model calls on a progress bar."""

    run_inline = True

    def __init__(self, bar: Any) -> None:
        self.bar = bar

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """One more call done."""
        self.bar.update(1)


def game_document(game: Game[GameState]) -> str:
    """The game's own manual (the document SPRING studies by default here).

    Raises:
        StudyError: The game has no manual.
    """
    manual = getattr(game, "manual", None)
    if not callable(manual):
        raise StudyError(f"{game.id} has no manual; pass a document to study")
    return str(manual())


async def study_document(
    model: BaseChatModel,
    document: str | Path,
    *,
    game_name: str = "the game",
    cache: str | Path | None = DEFAULT_CACHE,
    merge: Merge = "items",
    format: Format = "auto",
    concurrency: int | None = DEFAULT_STUDY_CONCURRENCY,
    progress: bool = False,
    max_calls: int | None = None,
) -> Studied:
    """Study a document (text, or a path to read) into a context, through the cache.

    Args:
        model: The chat model that reads the document.
        document: The document's text, or a :class:`~pathlib.Path` to read.
        game_name: Named in the study prompts.
        cache: SQLite file of the store (created if missing); ``None``: no cache.
        merge: ``items`` (deterministic de-duplication) or ``model`` (the paper's call).
        format: ``auto``, ``latex``, ``markdown`` or ``text``.
        concurrency: At most this many model calls at once (``None``: no bound of the
            study's own; a bound set on the model's endpoint still applies).
        progress: Count model calls on a progress bar (stderr), out of the most the study
            can make.
        max_calls: Refuse, before any call, a study that could make more model calls
            than this (:func:`~langgraph_games.graphs.study.graph.study_calls`).

    Raises:
        StudyError: The document cannot be read, is empty or has no paragraph,
            ``concurrency`` is not >= 1, or the study could make more than ``max_calls``.
    """
    text = read_document(document) if isinstance(document, Path) else document
    planned = study_calls(text, format, merge)
    if max_calls is not None and planned.most > max_calls:
        raise StudyError(
            f"this study could make up to {planned.most} model calls ({planned.describe()}), "
            f"more than the cap of {max_calls}: raise the cap or study a shorter document"
        )
    callbacks: list[BaseCallbackHandler] = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="study", unit="call", total=planned.most, file=sys.stderr)
        callbacks.append(_CallProgress(bar))
    graph_input = {"document": text, "format": format}
    config: RunnableConfig = {"callbacks": callbacks}
    try:
        if cache is None:
            graph = create_study_graph(
                model, game_name=game_name, merge=merge, concurrency=concurrency
            )
            out = await graph.ainvoke(graph_input, config)
        else:
            from langgraph.store.sqlite.aio import AsyncSqliteStore

            path = Path(cache)
            path.parent.mkdir(parents=True, exist_ok=True)
            async with AsyncSqliteStore.from_conn_string(str(path)) as store:
                await store.setup()
                graph = create_study_graph(
                    model, game_name=game_name, merge=merge, store=store, concurrency=concurrency
                )
                out = await graph.ainvoke(graph_input, config)
    finally:
        if bar is not None:
            bar.close()
    return Studied(
        context=out["context"],
        paragraphs=int(out.get("paragraphs", 0)),
        kept=list(out.get("kept") or []),
        calls=int(out.get("calls", 0)),
        usage=dict(out.get("usage") or {}),
        cached=bool(out.get("cached")),
        cache_key=str(out.get("cache_key", "")),
        answers=dict(out.get("answers") or {}),
    )


def read_context(path: str | Path) -> str:
    """Read a context file (UTF-8 text, not empty).

    Raises:
        StudyError: The file cannot be read, is not UTF-8 or holds only whitespace.
    """
    text = read_document(path)
    if not text.strip():
        raise StudyError(f"context file {str(path)!r} is empty")
    return text.strip()
