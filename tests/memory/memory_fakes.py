"""Seeded fake embeddings and scripted chat models shared by the memory tests."""

from __future__ import annotations

from langchain_core.embeddings import DeterministicFakeEmbedding
from langgraph.store.base import IndexConfig


def fake_index(size: int = 16, fields: list[str] | None = None) -> IndexConfig:
    config: IndexConfig = {"dims": size, "embed": DeterministicFakeEmbedding(size=size)}
    if fields is not None:
        config["fields"] = fields
    return config
