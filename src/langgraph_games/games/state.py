"""Frozen game states that round-trip through JSON, and the seeded RNG derived from them.

Every engine keeps its state in a frozen dataclass deriving from :class:`GameState`.
Fields hold only JSON-friendly values: ``int``, ``float``, ``str``, ``bool``, ``None``
and (nested) tuples of those. Serialisation is generic; reading a document back
checks every field against the dataclass's type hints and names the first field
that does not fit, so a hand-edited or truncated state fails loudly.
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.games.errors import StateFormatError

__all__ = ["GameState", "derive_rng"]

S = TypeVar("S", bound="GameState")


def derive_rng(*parts: object) -> random.Random:
    """Return a ``random.Random`` seeded from ``parts`` joined as a string.

    String seeds go through SHA-512 inside ``random.seed``, so the stream depends only
    on the parts, never on ``hash()`` randomisation or a global RNG.

    Example:
        >>> derive_rng(7, 3, "deal").random() == derive_rng(7, 3, "deal").random()
        True
    """
    return random.Random(":".join(str(p) for p in parts))


@dataclasses.dataclass(frozen=True, slots=True)
class GameState:
    """Base of every engine state: the episode seed and the number of steps applied.

    Attributes:
        seed: The episode seed; all chance in the game is derived from it and ``turn``.
        turn: How many (joint) actions have been applied since the initial state.
    """

    seed: int
    turn: int

    type_name: ClassVar[str] = "game"

    def to_dict(self) -> JsonObject:
        """Return the state as a JSON-compatible dict (tuples become lists)."""
        return {f.name: _to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json(self) -> str:
        """Return the state as a compact JSON string."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls: type[S], data: Mapping[str, object]) -> S:
        """Rebuild a state from :meth:`to_dict` output, checking every field.

        Raises:
            StateFormatError: A field is missing, unknown or of the wrong type.
        """
        if not isinstance(data, Mapping):
            raise StateFormatError(cls.type_name, "", f"must be a JSON object, got {_kind(data)}")
        hints = _field_hints(cls)
        unknown = sorted(set(data) - set(hints))
        if unknown:
            raise StateFormatError(
                cls.type_name, unknown[0], f"is not a field (expected fields: {', '.join(hints)})"
            )
        values: dict[str, Any] = {}
        for name, hint in hints.items():
            if name not in data:
                raise StateFormatError(cls.type_name, name, "is missing")
            values[name] = _coerce(data[name], hint, cls.type_name, name)
        state = cls(**values)
        problem = state.validate()
        if problem is not None:
            raise StateFormatError(cls.type_name, problem[0], problem[1])
        return state

    @classmethod
    def from_json(cls: type[S], text: str | bytes) -> S:
        """Parse a JSON document produced by :meth:`to_json`.

        Raises:
            StateFormatError: The text is not JSON or a field is wrong.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateFormatError(cls.type_name, "", f"is not valid JSON ({exc})") from exc
        return cls.from_dict(data)

    def validate(self) -> tuple[str, str] | None:
        """Check invariants beyond types; return ``(field, problem)`` or ``None``.

        Subclasses override this to reject, say, a board of the wrong length.
        """
        if self.turn < 0:
            return ("turn", "must be >= 0")
        return None


def _to_jsonable(value: object) -> JsonValue:
    if isinstance(value, tuple):
        return [_to_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"a state field holds a {type(value).__name__}, which JSON cannot hold")


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


_HINTS: dict[type, dict[str, object]] = {}


def _field_hints(cls: type[GameState]) -> dict[str, object]:
    """Resolved type hints of the dataclass fields (computed once per class)."""
    hints = _HINTS.get(cls)
    if hints is None:
        resolved = typing.get_type_hints(cls)
        hints = _HINTS[cls] = {f.name: resolved[f.name] for f in dataclasses.fields(cls)}
    return hints


def _coerce(value: object, hint: object, type_name: str, path: str) -> Any:
    """Convert a JSON value to the hinted type, raising on the first mismatch."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _coerce(value, option, type_name, path)
            except StateFormatError as exc:
                errors.append(exc)
        raise errors[0] if errors else StateFormatError(type_name, path, "must not be null")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise StateFormatError(type_name, path, f"must be a list, got {_kind(value)}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(
                _coerce(v, args[0], type_name, f"{path}[{i}]") for i, v in enumerate(value)
            )
        if len(args) != len(value):
            raise StateFormatError(
                type_name, path, f"must have {len(args)} items, got {len(value)}"
            )
        return tuple(
            _coerce(v, a, type_name, f"{path}[{i}]")
            for i, (a, v) in enumerate(zip(args, value, strict=True))
        )
    if hint is bool:
        if not isinstance(value, bool):
            raise StateFormatError(type_name, path, f"must be a boolean, got {_kind(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise StateFormatError(type_name, path, f"must be an integer, got {_kind(value)}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise StateFormatError(type_name, path, f"must be a number, got {_kind(value)}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise StateFormatError(type_name, path, f"must be a string, got {_kind(value)}")
        return value
    if hint is type(None):
        if value is not None:
            raise StateFormatError(type_name, path, f"must be null, got {_kind(value)}")
        return None
    raise TypeError(f"{type_name} state field {path!r} has unsupported type {hint!r}")
