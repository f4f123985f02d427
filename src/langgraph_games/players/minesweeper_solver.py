"""The Minesweeper logic solver as a player.

Each decision, from the solver's reading of the visible board
(:func:`langgraph_games.games.minesweeper.truth.analyse`):

1. reveal a cell proven safe (a wrongly flagged one first);
2. flag a cell proven to hold a mine (the paper's win needs every mine flagged);
3. otherwise guess: reveal the covered cell with the lowest exact mine probability
   (a corner first among equals, as the paper's tips advise, then the lowest index).

It only ever chooses operations the rules carry out, so it never takes an invalid step.
"""

from __future__ import annotations

import time

from langgraph_games.games.minesweeper import Minesweeper, MinesweeperState
from langgraph_games.games.minesweeper.rules import COVERED, FLAG
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["MinesweeperSolver"]


class MinesweeperSolver(SearchPlayer):
    """Plays by the logic solver; see the module docstring.

    Args:
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import request_for
        >>> MinesweeperSolver().decide(request_for(GameSession("minesweeper"))).action
        'r,0,0'
    """

    instant = True

    def __init__(self, name: str = "minesweeper_solver") -> None:
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "minesweeper_solver"}``."""
        return {"kind": "minesweeper_solver"}

    def decide(self, request: DecisionRequest) -> Decision:
        """Reveal a safe cell, flag a mine, or make the safest guess."""
        start = time.perf_counter()
        game, state = request.game, request.state
        if not isinstance(game, Minesweeper) or not isinstance(state, MinesweeperState):
            raise ValueError(f"MinesweeperSolver plays Minesweeper only, not {request.game_id}")
        analysis = game.analyse(state)
        cols = state.cols

        def name(letter: str, cell: int) -> str:
            return f"{letter},{cell // cols},{cell % cols}"

        view = state.view
        wrong_flags = sorted(c for c in analysis.safe if view[c] == FLAG)
        safe = sorted(c for c in analysis.safe if view[c] == COVERED)
        unflagged = sorted(c for c in analysis.mines if view[c] == COVERED)
        if wrong_flags or safe:
            action, why = name("r", (wrong_flags or safe)[0]), "proven safe"
        elif unflagged and state.flags < len(state.mines):
            action, why = name("f", unflagged[0]), "proven mine"
        else:
            last_row, last_col = state.rows - 1, cols - 1
            corners = {0, last_col, last_row * cols, last_row * cols + last_col}
            covered = [c for c in range(len(view)) if view[c] == COVERED]
            cell = min(
                covered,
                key=lambda c: (round(analysis.probability.get(c, 1.0), 9), c not in corners, c),
            )
            action, why = name("r", cell), f"guess p={analysis.probability.get(cell, 1.0):.3f}"
        return Decision(
            action=action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"reason": why},
        )
