"""TicTacToe as two 3x3 planes: the seat's own marks, then the opponent's."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, own_and_opponent_planes
from langgraph_games.games.parts import parts_of
from langgraph_games.games.tictactoe import MARKS

__all__ = ["ENCODINGS"]


def _encoding(game: Game[Any]) -> Encoding:
    grid = parts_of(game).grid
    assert grid is not None  # declared in parts.py
    return own_and_opponent_planes(grid.rows, grid.cols, MARKS, "row 0 on top")


ENCODINGS = {"tictactoe": _encoding}
