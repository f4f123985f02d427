"""Memory: a Chroma-backed LangGraph store and the curation of experiences and truths."""

from __future__ import annotations

from langgraph_games.memory.chroma_store import ChromaStore, RepairReport
from langgraph_games.memory.contest import Arbiter, Contest, newer_wins
from langgraph_games.memory.embeddings import (
    MINILM_DIMS,
    MINILM_MODEL_ID,
    MiniLMEmbeddings,
    default_embeddings,
    minilm_index,
)
from langgraph_games.memory.errors import (
    EmbeddingDimensionError,
    EmbeddingModelError,
    InvalidValueError,
    MemoryExtraError,
    MemoryLayerError,
    RevertError,
    StoreDamagedError,
    StoreFullError,
    StoreLockedError,
    StoreOpenError,
)
from langgraph_games.memory.hooks import (
    TRUTHS_HEADING,
    TruthSource,
    aload_truths,
    format_truths,
    load_truths,
)
from langgraph_games.memory.records import (
    Candidate,
    Experience,
    ExperienceStatus,
    Lesson,
    candidates_from_experience,
    experiences_namespace,
    load_experiences,
    save_experience,
    truths_namespace,
)
from langgraph_games.memory.relations import Meaning, Verdict, check_relation
from langgraph_games.memory.truth_book import ImportReport, TruthBook, TruthBookError
from langgraph_games.memory.truth_record import (
    Change,
    Evidence,
    MergedSource,
    Relation,
    Source,
    Truth,
    TruthFormatError,
    TruthStatus,
    TruthVersionError,
)
from langgraph_games.memory.truth_weaver import RevertReport, TruthWeaver, WeaveMode, WeaveReport

__all__ = [
    "MINILM_DIMS",
    "MINILM_MODEL_ID",
    "TRUTHS_HEADING",
    "Arbiter",
    "Candidate",
    "Change",
    "ChromaStore",
    "Contest",
    "EmbeddingDimensionError",
    "EmbeddingModelError",
    "Evidence",
    "Experience",
    "ExperienceStatus",
    "ImportReport",
    "InvalidValueError",
    "Lesson",
    "Meaning",
    "MemoryExtraError",
    "MemoryLayerError",
    "MergedSource",
    "MiniLMEmbeddings",
    "Relation",
    "RepairReport",
    "RevertError",
    "RevertReport",
    "Source",
    "StoreDamagedError",
    "StoreFullError",
    "StoreLockedError",
    "StoreOpenError",
    "Truth",
    "TruthBook",
    "TruthBookError",
    "TruthFormatError",
    "TruthSource",
    "TruthStatus",
    "TruthVersionError",
    "TruthWeaver",
    "Verdict",
    "WeaveMode",
    "WeaveReport",
    "aload_truths",
    "candidates_from_experience",
    "check_relation",
    "default_embeddings",
    "experiences_namespace",
    "format_truths",
    "load_experiences",
    "load_truths",
    "minilm_index",
    "newer_wins",
    "save_experience",
    "truths_namespace",
]
