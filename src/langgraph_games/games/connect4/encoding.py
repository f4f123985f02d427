"""Connect Four as two 6x7 planes: the seat's own discs, then the opponent's."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.connect4 import MARKS
from langgraph_games.games.encoding import Encoding, own_and_opponent_planes
from langgraph_games.games.parts import parts_of

__all__ = ["ENCODINGS"]


def _encoding(game: Game[Any]) -> Encoding:
    grid = parts_of(game).grid
    assert grid is not None  # declared in parts.py
    return own_and_opponent_planes(grid.rows, grid.cols, MARKS, "row 0 is the bottom row")


ENCODINGS = {"connect4": _encoding}
