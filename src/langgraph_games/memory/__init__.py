"""Memory: a Chroma-backed LangGraph store and the curation of experiences and truths."""

from __future__ import annotations

from langgraph_games.memory.chroma_store import ChromaStore, RepairReport
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
    MemoryLayerError,
    RevertError,
    StoreDamagedError,
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
    MergedSource,
    Relation,
    Source,
    Truth,
    TruthStatus,
    candidates_from_experience,
    experiences_namespace,
    load_experiences,
    save_experience,
    truths_namespace,
)
from langgraph_games.memory.truth_weaver import RevertReport, TruthWeaver, WeaveMode, WeaveReport

__all__ = [
    "MINILM_DIMS",
    "MINILM_MODEL_ID",
    "TRUTHS_HEADING",
    "Candidate",
    "ChromaStore",
    "EmbeddingDimensionError",
    "EmbeddingModelError",
    "Experience",
    "ExperienceStatus",
    "InvalidValueError",
    "MemoryLayerError",
    "MergedSource",
    "MiniLMEmbeddings",
    "Relation",
    "RepairReport",
    "RevertError",
    "RevertReport",
    "Source",
    "StoreDamagedError",
    "StoreLockedError",
    "StoreOpenError",
    "Truth",
    "TruthSource",
    "TruthStatus",
    "TruthWeaver",
    "WeaveMode",
    "WeaveReport",
    "aload_truths",
    "candidates_from_experience",
    "default_embeddings",
    "experiences_namespace",
    "format_truths",
    "load_experiences",
    "load_truths",
    "minilm_index",
    "save_experience",
    "truths_namespace",
]
