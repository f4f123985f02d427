"""Othello as two 8x8 planes: the seat's own discs, then the opponent's."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, own_and_opponent_planes
from langgraph_games.games.othello.rules import COLORS, SIZE
from langgraph_games.games.state import GameState

__all__ = ["ENCODINGS"]


def _encoding(game: Game[GameState]) -> Encoding:
    return own_and_opponent_planes(SIZE, SIZE, COLORS, "row 1 (A1-H1) on top")


ENCODINGS = {"othello": _encoding}
