"""Rebuilding a ChromaStore's vectors from its records (``repair`` and ``reindex``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.embeddings import Embeddings
from langgraph.store.base import PutOp

from langgraph_games.memory._chroma_open import open_collection
from langgraph_games.memory._codec import decode_ns, load_value

__all__ = ["Rebuildable", "RepairReport", "rebuild"]


@dataclass
class RepairReport:
    """What :meth:`ChromaStore.repair` or :meth:`ChromaStore.reindex` did.

    Attributes:
        items: Items examined.
        reembedded: Items whose vectors were computed again.
        removed_vectors: Vectors removed because no stored item version uses them.
    """

    items: int = 0
    reembedded: int = 0
    removed_vectors: int = 0


class Rebuildable(Protocol):
    """What :func:`rebuild` needs of a :class:`~langgraph_games.memory.chroma_store.ChromaStore`."""

    name: str
    location: str
    embeddings: Embeddings | None
    _client: Any
    _items: Any
    _vectors: Any
    _write_lock: threading.RLock
    _dims: int
    _embed_id: str

    def _texts(self, value: Mapping[str, Any], index: Any) -> list[tuple[str, str]]: ...

    def _checked(self, vectors: Sequence[Sequence[float]], count: int) -> list[list[float]]: ...

    def _write(
        self,
        writes: Sequence[PutOp],
        paths: Mapping[tuple[tuple[str, ...], str], list[tuple[str, str]]],
        vectors: Mapping[str, list[float]],
        *,
        keep_times: Mapping[str, tuple[int, int]] | None = None,
    ) -> None: ...


def rebuild(store: Rebuildable, *, force: bool) -> RepairReport:
    """Re-embed items whose vectors are missing (all items if ``force``); drop unused vectors."""
    report = RepairReport()
    client, items = store._client, store._items
    with store._write_lock:
        if force:
            client.delete_collection(f"{store.name}-vectors")
            store._vectors = open_collection(client, store.name, "vectors", store.location, None)
        present = set(store._vectors.get(include=[])["ids"])
        ids = items.get(include=[])["ids"]
        report.items = len(ids)
        used: set[str] = set()
        for start in range(0, len(ids), 1000):
            got = items.get(ids=ids[start : start + 1000], include=["documents", "metadatas"])
            redo: list[PutOp] = []
            times: dict[str, tuple[int, int]] = {}
            for rid, meta, doc in zip(got["ids"], got["metadatas"], got["documents"], strict=True):
                vids = list(meta.get("vids") or [])
                index = json.loads(meta.get("ix", "null"))
                wanted = store.embeddings is not None and index is not False
                if (force and (wanted or vids)) or any(v not in present for v in vids):
                    value = load_value(doc, f"{decode_ns(meta['ns'])}/{meta['key']!r}")
                    redo.append(PutOp(decode_ns(meta["ns"]), meta["key"], value, index))
                    times[rid] = (int(meta["ca"]), int(meta["ua"]))
                else:
                    used.update(vids)
            if redo:
                paths = {
                    (op.namespace, op.key): store._texts(op.value or {}, op.index) for op in redo
                }
                texts = list(dict.fromkeys(t for pairs in paths.values() for _, t in pairs))
                vectors = (
                    store._checked(store.embeddings.embed_documents(texts), len(texts))
                    if texts and store.embeddings is not None
                    else []
                )
                store._write(redo, paths, dict(zip(texts, vectors, strict=True)), keep_times=times)
                report.reembedded += len(redo)
                fresh = items.get(ids=list(times), include=["metadatas"])["metadatas"]
                used.update(v for m in fresh for v in (m.get("vids") or []))
        unused = sorted(set(store._vectors.get(include=[])["ids"]) - used)
        for start in range(0, len(unused), 1000):
            store._vectors.delete(ids=unused[start : start + 1000])
        report.removed_vectors = len(unused)
        if force:
            meta = dict(items.metadata or {})
            meta.update(dims=store._dims, embed=store._embed_id or "-")
            items.modify(metadata=meta)
    return report
