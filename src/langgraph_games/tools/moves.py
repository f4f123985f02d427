"""Typed move arguments for every game: the JSON schema a model fills in to make a move.

Each game gets arguments in its own terms, with the format in the descriptions and the
tool's: cells as ``row``/``col`` integers (TicTacToe, Match-2, Minesweeper), a ``column``
(Connect4), Othello's column letter and row number, Checkers' from- and to-squares,
direction enums (Pong, Surround, Maze with a step count), Texas Hold'em's and the SmartPlay
games' action names as enums, Negotiation's shares as three counts per player or
``agree``. Enums list the game's whole action vocabulary (fixed per game and options), not
the legal moves of one state, so the tools keep one schema for a whole episode; the legal
moves of the moment come from ``legal_moves`` and with every refused move.

Every typed schema still accepts the generic ``action`` text (see
:mod:`~langgraph_games.games.move_schema` for the reading rule). Each game declares its
builder ``(game, state) -> MoveSchema`` in its own folder (the ``move_schema`` of its
:class:`~langgraph_games.games.parts.GameParts`, in ``games/<game>/parts.py``);
:data:`MOVE_SCHEMAS` is a read-only view of them by game id. ``move_schema(game,
typed=False)`` is the generic ``action: str`` for every game.
"""

from __future__ import annotations

from collections.abc import Mapping

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import (
    GENERIC,
    ActionArgs,
    MoveArgumentsError,
    MoveSchema,
    SchemaBuilder,
    read_text,
)
from langgraph_games.games.parts import PartsView, parts_of
from langgraph_games.games.state import GameState

__all__ = [
    "GENERIC",
    "MOVE_SCHEMAS",
    "ActionArgs",
    "MoveArgumentsError",
    "MoveSchema",
    "SchemaBuilder",
    "move_schema",
    "read_text",
]

MOVE_SCHEMAS: Mapping[str, SchemaBuilder] = PartsView(lambda parts: parts.move_schema)
"""Typed move schema builders by game id (a view of what each game declares); games not
listed use the generic ``action: str``."""


def move_schema(
    game: Game[GameState], typed: bool = True, state: GameState | None = None
) -> MoveSchema:
    """The move schema for ``game``: its typed one if ``typed`` and one exists, else generic.

    Args:
        game: The engine (its options shape some schemas: board size, props).
        typed: ``False`` for the generic ``action: str``.
        state: A state of the episode, for games whose action list is read from a state
            (default: their initial state).

    Example:
        >>> from langgraph_games.games.registry import make
        >>> schema = move_schema(make("othello"))
        >>> sorted(schema.tool_schema()["properties"]), schema.tool_schema()["required"]
        (['column', 'row'], ['column', 'row'])
        >>> move_schema(make("othello"), typed=False) is GENERIC
        True
    """
    builder = parts_of(game).move_schema if typed else None
    if builder is None:
        return GENERIC
    return builder(game, state)
