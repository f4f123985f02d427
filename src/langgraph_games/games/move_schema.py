"""How a model writes a move in a tool call: :class:`MoveSchema` and the generic text form.

A :class:`MoveSchema` pairs a pydantic model of the move tool's arguments (typed fields
with the format in their descriptions, enums where the moves are few) with a function
turning validated arguments into the game's canonical action text. The tool shows the
model the JSON schema of that pydantic model (:meth:`MoveSchema.tool_schema`); the
arguments a model sends are read by :meth:`MoveSchema.read`, one rule for every game:

1. arguments that validate against the typed model give the typed move;
2. otherwise, arguments that are only ``action`` (a string), where the typed model has no
   ``action`` field or rejected its value, are read as text: a canonical action, or
   anything the game's own parser reads (the generic form, kept for every game so older
   callers' ``make_move(action="(1,1)")`` still plays);
3. otherwise the arguments are malformed: :class:`MoveArgumentsError` says what is wrong.

The text returned may still be illegal; the toolkit checks it and names the legal moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = [
    "GENERIC",
    "ActionArgs",
    "MoveArgs",
    "MoveArgumentsError",
    "MoveSchema",
    "SchemaBuilder",
    "action_name",
    "coordinate",
    "enum_of",
    "fixed",
    "named_actions",
    "read_text",
]


class MoveArgumentsError(ValueError):
    """Move arguments that name no move (the message says what is wrong)."""


class MoveArgs(BaseModel):
    """Base of typed move arguments: unknown argument names are refused."""

    model_config = ConfigDict(extra="forbid")


class ActionArgs(BaseModel):
    """A move given as text."""

    action: str = Field(
        description="The move, written exactly as one of the legal moves (see legal_moves)."
    )


Converter = Callable[[Game[GameState], GameState, int, dict[str, Any]], str]
"""``(game, state, player, validated arguments) -> action text``."""


def read_text(game: Game[GameState], state: GameState, player: int, args: Mapping[str, Any]) -> str:
    """The generic reading of ``args["action"]``: canonical if legal, else the game's parser."""
    text = str(args["action"]).strip()
    if game.is_legal(state, player, text):
        return text
    parsed = game.parse_action(state, player, text)
    return parsed if parsed is not None else text


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()
    )


@dataclass(frozen=True)
class MoveSchema:
    """How a model writes a move for one game.

    Attributes:
        args_schema: The pydantic model of the tool's arguments.
        to_action: ``(game, state, player, args) -> action text`` for validated arguments
            (the text may be illegal; the caller checks it and explains). It may raise
            :class:`MoveArgumentsError` for combinations the schema cannot express.
        description: What the move tool does and how a move is written, for the model.
    """

    args_schema: type[BaseModel]
    to_action: Converter
    description: str

    @property
    def typed(self) -> bool:
        """Whether the arguments are typed (not the generic ``action: str``)."""
        return self.args_schema is not ActionArgs

    def tool_schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments, as the move tool shows it to the model."""
        schema = self.args_schema.model_json_schema()
        schema.pop("description", None)  # the tool's description says it all
        schema["title"] = self.args_schema.__name__
        return schema

    def read(
        self, game: Game[GameState], state: GameState, player: int, args: Mapping[str, Any]
    ) -> str:
        """The action text ``args`` name, by the rule of the module docstring.

        Raises:
            MoveArgumentsError: The arguments are malformed (the message says how).
        """
        try:
            values = self.args_schema.model_validate(dict(args))
        except ValidationError as error:
            fields = self.args_schema.model_fields
            text_only = set(args) == {"action"} and isinstance(args["action"], str)
            rejected_action = "action" not in fields or any(
                e["loc"][:1] == ("action",) for e in error.errors()
            )
            if self.typed and text_only and rejected_action:
                return read_text(game, state, player, args)
            raise MoveArgumentsError(_problems(error)) from error
        return self.to_action(game, state, player, values.model_dump())


GENERIC = MoveSchema(
    ActionArgs,
    read_text,
    "Make your move. Give one of the legal moves exactly as listed by legal_moves.",
)
"""The generic schema: ``action: str``, read as text."""


SchemaBuilder = Callable[[Game[GameState], "GameState | None"], MoveSchema]
"""``(game, state) -> MoveSchema``: a game's typed move schema (its options may shape it;
``state`` is a state of the episode, or ``None`` before one is known)."""


def fixed(schema: MoveSchema) -> SchemaBuilder:
    """A builder for a schema that depends on nothing."""
    return lambda game, state: schema


def enum_of(values: Sequence[str]) -> Any:
    """``Literal[values]`` built at run time (a game's action vocabulary)."""
    return cast(Any, Literal).__getitem__(tuple(values))


def coordinate(low: int, high: int, description: str, default: Any = ...) -> Any:
    """A board coordinate field: its range shown in the schema, not enforced by validation.

    A coordinate off the board names a square that is not a legal move, and is refused
    as one (with the legal moves), as the same move written as text is.
    """
    return Field(
        default, description=description, json_schema_extra={"minimum": low, "maximum": high}
    )


def action_name(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    """The converter of schemas whose ``action`` field is the action's name."""
    return str(args["action"])


def named_actions(actions: Sequence[str], game: Game[GameState]) -> MoveSchema:
    """A schema whose one field ``action`` is an action's name, from ``actions`` (an enum)."""
    model = create_model(
        f"{type(game).__name__}Args",
        __base__=MoveArgs,
        __doc__=f"A {game.name} action, by name.",
        action=(enum_of(actions), Field(description="The action's name, exactly as listed.")),
    )
    return MoveSchema(
        model,
        action_name,
        f"Take one action: action is its name, exactly as the game lists it (e.g. {actions[0]!r}).",
    )
