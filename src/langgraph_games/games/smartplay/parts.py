"""Bandit's, Rock-Paper-Scissors' and Hanoi's parts: typed moves by name, action universes.

Hanoi has an objective (the tower moved), so its completion rate is reported.
"""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveSchema, named_actions
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.smartplay import bandit, hanoi, rock_paper_scissors
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "smartplay_schema"]


def smartplay_schema(game: Game[GameState], state: GameState | None) -> MoveSchema:
    """A SmartPlay game's move: one of its listed actions, by name."""
    at = state if state is not None else game.initial_state(0)
    return named_actions(game.action_list(at), game)  # type: ignore[attr-defined]


PARTS = {
    "bandit": GameParts(smartplay_schema, fixed_actions(bandit.ACTIONS)),
    "rock_paper_scissors": GameParts(smartplay_schema, fixed_actions(rock_paper_scissors.ACTIONS)),
    "hanoi": GameParts(smartplay_schema, fixed_actions(hanoi.ACTIONS), objective=True),
}
