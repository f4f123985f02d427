"""Errors raised by the memory layer: the Chroma store, embeddings and truth curation."""

from __future__ import annotations

__all__ = [
    "EmbeddingDimensionError",
    "EmbeddingModelError",
    "InvalidValueError",
    "MemoryExtraError",
    "MemoryLayerError",
    "RevertError",
    "StoreDamagedError",
    "StoreFullError",
    "StoreLockedError",
    "StoreOpenError",
]


class MemoryLayerError(Exception):
    """Base class of every error the memory layer raises itself."""


class MemoryExtraError(MemoryLayerError):
    """A package of the ``memory`` extra (Chroma, the embedding model) is not installed.

    The message names the missing distributions and how to install the extra.
    """


class StoreOpenError(MemoryLayerError):
    """A store location that cannot be opened as a ChromaStore.

    Raised for a corrupt directory, a directory or database that is not a Chroma store,
    a collection written by something else or by an incompatible format version. The
    message names the location, what was found and what is expected.
    """


class StoreDamagedError(StoreOpenError):
    """A ChromaStore whose files Chroma cannot use as they are.

    Raised when opening finds a vector index that disagrees with the records and cannot
    be rebuilt (no index config to re-embed with), or files Chroma cannot read; and when
    Chroma fails while reading or writing (its own error is attached as ``__cause__``).
    The message names the store, what is wrong and how to fix it.
    """


class StoreFullError(StoreOpenError):
    """The disk holding a ChromaStore is full: it cannot be written to (or opened) now.

    Nothing stored was lost: the store is not damaged. The message names the store, the
    free space and what to do (free space on that disk, then run the write again). A
    write refused before it started wrote nothing; one cut short by the full disk leaves
    each item it touches either as it was or entirely as written.
    """


class StoreLockedError(StoreOpenError):
    """The store directory is held by another process (Chroma allows one writer per path)."""


class EmbeddingDimensionError(MemoryLayerError, ValueError):
    """Vectors whose length differs from the store's declared or recorded dimension.

    Attributes:
        expected: The dimension the store expects.
        got: The dimension that was offered.
    """

    def __init__(self, message: str, *, expected: int, got: int) -> None:
        super().__init__(message)
        self.expected = expected
        self.got = got


class EmbeddingModelError(MemoryLayerError):
    """The offline embedding model or its tokenizer is missing or damaged."""


class InvalidValueError(MemoryLayerError, ValueError):
    """A value that cannot be stored: not a JSON object of JSON values.

    The message names the namespace, the key and the path inside the value.
    """


class RevertError(MemoryLayerError, ValueError):
    """A truth round that cannot be reverted (unknown round, or later rounds build on it)."""
