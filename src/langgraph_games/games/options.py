"""Game options: each game's typed declaration, how it is listed and how values are checked.

A game declares its options as a :class:`GameOptions` subclass (a frozen pydantic model
in the game's folder, named by the engine's ``Options`` attribute), so the registry finds
it with the game. Values are checked strictly: a value of the wrong type is refused, not
converted (``"100"``, ``True`` or ``2.5`` for an integer; ``1`` for a flag), while an
integer stays a valid float. :func:`check_options` is the one check ``make`` applies; its
errors are one line naming the game, the option and what it accepts.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticUndefined

from langgraph_games.games.errors import OptionError

__all__ = [
    "GameOptions",
    "OptionInfo",
    "check_options",
    "format_value",
    "option_infos",
    "type_text",
]

_SHOWN_VALUE = 60
"""Characters of a refused value that an error message quotes."""


def format_value(value: object) -> str:
    """A value as a spec or a listing writes it (``true``/``false``, ``none``, an enum's value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def _members(annotation: object) -> tuple[object, ...]:
    """The alternatives of a union (``int | None``: ``(int, NoneType)``), else the type alone."""
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def type_text(annotation: object) -> str:
    """The values a field's annotation accepts, in words; ``None`` of an optional is left out.

    Example:
        >>> type_text(Literal["a", "b"] | None), type_text(bool), type_text(str)
        ('one of a, b', 'true or false', 'text')
    """
    if get_origin(annotation) is Annotated:
        return type_text(get_args(annotation)[0])
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(format_value(a) for a in get_args(annotation))
    inner = [a for a in _members(annotation) if a is not type(None)]
    if len(inner) > 1 or inner != [annotation]:
        return " or ".join(type_text(a) for a in inner)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "one of " + ", ".join(format_value(member) for member in annotation)
    if annotation is bool:
        return "true or false"
    if annotation is str:
        return "text"
    return str(getattr(annotation, "__name__", annotation))


def _bounds_text(metadata: list[object]) -> str:
    """``1..30``, ``>= 1``, ``> 0`` from a field's ``ge``/``gt``/``le``/``lt`` constraints."""
    low = next((f">= {m.ge}" for m in metadata if isinstance(m, Ge)), None)
    low = low or next((f"> {m.gt}" for m in metadata if isinstance(m, Gt)), None)
    high = next((f"<= {m.le}" for m in metadata if isinstance(m, Le)), None)
    high = high or next((f"< {m.lt}" for m in metadata if isinstance(m, Lt)), None)
    if low and high and low.startswith(">=") and high.startswith("<="):
        return f"{low[3:]}..{high[3:]}"
    return ", ".join(part for part in (low, high) if part)


def _python_types(annotation: object) -> set[type] | None:
    """The Python types a field's values can have, or ``None`` when that is not known."""
    found: set[type] = set()
    for member in _members(annotation):
        if get_origin(member) is Annotated:
            member = get_args(member)[0]
        if get_origin(member) is Literal:
            found.update(type(arg) for arg in get_args(member))
        elif isinstance(member, type):
            found.add(member)
        else:
            return None
    return found


class GameOptions(BaseModel):
    """Base of every game's options model: frozen, strict, and unknown names are rejected.

    Strict means a value must already have the field's type: ``"3"`` is no integer and
    ``1`` no flag. Two cases pydantic's strict mode lets through are refused too: a flag
    (``True``) and a float for a choice of integers (``level=True``, ``level=2.0``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def _exact_kind(cls, value: object, info: ValidationInfo) -> object:
        # Strict mode compares a choice by equality, so True and 2.0 would pass as 1 and 2.
        if isinstance(value, (bool, float)) and info.field_name in cls.model_fields:
            allowed = _python_types(cls.model_fields[info.field_name].annotation)
            if allowed is not None and type(value) not in allowed:
                raise ValueError(f"a {type(value).__name__} is none of the accepted values")
        return value


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game, for listings and error messages.

    Attributes:
        name: The keyword ``make`` takes (``--option name=value`` on the command line).
        type: The accepted values in words (``int 1..30 or None``, ``one of a, b``).
        default: The default value.
        description: What the option does.
    """

    name: str
    type: str
    default: Any
    description: str

    def short(self) -> str:
        """``name (type, default value)``: the option without its description."""
        return f"{self.name} ({self.type}, default {self.default!r})"

    def __str__(self) -> str:
        return f"{self.short()}: {self.description}"


def option_infos(schema: type[GameOptions]) -> tuple[OptionInfo, ...]:
    """Describe every option of a game's options model, in declaration order.

    Example:
        >>> from pydantic import Field
        >>> class Rounds(GameOptions):
        ...     rounds: int | None = Field(3, ge=1, le=9, description="rounds to play")
        >>> print(option_infos(Rounds)[0])
        rounds (int 1..9 or None, default 3): rounds to play
    """
    infos = []
    for name, field in schema.model_fields.items():
        words = type_text(field.annotation)
        bounds = _bounds_text(field.metadata)
        if bounds:
            words += f" {bounds}"
        if type(None) in _members(field.annotation):
            words += " or None"
        default = None if field.default is PydanticUndefined else field.default
        infos.append(OptionInfo(name, words, default, field.description or ""))
    return tuple(infos)


def check_options(
    game_id: str, schema: type[GameOptions], options: Mapping[str, object]
) -> GameOptions:
    """Validate option values against a game's options model.

    Args:
        game_id: The game, named in errors.
        schema: The game's options model.
        options: The values given, by option name.

    Returns:
        The validated options.

    Raises:
        OptionError: An unknown name or a value the option does not accept, in one line
            naming the game, the option and what is accepted.
    """
    infos = option_infos(schema)
    names = [info.name for info in infos]
    for key in options:
        if key not in names:
            close = difflib.get_close_matches(str(key), names, n=1)
            hint = f"Did you mean {close[0]!r}? " if close else ""
            accepted = (
                "Valid options: " + "; ".join(info.short() for info in infos) + "."
                if infos
                else "This game takes no options."
            )
            raise OptionError(game_id, str(key), "is not an option of this game", hint + accepted)
    try:
        return schema(**options)
    except ValidationError as exc:
        first = exc.errors()[0]
        option = ".".join(str(p) for p in first["loc"]) or "?"
        info = next((i for i in infos if i.name == option), None)
        shown = repr(first.get("input"))
        if len(shown) > _SHOWN_VALUE:
            shown = shown[: _SHOWN_VALUE - 3] + "..."
        message = " ".join(str(first["msg"]).split()).removeprefix("Value error, ")
        hint = f"Accepted: {info}." if info else "Valid options: " + ", ".join(names) + "."
        raise OptionError(
            game_id, option, f"has an invalid value {shown} ({message})", hint
        ) from exc
