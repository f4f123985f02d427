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
    StoreLockedError,
    StoreOpenError,
)

__all__ = [
    "MINILM_DIMS",
    "MINILM_MODEL_ID",
    "ChromaStore",
    "EmbeddingDimensionError",
    "EmbeddingModelError",
    "InvalidValueError",
    "MemoryLayerError",
    "MiniLMEmbeddings",
    "RepairReport",
    "RevertError",
    "StoreLockedError",
    "StoreOpenError",
    "default_embeddings",
    "minilm_index",
]
