"""The maze as planes over its grid: what the agent knows of the map, then its status.

Planes 0-9 follow the text view's map (``?`` cells, those never in view, are zero in
every plane but ``unknown`` unless ``full_vision`` is on): unknown, wall, coin, shovel,
sword, magnet, key, monster, agent, goal. Planes 10-16 are constant planes of the
status lines: lives / 3, steps taken / ``max_steps``, coins / 5, shovel uses / 3, sword,
magnet, key held.
"""

from __future__ import annotations

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, Observation
from langgraph_games.games.maze import Maze
from langgraph_games.games.maze.generator import COINS
from langgraph_games.games.maze.rules import (
    COIN,
    ITEM_CHARS,
    LIVES,
    SHOVEL_USES,
    WALL,
    MazeState,
)
from langgraph_games.games.state import GameState

__all__ = ["ENCODINGS"]


_MAP = ("unknown", "wall", "coin", *ITEM_CHARS, "monster", "agent", "goal")
_CELL_PLANES = {WALL: 1, COIN: 2} | {ch: 3 + i for i, ch in enumerate(ITEM_CHARS.values())}
_STATUS = ("lives", "steps", "coins", "shovel uses", "sword", "magnet", "key")


def _encoding(game: Game[GameState]) -> Encoding:
    assert isinstance(game, Maze)
    n, full_vision, max_steps = game.size, game.options.full_vision, game.options.max_steps

    def encode(state: GameState, player: int) -> Observation:
        assert isinstance(state, MazeState)
        planes = np.zeros((len(_MAP) + len(_STATUS), n, n), dtype=np.float32)
        known = np.frombuffer(state.seen.encode("ascii"), dtype=np.uint8) == ord("1")
        if full_vision:
            known[:] = True
        planes[0] = ~known.reshape(n, n)
        for index, char in enumerate(state.cells):
            plane = _CELL_PLANES.get(char)
            if plane is not None and known[index]:
                planes[plane, index // n, index % n] = 1.0
        for row, col, *_ in state.monsters:
            if known[row * n + col]:
                planes[_MAP.index("monster"), row, col] = 1.0
        planes[_MAP.index("agent"), state.agent[0], state.agent[1]] = 1.0
        planes[_MAP.index("goal"), state.goal[0], state.goal[1]] = 1.0
        status = (
            state.lives / LIVES,
            min(state.turn / max_steps, 1.0),
            state.coins / COINS,
            state.shovel_uses / SHOVEL_USES,
            float(state.sword),
            float(state.magnet),
            float(state.key),
        )
        for offset, value in enumerate(status):
            planes[len(_MAP) + offset] = value
        return planes

    return Encoding(
        (len(_MAP) + len(_STATUS), n, n),
        0.0,
        1.0,
        encode,
        f"planes [{', '.join(_MAP)}] of the known map, then constant planes "
        f"[{', '.join(_STATUS)}] scaled to 0-1",
    )


ENCODINGS = {"maze": _encoding}
