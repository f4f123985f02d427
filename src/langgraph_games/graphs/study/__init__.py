"""SPRING's paper study: read a document into a game context."""

from __future__ import annotations

from langgraph_games.graphs.study.documents import (
    Format,
    StudyError,
    context_blocks,
    detect_format,
    format_block,
    is_yes,
    merge_items,
    read_document,
    split_items,
    split_paragraphs,
)
from langgraph_games.graphs.study.graph import DEFAULT_STUDY_CONCURRENCY, create_study_graph
from langgraph_games.graphs.study.nodes import (
    STORE_NAMESPACE,
    Merge,
    StudyContext,
    StudyInput,
    StudyOutput,
)
from langgraph_games.graphs.study.prompts import (
    ACTIONS_QUESTION,
    GAME_QUESTIONS,
    LATEX_SUFFIX,
    RELEVANCE_QUESTIONS,
)

__all__ = [
    "ACTIONS_QUESTION",
    "DEFAULT_STUDY_CONCURRENCY",
    "GAME_QUESTIONS",
    "LATEX_SUFFIX",
    "RELEVANCE_QUESTIONS",
    "STORE_NAMESPACE",
    "Format",
    "Merge",
    "StudyContext",
    "StudyError",
    "StudyInput",
    "StudyOutput",
    "context_blocks",
    "create_study_graph",
    "detect_format",
    "format_block",
    "is_yes",
    "merge_items",
    "read_document",
    "split_items",
    "split_paragraphs",
]
