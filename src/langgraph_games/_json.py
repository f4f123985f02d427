"""The type of a value JSON can hold, for code that passes JSON on without reading it.

``JsonValue`` is what :func:`json.loads` gives back and :func:`json.dumps` accepts (with
its default settings): a string, a number, a boolean, ``None``, a list of such values, or
an object with string keys. ``JsonObject`` is the object. Both may annotate the fields of
a graph's state: LangGraph and pydantic resolve them (a graph's JSON schema names them).

Example:
    >>> import json
    >>> payload: JsonObject = {"game": "tictactoe", "seats": [0, 1], "done": False}
    >>> json.loads(json.dumps(payload)) == payload
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, Union

from typing_extensions import TypeAliasType

__all__ = ["JsonObject", "JsonValue"]

if TYPE_CHECKING:  # mypy follows a recursive alias, not yet a recursive TypeAliasType
    JsonValue: TypeAlias = Union[  # noqa: UP007 - the same spelling as below
        str, int, float, bool, list["JsonValue"], dict[str, "JsonValue"], None
    ]
else:  # a named alias: typing.get_type_hints and pydantic (a graph's JSON schema) follow it
    JsonValue = TypeAliasType(
        "JsonValue",
        Union[str, int, float, bool, list["JsonValue"], dict[str, "JsonValue"], None],  # noqa: UP007
    )
"""Any value JSON can hold."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object (a mapping with string keys)."""
