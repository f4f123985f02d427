"""Minesweeper as planes over the board, as the player sees it.

Planes: covered, flagged, revealed, the neighbouring-mine count / 8 of revealed cells, a
revealed mine (the game is then lost), and a constant plane of operations so far /
``max_steps`` (0 without a cap). The mines themselves stay hidden.
"""

from __future__ import annotations

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, Observation, piece_planes
from langgraph_games.games.minesweeper import Minesweeper
from langgraph_games.games.minesweeper.rules import COVERED, FLAG, MINE, MinesweeperState
from langgraph_games.games.state import GameState

__all__ = ["ENCODINGS"]

DIGITS = "012345678"


def _encoding(game: Game[GameState]) -> Encoding:
    assert isinstance(game, Minesweeper)
    rows, cols, max_steps = game.options.rows, game.options.cols, game.options.max_steps

    def encode(state: GameState, player: int) -> Observation:
        assert isinstance(state, MinesweeperState)
        planes = np.zeros((6, rows, cols), dtype=np.float32)
        planes[:3] = piece_planes(state.view, rows, cols, (COVERED, FLAG, DIGITS))
        digits = np.frombuffer(state.view.encode("ascii"), dtype=np.uint8).reshape(rows, cols)
        planes[3] = np.where(planes[2] > 0, (digits.astype(np.float32) - ord("0")) / 8.0, 0.0)
        planes[4] = piece_planes(state.view, rows, cols, (MINE,))[0]
        if max_steps:
            planes[5] = min(state.turn / max_steps, 1.0)
        return planes

    return Encoding(
        (6, rows, cols),
        0.0,
        1.0,
        encode,
        "planes [covered, flagged, revealed, mine count / 8, revealed mine, "
        "operations / max_steps]",
    )


ENCODINGS = {"minesweeper": _encoding}
