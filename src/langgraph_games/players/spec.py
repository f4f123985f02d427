"""The player spec syntax and its typed form, :class:`PlayerSpec`.

A player spec is ``name[:key=value...][:<model spec>]``:

- ``name`` is a registered player (``minimax``, ``gamebot``);
- the parts after it that contain ``=`` are settings, until the first part without ``=``;
- that part and everything after it, ``:`` and ``=`` included, is the model spec of an
  LLM strategy (``local``, ``local:/models/x.gguf``, ``openai:gpt-4o@http://host/v1?k=v``).

The rule is unambiguous because a model spec starts with its kind (``local``, ``openai``),
which never contains ``=``, while a setting always does; so settings come before the model,
and a setting's value cannot contain ``:``. :func:`split_spec` applies the syntax; the
registry (:func:`~langgraph_games.players.registry.parse_spec`) resolves the name and types
the settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticUndefined

from langgraph_games.games.options import format_value, type_text
from langgraph_games.players.errors import PlayerSettingError, PlayerSpecError

__all__ = [
    "NoSettings",
    "PlayerSettings",
    "PlayerSpec",
    "SettingInfo",
    "format_value",
    "setting_infos",
    "split_spec",
]


class PlayerSettings(BaseModel):
    """Base of a player's settings schema: typed fields with defaults and descriptions.

    A spec's ``key=value`` text is converted to each field's type (``depth=3`` to an
    int, ``aim=false`` to a bool); unknown names are refused.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")


class NoSettings(PlayerSettings):
    """The schema of a player without settings."""


@dataclass(frozen=True)
class SettingInfo:
    """One setting of a player, for listings and error messages.

    Attributes:
        name: The key in specs.
        type: The accepted values in words (``int``, ``one of a, b``, ``true or false``).
        default: The default, as text (``None`` when the setting has no default value).
        description: What the setting does.
    """

    name: str
    type: str
    default: str | None
    description: str


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: the registry name, the settings it gives and its model.

    Two spellings of the same player parse to equal specs (``gamebot:variant=cot:reader=rule``
    and ``gamebot:reader=rule:variant=cot``); :attr:`text` keeps the spelling, which names the
    player in results tables and in the hashes of run specs.

    Attributes:
        name: The registry name of the player (``gamebot``, ``minimax``).
        settings: The settings the spec gives, typed.
        model: The model spec as written, ``None`` when the spec gives none (an LLM
            strategy then plays the default model, ``local``).
        text: The spec as written (not compared).
    """

    name: str
    settings: dict[str, Any] = field(default_factory=dict)
    model: str | None = None
    text: str = field(default="", compare=False)

    @property
    def canonical(self) -> str:
        """The spec in the registry's own spelling: ``gamebot:variant=cot:local``."""
        parts = [self.name]
        parts += [f"{key}={format_value(value)}" for key, value in sorted(self.settings.items())]
        if self.model is not None:
            parts.append(self.model)
        return ":".join(parts)

    @property
    def label(self) -> str:
        """The player's name in results: the spec as written (else the canonical form)."""
        return self.text or self.canonical


def split_spec(text: str) -> tuple[str, list[tuple[str, str]], str | None]:
    """Apply the spec syntax: ``(name, [(key, value), ...], model spec or None)``.

    Names are lower-cased; keys and values are stripped. An empty model part counts as
    none.

    Raises:
        PlayerSpecError: The name is empty.
        PlayerSettingError: A setting has no key (``=3``).

    Example:
        >>> split_spec("gamebot:variant=cot:openai:gpt-4o@http://host/v1?a=b")
        ('gamebot', [('variant', 'cot')], 'openai:gpt-4o@http://host/v1?a=b')
        >>> split_spec("minimax:depth=3")
        ('minimax', [('depth', '3')], None)
    """
    name, *parts = text.strip().split(":")
    name = name.strip().lower()
    if not name:
        raise PlayerSpecError(
            f"Player spec {text!r} has no name; the form is name[:key=value...][:<model spec>]"
        )
    pairs: list[tuple[str, str]] = []
    for index, part in enumerate(parts):
        if "=" not in part:
            model = ":".join(parts[index:]).strip()
            return name, pairs, model or None
        key, _, value = part.partition("=")
        if not key.strip():
            raise PlayerSettingError(
                name, f"Player spec {text!r}: setting {part!r} has no name (write key=value)"
            )
        pairs.append((key.strip(), value.strip()))
    return name, pairs, None


def setting_infos(schema: type[PlayerSettings]) -> list[SettingInfo]:
    """The settings of a schema, in declaration order, for listings and messages.

    Example:
        >>> from pydantic import Field
        >>> class Depth(PlayerSettings):
        ...     depth: int | None = Field(None, description="plies searched")
        >>> setting_infos(Depth)
        [SettingInfo(name='depth', type='int', default='none', description='plies searched')]
    """
    infos = []
    for name, info in schema.model_fields.items():
        default = None if info.default is PydanticUndefined else format_value(info.default)
        infos.append(SettingInfo(name, type_text(info.annotation), default, info.description or ""))
    return infos
