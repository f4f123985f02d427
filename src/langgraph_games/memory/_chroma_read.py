"""The read side of ChromaStore: get, search (with and without a query), list_namespaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.store.base import Item, ListNamespacesOp, MatchCondition, SearchItem, SearchOp

from langgraph_games._json import JsonObject
from langgraph_games.memory._codec import (
    Metadata,
    decode_ns,
    encode_ns,
    load_value,
    us_to_datetime,
    vector_owner,
)
from langgraph_games.memory._filters import matches, pushdown


def and_where(clauses: Sequence[JsonObject]) -> JsonObject | None:
    """Chroma needs ``$and`` for two or more clauses and nothing for none."""
    if not clauses:
        return None
    if len(clauses) == 1:
        return dict(clauses[0])
    return {"$and": [*clauses]}


def _record_where(meta: Metadata) -> str:
    return f"{decode_ns(meta['ns'])}/{meta['key']!r}"


def to_item(meta: Metadata, document: str | None, score: float | None = None) -> SearchItem:
    """Build the LangGraph item of a stored record."""
    return SearchItem(
        namespace=decode_ns(meta["ns"]),
        key=meta["key"],
        value=load_value(document, _record_where(meta)),
        created_at=us_to_datetime(int(meta["ca"])),
        updated_at=us_to_datetime(int(meta["ua"])),
        score=score,
    )


def plain_item(item: SearchItem) -> Item:
    """The ``Item`` (not ``SearchItem``) a get returns."""
    return Item(
        value=item.value,
        key=item.key,
        namespace=item.namespace,
        created_at=item.created_at,
        updated_at=item.updated_at,
    )


def get_items(items: Any, ids: Sequence[str]) -> dict[str, SearchItem]:
    """Items by Chroma id (missing ones left out)."""
    if not ids:
        return {}
    found = items.get(ids=list(dict.fromkeys(ids)), include=["documents", "metadatas"])
    return {
        rid: to_item(meta, doc)
        for rid, meta, doc in zip(found["ids"], found["metadatas"], found["documents"], strict=True)
    }


def search_where(op: SearchOp) -> JsonObject | None:
    """Namespace-prefix and filter push-down for a search."""
    clauses: list[JsonObject] = []
    if op.namespace_prefix:
        clauses.append({"nsp": {"$contains": encode_ns(op.namespace_prefix)}})
    clauses.extend(pushdown(op.filter))
    return and_where(clauses)


def _recency(meta: Metadata) -> tuple[int, tuple[str, ...], str]:
    return (-int(meta["ua"]), decode_ns(meta["ns"]), meta["key"])


def _scan(
    items: Any, op: SearchOp, exclude: set[str] | None = None
) -> list[tuple[str, Metadata, str | None]]:
    """Every item matching the prefix and filter, newest update first."""
    include = ["metadatas", "documents"] if op.filter else ["metadatas"]
    found = items.get(where=search_where(op), include=include)
    docs = found.get("documents") or [None] * len(found["ids"])
    rows = []
    for rid, meta, doc in zip(found["ids"], found["metadatas"], docs, strict=True):
        if exclude and rid in exclude:
            continue
        if op.filter and not matches(load_value(doc, _record_where(meta)), op.filter):
            continue
        rows.append((rid, meta, doc))
    rows.sort(key=lambda row: _recency(row[1]))
    return rows


def _page_items(items: Any, rows: Sequence[tuple[str, Metadata, str | None]]) -> list[SearchItem]:
    missing = [rid for rid, _, doc in rows if doc is None]
    docs = {}
    if missing:
        found = items.get(ids=missing, include=["documents"])
        docs = dict(zip(found["ids"], found["documents"], strict=True))
    return [to_item(meta, doc if doc is not None else docs.get(rid)) for rid, meta, doc in rows]


def search_plain(items: Any, op: SearchOp) -> list[SearchItem]:
    """A search without a query (or on a store without an index): newest update first."""
    rows = _scan(items, op)
    return _page_items(items, rows[op.offset : op.offset + op.limit])


UNFILTERED_CAP = 2048
"""Most vectors a semantic search ranks unfiltered before it lets Chroma filter instead."""
FIRST_WINDOW = 30
"""Fewest vectors a semantic search asks Chroma for at once."""


def search_scored(
    items: Any, vectors: Any, op: SearchOp, query_vector: Sequence[float]
) -> list[SearchItem]:
    """A semantic search: items ranked by their best vector, then items with no vector.

    Chroma's filtered query costs time in proportion to the records its filter matches
    (hundreds of ms for 100k), while an unfiltered one is a few ms. So the nearest vectors
    are first taken unfiltered and checked here (prefix, filter, version), widening the
    window four times per pass; only if ``UNFILTERED_CAP`` vectors do not yield enough
    matches, i.e. the filter is selective and so cheap for Chroma, is the filter pushed down.
    """
    want = op.offset + op.limit
    prefix = tuple(op.namespace_prefix)
    pushed = search_where(op)
    where = None
    cache: dict[str, SearchItem | None] = {}
    versions: dict[str, str] = {}
    first = max(3 * want, FIRST_WINDOW)
    k = first
    while True:
        found = vectors.query(
            query_embeddings=[list(query_vector)],
            n_results=k,
            where=where,
            include=["distances"],
        )
        hits = []
        for vid, distance in zip(found["ids"][0], found["distances"][0], strict=True):
            rid, version, namespace = vector_owner(vid)
            if namespace[: len(prefix)] == prefix:
                hits.append((rid, version, float(distance)))
        unseen = [rid for rid, _, _ in hits if rid not in cache]
        if unseen:
            got = items.get(ids=list(dict.fromkeys(unseen)), include=["documents", "metadatas"])
            for rid, meta, doc in zip(got["ids"], got["metadatas"], got["documents"], strict=True):
                item = to_item(meta, doc)
                keep = not op.filter or matches(item.value, op.filter)
                cache[rid] = item if keep else None
                versions[rid] = meta["ver"]
            for rid in unseen:
                cache.setdefault(rid, None)
        scored: dict[str, SearchItem] = {}
        for rid, version, distance in hits:
            hit = cache.get(rid)
            # A vector counts only if it belongs to the version of the item now stored.
            if hit is None or rid in scored or versions.get(rid) != version:
                continue
            hit.score = 1.0 - distance
            scored[rid] = hit
        if len(scored) >= want or len(found["ids"][0]) < k:
            break
        if where is None and pushed is not None and k * 4 > UNFILTERED_CAP:
            where, k = pushed, first
        else:
            k *= 4
    # Best score first; equal scores fall back to the plain-search order (newest first).
    ranked = sorted(scored.values(), key=lambda it: (it.namespace, it.key))
    ranked.sort(key=lambda it: it.updated_at, reverse=True)
    ranked.sort(key=lambda it: it.score or 0.0, reverse=True)
    if len(ranked) < want:
        rows = _scan(items, op, exclude=set(scored))
        ranked.extend(_page_items(items, rows[: want - len(ranked)]))
    return ranked[op.offset : want]


def _literal_prefix(path: Sequence[str]) -> tuple[str, ...]:
    out = []
    for label in path:
        if label == "*":
            break
        out.append(label)
    return tuple(out)


def _condition_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    window = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    if not path:
        return True
    return all(p == "*" or p == n for p, n in zip(path, window, strict=True))


def list_namespaces(items: Any, op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """Distinct namespaces holding at least one item, sorted, truncated to ``max_depth``."""
    clauses: list[JsonObject] = []
    for condition in op.match_conditions or ():
        if condition.match_type == "prefix":
            lead = _literal_prefix(condition.path)
            if lead:
                clauses.append({"nsp": {"$contains": encode_ns(lead)}})
        elif condition.match_type == "suffix":
            tail = tuple(reversed(_literal_prefix(tuple(reversed(condition.path)))))
            if tail:
                clauses.append({"nss": {"$contains": encode_ns(tail)}})
        else:
            raise ValueError(
                f"unsupported namespace match type {condition.match_type!r}; "
                "expected 'prefix' or 'suffix'"
            )
    found = items.get(where=and_where(clauses), include=["metadatas"])
    namespaces = {decode_ns(meta["ns"]) for meta in found["metadatas"]}
    kept = [
        ns for ns in namespaces if all(_condition_matches(c, ns) for c in op.match_conditions or ())
    ]
    if op.max_depth is not None:
        kept = list({ns[: op.max_depth] for ns in kept})
    kept.sort()
    return kept[op.offset : op.offset + op.limit]
