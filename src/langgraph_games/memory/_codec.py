"""How a LangGraph item maps onto Chroma records: ids, metadata, JSON values, time.

One item is one record in the ``<name>-items`` collection: the document is the value as
JSON, the metadata holds the namespace (``ns`` encoded, ``nsp`` every prefix, ``nss``
every suffix, ``depth``), ``key``, timestamps in microseconds (``ca``, ``ua``), the write
version ``ver``, the ids of the vectors written with it (``vids``, absent when none), the
index spec used (``ix``) and the mirrored scalars of the value (``mirror_metadata``). Each
vector of an item is one record in ``<name>-vectors`` whose metadata repeats the namespace and
mirrors, names its item (``item``), its path (``path``) and the item version it belongs
to (``ver``; both, and the namespace, are also spelled out in the vector's id). Namespace
labels never contain ``.`` (LangGraph forbids it), so joining
labels with ``.`` is unambiguous.
"""

from __future__ import annotations

import json
import math
import struct
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from langgraph.store.base import InvalidNamespaceError

from langgraph_games._json import JsonObject
from langgraph_games.memory._filters import mirror_metadata
from langgraph_games.memory.errors import InvalidValueError, StoreOpenError

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ID_SPACE = uuid.UUID("6c8f4a5e-1d2b-5c3a-9e7f-0a1b2c3d4e5f")

Metadata = dict[str, Any]


def encode_ns(namespace: Sequence[str]) -> str:
    """Namespace tuple to its dotted text form."""
    return ".".join(namespace)


def decode_ns(text: str) -> tuple[str, ...]:
    """Dotted text back to a namespace tuple."""
    return tuple(text.split("."))


def item_id(namespace: Sequence[str], key: str) -> str:
    """Stable Chroma id of an item."""
    return uuid.uuid5(_ID_SPACE, json.dumps([list(namespace), key])).hex


def vector_id(item: str, path: str, version: str, namespace: Sequence[str]) -> str:
    """Chroma id of one vector of one version of an item.

    ``<item>.<version>.<path hash>.<namespace>``: owner, version and namespace are readable
    from the id, so a search can rank and sift vectors without reading any metadata.
    """
    return f"{item}.{version}.{uuid.uuid5(_ID_SPACE, path).hex[:16]}.{encode_ns(namespace)}"


def vector_owner(vector: str) -> tuple[str, str, tuple[str, ...]]:
    """The item id, item version and namespace a vector id names."""
    item, version, _, namespace = vector.split(".", 3)
    return item, version, decode_ns(namespace)


def record_vector(item: str) -> list[float]:
    """The 2-d unit vector an item record carries (Chroma needs one; it is never searched).

    Spread over the circle by the id so Chroma's graph index is not built over
    thousands of identical points.
    """
    (turn,) = struct.unpack(">I", bytes.fromhex(item[:8]))
    angle = turn / 2**32 * 2 * math.pi
    return [math.cos(angle), math.sin(angle)]


def check_namespace_for_put(namespace: tuple[str, ...]) -> None:
    """LangGraph's rules for a namespace that is written to (labels are checked apart)."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "langgraph". Got: {namespace}'
        )


def _where(namespace: tuple[str, ...], key: str, path: str) -> str:
    return f"value at {namespace}/{key!r}{path}"


def check_json_value(value: object, namespace: tuple[str, ...], key: str, path: str = "") -> None:
    """Raise :class:`InvalidValueError` unless ``value`` is a JSON value (``path`` says where)."""
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValueError(
                f"{_where(namespace, key, path)} is {value!r}; JSON has no NaN or infinity"
            )
        return
    if isinstance(value, (list, tuple)):
        for i, element in enumerate(value):
            check_json_value(element, namespace, key, f"{path}[{i}]")
        return
    if isinstance(value, Mapping):
        for name, element in value.items():
            if not isinstance(name, str):
                raise InvalidValueError(
                    f"{_where(namespace, key, path)} has the key {name!r} of type "
                    f"{type(name).__name__}; JSON object keys must be strings"
                )
            check_json_value(element, namespace, key, f"{path}[{name!r}]")
        return
    raise InvalidValueError(
        f"{_where(namespace, key, path)} is a {type(value).__name__}; expected a JSON value "
        "(dict with string keys, list, str, int, float, bool or None)"
    )


def check_put_value(value: object, namespace: tuple[str, ...], key: str) -> None:
    """A put value must be a mapping of JSON values."""
    if not isinstance(value, Mapping):
        raise InvalidValueError(
            f"value at {namespace}/{key!r} is a {type(value).__name__}; expected a dict "
            "(a JSON object)"
        )
    check_json_value(value, namespace, key)


def dump_value(value: Mapping[str, object]) -> str:
    """The JSON document stored for a value."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def load_value(document: str | None, where: str) -> JsonObject:
    """Parse a stored document, naming the record if it is damaged."""
    try:
        value = json.loads(document or "")
    except json.JSONDecodeError as exc:
        raise StoreOpenError(
            f"stored value of {where} is not JSON ({exc}); the store is damaged"
        ) from exc
    if not isinstance(value, dict):
        raise StoreOpenError(f"stored value of {where} is not a JSON object; the store is damaged")
    return value


def item_metadata(
    namespace: tuple[str, ...],
    key: str,
    value: Mapping[str, object],
    *,
    created_us: int,
    updated_us: int,
    version: str,
    index_spec: str,
) -> Metadata:
    """Metadata of an item record."""
    meta: Metadata = {
        "ns": encode_ns(namespace),
        "nsp": [encode_ns(namespace[:d]) for d in range(1, len(namespace) + 1)],
        "nss": [encode_ns(namespace[-d:]) for d in range(1, len(namespace) + 1)],
        "depth": len(namespace),
        "key": key,
        "ca": created_us,
        "ua": updated_us,
        "ver": version,
        "ix": index_spec,
    }
    meta.update(mirror_metadata(value))
    return meta


def vector_metadata(item_meta: Metadata, item: str, path: str) -> Metadata:
    """Metadata of a vector record, derived from its item's metadata."""
    meta = {k: v for k, v in item_meta.items() if k not in ("ca", "ua", "vids", "ix", "key")}
    meta["item"] = item
    meta["path"] = path
    return meta


def us_to_datetime(us: int) -> datetime:
    """Microseconds since the epoch to an aware UTC datetime."""
    return _EPOCH + timedelta(microseconds=us)


class MonotonicClock:
    """Wall-clock microseconds that never repeat or go back within one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0

    def now_us(self) -> int:
        """The next timestamp."""
        with self._lock:
            self._last = max(time.time_ns() // 1000, self._last + 1)
            return self._last


CLOCK = MonotonicClock()
