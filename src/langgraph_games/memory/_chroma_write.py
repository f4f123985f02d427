"""The write side of ChromaStore: puts and deletes that a crash cannot leave half-done."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langgraph.store.base import PutOp

from langgraph_games.memory._codec import (
    CLOCK,
    dump_value,
    item_id,
    item_metadata,
    record_vector,
    vector_id,
    vector_metadata,
)


def write_items(
    items: Any,
    vectors_collection: Any,
    max_batch: int,
    writes: Sequence[PutOp],
    paths: Mapping[tuple[tuple[str, ...], str], list[tuple[str, str]]],
    vectors: Mapping[str, list[float]],
    *,
    keep_times: Mapping[str, tuple[int, int]] | None = None,
    check_room: Callable[[int], None] | None = None,
) -> None:
    """Write puts and deletes so that a crash at any point leaves every item whole.

    Order: the new vectors (under a fresh version), then the item records (the commit
    point: a search only counts vectors of the version its item names), then deletes,
    then the vectors of the replaced versions. The caller holds the store's write lock.
    A kill inside one of Chroma's calls leaves an SQLite rollback journal, which undoes
    that call when the store is opened next (``_chroma_open.check_database``).

    Args:
        items: The items collection.
        vectors_collection: The vectors collection.
        max_batch: Most records per Chroma call.
        writes: Puts (``value`` None: delete), at most one per key.
        paths: ``(path, text)`` pairs to embed per written key.
        vectors: The vector of each text.
        keep_times: ``(created, updated)`` microseconds to keep per item id (rebuilds).
        check_room: Called with the bytes of records about to be written, before the
            first of them is: raises (``StoreFullError``) to refuse the write.
    """
    version = uuid.uuid4().hex
    ids = [item_id(op.namespace, op.key) for op in writes]
    old = items.get(ids=ids, include=["metadatas"])
    previous = dict(zip(old["ids"], old["metadatas"], strict=True))
    item_rows: list[tuple[str, str, dict[str, Any]]] = []
    vector_rows: list[tuple[str, list[float], dict[str, Any]]] = []
    deletes: list[str] = []
    stale: list[str] = []
    for rid, op in zip(ids, writes, strict=True):
        before = previous.get(rid)
        if before is not None:
            stale.extend(before.get("vids") or [])
        if op.value is None:
            if before is not None:
                deletes.append(rid)
            continue
        now = CLOCK.now_us()
        created, updated = (keep_times or {}).get(rid, (int(before["ca"]) if before else now, now))
        meta = item_metadata(
            op.namespace,
            op.key,
            op.value,
            created_us=created,
            updated_us=updated,
            version=version,
            index_spec=json.dumps(op.index),
        )
        item_paths = paths.get((op.namespace, op.key), [])
        if item_paths:
            meta["vids"] = [vector_id(rid, p, version, op.namespace) for p, _ in item_paths]
        for vid, (p, text) in zip(meta.get("vids", []), item_paths, strict=True):
            vector_rows.append((vid, vectors[text], vector_metadata(meta, rid, p)))
        item_rows.append((rid, dump_value(op.value), meta))
    if check_room is not None:
        check_room(payload_bytes(item_rows, vector_rows, len(deletes) + len(stale)))
    for start in range(0, len(vector_rows), max_batch):
        chunk = vector_rows[start : start + max_batch]
        vectors_collection.upsert(
            ids=[r[0] for r in chunk],
            embeddings=[r[1] for r in chunk],
            metadatas=[r[2] for r in chunk],
        )
    for start in range(0, len(item_rows), max_batch):
        rows = item_rows[start : start + max_batch]
        items.upsert(
            ids=[r[0] for r in rows],
            embeddings=[record_vector(r[0]) for r in rows],
            documents=[r[1] for r in rows],
            metadatas=[r[2] for r in rows],
        )
    for start in range(0, len(deletes), max_batch):
        items.delete(ids=deletes[start : start + max_batch])
    for start in range(0, len(stale), max_batch):
        vectors_collection.delete(ids=stale[start : start + max_batch])


def payload_bytes(
    item_rows: Sequence[tuple[str, str, Mapping[str, Any]]],
    vector_rows: Sequence[tuple[str, list[float], Mapping[str, Any]]],
    removals: int,
) -> int:
    """About how many bytes of records a write hands to Chroma (ids, values, metadata)."""
    size = 64 * removals
    for rid, document, meta in item_rows:
        size += len(rid) + len(document) + len(json.dumps(meta)) + 8
    for vid, vector, meta in vector_rows:
        size += len(vid) + 4 * len(vector) + len(json.dumps(meta))
    return size
