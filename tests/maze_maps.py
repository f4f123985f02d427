"""Hand-built maze states for the mechanics tests."""

from __future__ import annotations

import dataclasses
from typing import Any

from langgraph_games.games.maze.rules import MazeState, look_around


def build(
    rows: list[str],
    *,
    level: int = 1,
    planned: dict[tuple[int, int], tuple[int, int]] | None = None,
    seen_all: bool = False,
    **fields: Any,
) -> MazeState:
    """A state from a picture: ``A`` agent, ``M`` monster, ``G`` goal (top-right), others as cells.

    ``planned`` maps a monster's cell to the cell it is about to move to (``moving=True``).
    The agent's 3x3 view is seen (or every cell with ``seen_all``).
    """
    rows = [r.replace(" ", "") for r in rows]
    size = len(rows)
    assert all(len(r) == size for r in rows), "the picture must be square"
    cells, agent, monsters = [], None, []
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == "A":
                agent = (r, c)
            elif ch == "M":
                target = (planned or {}).get((r, c))
                monsters.append((r, c, *(target or (r, c)), target is not None))
            cells.append(ch if ch in "#CSWNK" else ".")
    assert agent is not None
    seen = ["1" if seen_all else "0"] * (size * size)
    look_around(seen, size, agent)
    state = MazeState(
        seed=0,
        turn=0,
        size=size,
        level=level,
        map_id="hand",
        cells="".join(cells),
        seen="".join(seen),
        agent=agent,
        monsters=tuple(monsters),
        lives=3,
        score=0,
        coins=0,
        kills=0,
        walls_broken=0,
        shovel_uses=0,
        sword=False,
        magnet=False,
        key=False,
        initial_explored=0,
        outcome="",
    )
    values = {"initial_explored": state.explored, **fields}
    return dataclasses.replace(state, **values)
