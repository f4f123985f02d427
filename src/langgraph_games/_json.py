"""The type of a value JSON can hold, for code that passes JSON on without reading it.

``JsonValue`` (pydantic's) is what :func:`json.loads` gives back and :func:`json.dumps`
accepts (with its default settings): a string, a number, a boolean, ``None``, a list of
such values, or an object with string keys. ``JsonObject`` is the object. Both may
annotate the fields of a graph's state: LangGraph and pydantic resolve them (a graph's
JSON schema names them).

Example:
    >>> import json
    >>> payload: JsonObject = {"game": "tictactoe", "seats": [0, 1], "done": False}
    >>> json.loads(json.dumps(payload)) == payload
    True
"""

from __future__ import annotations

from typing import TypeAlias

from pydantic import JsonValue

__all__ = ["JsonObject", "JsonValue"]

# pydantic's JsonValue: a recursive alias to type checkers and a named alias at run time,
# which typing.get_type_hints and pydantic (a graph's JSON schema) follow.

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object (a mapping with string keys)."""
