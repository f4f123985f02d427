"""Connect Four as two 6x7 planes (its declared grid): own discs, then the opponent's."""

from __future__ import annotations

from langgraph_games.games._marks import MARKS
from langgraph_games.games.encoding import EncodingFactory, grid_planes

__all__ = ["ENCODINGS"]

ENCODINGS: dict[str, EncodingFactory] = {
    "connect4": lambda game: grid_planes(game, MARKS, "row 0 is the bottom row")
}
