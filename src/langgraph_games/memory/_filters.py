"""Search filters: exact evaluation over JSON values, and a safe push-down into Chroma.

The semantics follow LangGraph's ``InMemoryStore`` (a plain value means equality, a nested
dict means "these sub-fields match", ``$eq $ne $gt $gte $lt $lte`` compare), with three
differences written down in ``docs/memory.md``: booleans never equal numbers, a range
operator compares numbers with numbers and strings with strings and is false otherwise
(``InMemoryStore`` calls ``float()`` and raises on a missing field), and an unknown
operator raises ``ValueError`` naming the supported ones.

Chroma metadata mirrors each top-level scalar of a value (strings as ``s:<field>``,
numbers as ``n:<field>`` floats, booleans as ``b:<field>``). :func:`pushdown` turns the
parts of a filter that can be answered from those mirrors into a Chroma ``where`` that
selects a superset of the matching items; :func:`matches` then decides exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TypeGuard, TypeVar

from langgraph_games._json import JsonObject

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
MIRROR_MAX_FIELD = 128
MIRROR_MAX_STRING = 128


_Ordered = TypeVar("_Ordered", float, str)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def json_equal(a: object, b: object) -> bool:
    """Equality of JSON values where ``True`` is not ``1`` and lists equal tuples."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _compare(value: object, operator: str, operand: object) -> bool:
    if operator == "$eq":
        return json_equal(value, operand)
    if operator == "$ne":
        return not json_equal(value, operand)
    if operator not in OPERATORS:
        raise ValueError(
            f"unsupported filter operator {operator!r}; supported: {', '.join(OPERATORS)}"
        )
    if _is_number(value) and _is_number(operand):
        return _order(operator, value, operand)
    if isinstance(value, str) and isinstance(operand, str):
        return _order(operator, value, operand)
    return False


def _order(operator: str, left: _Ordered, right: _Ordered) -> bool:
    if operator == "$gt":
        return bool(left > right)
    if operator == "$gte":
        return bool(left >= right)
    if operator == "$lt":
        return bool(left < right)
    return bool(left <= right)


def _match_value(value: object, condition: object) -> bool:
    if isinstance(condition, Mapping):
        if any(str(k).startswith("$") for k in condition):
            return all(_compare(value, op, operand) for op, operand in condition.items())
        if not isinstance(value, Mapping):
            return False
        return all(_match_value(value.get(k), sub) for k, sub in condition.items())
    if isinstance(condition, (list, tuple)):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(condition)
            and all(_match_value(v, c) for v, c in zip(value, condition, strict=True))
        )
    return json_equal(value, condition)


def matches(value: Mapping[str, object], filter: Mapping[str, object] | None) -> bool:
    """Whether a stored value satisfies a LangGraph search filter.

    Example:
        >>> matches({"kind": "truth", "n": 3}, {"kind": "truth", "n": {"$gte": 2}})
        True
        >>> matches({"flag": True}, {"flag": 1})
        False
    """
    if not filter:
        return True
    return all(_match_value(value.get(k), cond) for k, cond in filter.items())


def mirrorable_field(name: str) -> bool:
    """Whether a top-level field name is mirrored into Chroma metadata."""
    return 0 < len(name) <= MIRROR_MAX_FIELD


def mirror_metadata(value: Mapping[str, object]) -> dict[str, str | int | float | bool]:
    """Chroma metadata mirroring the top-level scalars of ``value`` (see module docstring)."""
    out: dict[str, str | int | float | bool] = {}
    for name, field in value.items():
        if not mirrorable_field(name):
            continue
        if isinstance(field, bool):
            out[f"b:{name}"] = field
        elif _is_number(field):
            as_float = float(field)
            if math.isfinite(as_float):
                out[f"n:{name}"] = as_float
        elif isinstance(field, str) and len(field) <= MIRROR_MAX_STRING:
            out[f"s:{name}"] = field
    return out


def _equality_clause(name: str, operand: object) -> JsonObject | None:
    if isinstance(operand, bool):
        return {f"b:{name}": operand}
    if _is_number(operand):
        as_float = float(operand)
        return {f"n:{name}": as_float} if math.isfinite(as_float) else None
    if isinstance(operand, str) and len(operand) <= MIRROR_MAX_STRING:
        return {f"s:{name}": operand}
    return None


# A range over floats is widened to its closed form: float() of an int may round, but
# never reverses an order, so ">=" on the mirrors keeps every item ">" would keep.
_RANGE = {"$gt": "$gte", "$gte": "$gte", "$lt": "$lte", "$lte": "$lte"}


def pushdown(filter: Mapping[str, object] | None) -> list[JsonObject]:
    """Chroma ``where`` clauses implied by ``filter``; their conjunction is a superset.

    Example:
        >>> pushdown({"kind": "truth", "n": {"$gt": 2}, "meta": {"a": 1}})
        [{'s:kind': 'truth'}, {'n:n': {'$gte': 2.0}}]
    """
    clauses: list[JsonObject] = []
    for name, condition in (filter or {}).items():
        if not mirrorable_field(name):
            continue
        if isinstance(condition, Mapping) and any(str(k).startswith("$") for k in condition):
            for op, operand in condition.items():
                if op == "$eq":
                    clause = _equality_clause(name, operand)
                    if clause:
                        clauses.append(clause)
                elif op in _RANGE and _is_number(operand) and math.isfinite(float(operand)):
                    clauses.append({f"n:{name}": {_RANGE[op]: float(operand)}})
        elif not isinstance(condition, (Mapping, list, tuple)):
            clause = _equality_clause(name, condition)
            if clause:
                clauses.append(clause)
    return clauses
