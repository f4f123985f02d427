"""Surround (GAMEBoT): two light-cycles on a 20x40 walled grid, moving at once.

Rules, coordinates, cell codes and the collision rule are in :mod:`.rules`. Every step both
seats choose ``Move Up``, ``Move Down``, ``Move Left`` or ``Move Right``; all four are always
legal (a move into a wall is a legal move that crashes).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games.base import Event, Game
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem
from langgraph_games.games.surround.render import SEAT_NAMES, observation_text, render_text
from langgraph_games.games.surround.rules import (
    DIRECTIONS,
    STARTS,
    SurroundState,
    heading,
    initial_grid,
    step,
)
from langgraph_games.games.surround.truth import surround_truth

__all__ = ["Surround", "SurroundState"]

ACTIONS = tuple(sorted(DIRECTIONS))
_PHRASES = regex_mentions(
    ((re.compile(rf"move\s*{action.split()[1]}", re.I), action) for action in DIRECTIONS),
    starts=r"(?i:m)",
)


@register
class Surround(Game[SurroundState]):
    """Surround on GAMEBoT's 20x40 grid; both players move at once and leave walls."""

    id = "surround"
    name = "Surround"
    description = (
        "Atari-style Surround on a 20x40 walled grid; both move at once leaving walls; "
        "a lone crash loses, a double crash draws."
    )
    source = "GAMEBoT"
    player_names = SEAT_NAMES
    simultaneous = True
    State = SurroundState
    answer_labels = ("Chosen Action",)
    subproblems = (
        Subproblem(
            1,
            "neighbour_values",
            AnswerKind.MAPPING,
            Metric.ACCURACY,
            "What are the values of the four cells next to your current position?",
            "Up X, Down X, Left X, Right X",
        ),
        Subproblem(
            2,
            "valid_moves",
            AnswerKind.SET,
            Metric.ACCURACY,
            "Which moves go to an empty cell?",
            "Move X, Move X, ... or None",
            item_pattern=r"(?i)move\s+(?:up|down|left|right)",
        ),
        Subproblem(
            3,
            "safe_moves",
            AnswerKind.SET,
            Metric.F1,
            "For each valid move, does it leave at least 10 connected empty cells?",
            "Move X Safe, Move X Unsafe, ...",
            item_pattern=r"(?i)move\s+(?:up|down|left|right)\s+(?:un)?safe",
        ),
    )

    def initial_state(self, seed: int = 0) -> SurroundState:
        """Walls on the border, Player 1 at (10,30), Player 2 at (10,10)."""
        return SurroundState(
            seed=seed,
            turn=0,
            grid=initial_grid(),
            traces=((STARTS[0],), (STARTS[1],)),
            crashed=(False, False),
        )

    def is_terminal(self, state: SurroundState) -> bool:
        """Someone crashed."""
        return any(state.crashed)

    def current_players(self, state: SurroundState) -> tuple[int, ...]:
        """Both players move every step until someone crashes."""
        return () if self.is_terminal(state) else (0, 1)

    def legal_actions(self, state: SurroundState, player: int) -> tuple[str, ...]:
        """The four moves (always; moving into a wall is legal and crashes)."""
        if self.is_terminal(state) or player not in (0, 1):
            return ()
        return ACTIONS

    def _apply(
        self, state: SurroundState, actions: Mapping[int, str]
    ) -> tuple[SurroundState, list[Event]]:
        grid, traces, crashed = step(state.grid, state.traces, (actions[0], actions[1]))
        events: list[Event] = [{"type": "move", "actions": {str(p): a for p, a in actions.items()}}]
        if any(crashed):
            events.append({"type": "crash", "players": [p for p in (0, 1) if crashed[p]]})
            if all(crashed):
                events.append({"type": "draw"})
            else:
                events.append({"type": "win", "player": crashed.index(False)})
        new = SurroundState(
            seed=state.seed, turn=state.turn + 1, grid=grid, traces=traces, crashed=crashed
        )
        return new, events

    def returns(self, state: SurroundState) -> tuple[float, ...]:
        """A lone crash loses (-1, the other +1); a double crash or no crash yet is 0 each."""
        if state.crashed == (True, False):
            return (-1.0, 1.0)
        if state.crashed == (False, True):
            return (1.0, -1.0)
        return (0.0, 0.0)

    def action_mentions(self, state: SurroundState, player: int, text: str) -> list[Mention]:
        """``Move Up``, ``Move Down``, ``Move Left``, ``Move Right``, any case and spacing."""
        return _PHRASES(text)

    def fallback_action(self, state: SurroundState, player: int, rng: random.Random) -> str | None:
        """Keep going the same way: GAMEBoT sent Atari's no-op, which keeps the heading."""
        if not self.legal_actions(state, player):
            return None
        return heading(state.traces[player], player)

    def observation(self, state: SurroundState, player: int) -> str:
        """GAMEBoT's trace and cell list for ``player``."""
        return observation_text(state, player)

    def render(self, state: SurroundState) -> str:
        """The grid as characters."""
        return render_text(state)

    def ground_truth(self, state: SurroundState, player: int) -> dict[int, Answer]:
        """Neighbour values (1), valid moves (2) and their safety (3)."""
        return surround_truth(state, player)
