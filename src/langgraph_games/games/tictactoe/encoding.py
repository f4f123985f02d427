"""TicTacToe as two 3x3 planes (its declared grid): the seat's own marks, then the opponent's."""

from __future__ import annotations

from langgraph_games.games._marks import MARKS
from langgraph_games.games.encoding import EncodingFactory, grid_planes

__all__ = ["ENCODINGS"]

ENCODINGS: dict[str, EncodingFactory] = {
    "tictactoe": lambda game: grid_planes(game, MARKS, "row 0 on top")
}
