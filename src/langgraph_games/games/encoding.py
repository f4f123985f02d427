"""Numeric observations of a game's state, for learners that take arrays rather than text.

A game folder may declare how a seat's view is written as a fixed-shape ``float32`` array:
a module ``encoding.py`` beside the game's class (found like ``parts.py`` and
``replay.py``, see :func:`~langgraph_games.games.parts.companion_module`) with a dict
``ENCODINGS`` of game id to a function of the configured engine returning an
:class:`Encoding`::

    ENCODINGS = {"tictactoe": lambda game: Encoding((2, 3, 3), 0.0, 1.0, _planes, "...")}

An encoding shows a seat what its text view shows and nothing more (hidden cards, mines
and the bandit's odds stay hidden). Board games use *planes*: one ``rows x cols`` plane
per kind of piece, the seat's own pieces before the opponent's, so the same array
layout serves both seats. The RL adapters (:mod:`langgraph_games.integrations`) turn it
into a ``gymnasium.spaces.Box``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.parts import companion_module, parts_of
from langgraph_games.games.registry import game_classes
from langgraph_games.games.state import GameState

__all__ = [
    "Encoding",
    "EncodingFactory",
    "Observation",
    "encoded_games",
    "encoding_of",
    "grid_planes",
    "own_and_opponent_planes",
    "piece_planes",
]

Observation = np.ndarray[Any, np.dtype[np.float32]]
"""An encoded observation: a ``float32`` array of the encoding's shape."""


@dataclass(frozen=True)
class Encoding:
    """How one configured game writes a seat's view as an array.

    Attributes:
        shape: The array's shape (fixed for the engine's options).
        low: The smallest value any element takes.
        high: The largest value any element takes.
        encode: ``(state, player) -> array`` of ``shape``, every value in ``[low, high]``.
        layout: One line saying what the array holds (shown in the docs and errors).
    """

    shape: tuple[int, ...]
    low: float
    high: float
    encode: Callable[[GameState, int], Observation]
    layout: str


EncodingFactory = Callable[[Game[GameState]], Encoding]
"""A function of a configured engine returning its :class:`Encoding`."""

_FOUND: dict[str, EncodingFactory | None] = {}


def _factory(game_id: str) -> EncodingFactory | None:
    base = game_id.split("-v")[0]
    if base not in _FOUND:
        found: EncodingFactory | None = None
        name = companion_module(base, "encoding")
        if name is not None:
            declared: Mapping[str, EncodingFactory] = getattr(
                importlib.import_module(name), "ENCODINGS", {}
            )
            found = declared.get(base)
        _FOUND[base] = found
    return _FOUND[base]


def encoded_games() -> tuple[str, ...]:
    """Ids of the registered games that declare an encoding, sorted.

    Example:
        >>> "tictactoe" in encoded_games(), "negotiation" in encoded_games()
        (True, False)
    """
    return tuple(sorted(cls.id for cls in game_classes() if _factory(cls.id) is not None))


def encoding_of(game: Game[GameState]) -> Encoding | None:
    """The encoding of a configured engine, or ``None`` where its folder declares none.

    Example:
        >>> from langgraph_games.games.registry import make
        >>> encoding_of(make("connect4")).shape
        (2, 6, 7)
    """
    factory = _factory(game.id)
    return None if factory is None else factory(game)


def piece_planes(board: str, rows: int, cols: int, pieces: Sequence[str]) -> Observation:
    """One ``rows x cols`` plane per entry of ``pieces``: 1 where the board holds one of them.

    Args:
        board: The board, one character per cell, row-major.
        rows: Rows of the board.
        cols: Columns of the board.
        pieces: For each plane, the characters it marks (``"wW"``: white men and kings).

    Example:
        >>> piece_planes("X_O", 1, 3, ["X", "O"]).tolist()
        [[[1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0]]]
    """
    cells = np.frombuffer(board.encode("ascii"), dtype=np.uint8).reshape(rows, cols)
    planes = np.zeros((len(pieces), rows, cols), dtype=np.float32)
    for plane, chars in enumerate(pieces):
        planes[plane] = np.isin(cells, np.frombuffer(chars.encode("ascii"), dtype=np.uint8))
    return planes


def own_and_opponent_planes(
    rows: int, cols: int, marks: Sequence[str], orientation: str
) -> Encoding:
    """Two planes for a board of two players' marks: the seat's own, then the opponent's.

    Args:
        rows: Rows of the board (the state's ``board`` is row-major).
        cols: Columns of the board.
        marks: The mark of player 0 and of player 1.
        orientation: Which row comes first, for the layout line.
    """

    def encode(state: GameState, player: int) -> Observation:
        board: str = state.board  # type: ignore[attr-defined]
        return piece_planes(board, rows, cols, (marks[player], marks[1 - player]))

    layout = f"planes [own pieces, opponent's pieces] of {rows}x{cols}, {orientation}"
    return Encoding((2, rows, cols), 0.0, 1.0, encode, layout)


def grid_planes(game: Game[GameState], marks: Sequence[str], orientation: str) -> Encoding:
    """:func:`own_and_opponent_planes` over the board geometry the game's ``parts.py`` declares.

    Raises:
        ValueError: The game declares no ``BoardGrid``.
    """
    grid = parts_of(game).grid
    if grid is None:
        raise ValueError(f"{game.id} declares no BoardGrid in its parts.py to encode a board by")
    return own_and_opponent_planes(grid.rows, grid.cols, marks, orientation)
