"""Checkers as five 8x8 planes: own men, own kings, opponent's men and kings, the jumper."""

from __future__ import annotations

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.checkers.rules import KINGS, MEN, SIZE
from langgraph_games.games.encoding import Encoding, Observation, piece_planes
from langgraph_games.games.state import GameState

__all__ = ["ENCODINGS"]


def _encoding(game: Game[GameState]) -> Encoding:
    def encode(state: GameState, player: int) -> Observation:
        board: str = state.board  # type: ignore[attr-defined]
        pieces = (MEN[player], KINGS[player], MEN[1 - player], KINGS[1 - player])
        planes = np.zeros((5, SIZE, SIZE), dtype=np.float32)
        planes[:4] = piece_planes(board, SIZE, SIZE, pieces)
        chain_from: int | None = state.chain_from  # type: ignore[attr-defined]
        if chain_from is not None:
            planes[4, chain_from // SIZE, chain_from % SIZE] = 1.0
        return planes

    return Encoding(
        (5, SIZE, SIZE),
        0.0,
        1.0,
        encode,
        "planes [own men, own kings, opponent's men, opponent's kings, the piece that "
        "must go on jumping], row 0 on top",
    )


ENCODINGS = {"checkers": _encoding}
