"""The type of a value JSON can hold, for code that passes JSON on without reading it.

``JsonValue`` is what :func:`json.loads` gives back and :func:`json.dumps` accepts (with
its default settings): a string, a number, a boolean, ``None``, a list of such values, or
an object with string keys. ``JsonObject`` is the object.

Example:
    >>> import json
    >>> payload: JsonObject = {"game": "tictactoe", "seats": [0, 1], "done": False}
    >>> json.loads(json.dumps(payload)) == payload
    True
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JsonObject", "JsonValue"]

JsonValue: TypeAlias = str | int | float | bool | list["JsonValue"] | dict[str, "JsonValue"] | None
"""Any value JSON can hold."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object (a mapping with string keys)."""
