"""Messenger levels 1 and 2 (SmartPlay's ``MessengerL1-v0`` and ``MessengerL2-v0``).

Our own implementation (the released one needs the VGDL engine, which cannot be
installed); the rules are in :mod:`.rules`, the text views in :mod:`.render` and the
manuals, written for this project, in :mod:`.manual`.

Score (SmartPlay): the reward of the final step (-1, 0, 0.5 or 1). Human 1, minimum -1.
Completion: the episode ended with a reward of 1 (a delivered message; on level 1 also
picking the message up, which ends the level-1 episode with +1 as released).
Episodes last 4 steps on level 1 and 64 on level 2; the model sees the last 2
observations as history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from langgraph_games.games.base import Event, GameOptions
from langgraph_games.games.registry import register
from langgraph_games.games.smartplay._base import SmartPlayGame
from langgraph_games.games.smartplay.messenger import manual, render, rules
from langgraph_games.games.smartplay.messenger.rules import ACTIONS, LEVEL_STEPS, MessengerState

__all__ = ["Messenger", "MessengerOptions", "MessengerState"]


class MessengerOptions(GameOptions):
    """Options of Messenger."""

    level: Literal[1, 2] = Field(
        1, description="1: immovable entities, 4 steps; 2: chasing/fleeing/immovable, 64 steps"
    )


@register
class Messenger(SmartPlayGame[MessengerState]):
    """Messenger: fetch the message and deliver it to the goal, avoiding the enemy."""

    id = "messenger"
    name = "Messenger"
    description = "Grid world: carry the message to the goal, avoid the enemy (levels 1-2)."
    Options = MessengerOptions
    options: MessengerOptions
    State = MessengerState
    history_length = 2
    return_scale = 1.5

    @property
    def level(self) -> int:
        """The level played (1 or 2)."""
        return self.options.level

    def initial_state(self, seed: int = 0) -> MessengerState:
        """Roles, movements, placement and the avatar's message drawn from the seed."""
        return rules.initial(seed, self.level)

    def action_list(self, state: MessengerState) -> tuple[str, ...]:
        """``Move North``, ``Move South``, ``Move West``, ``Move East``, ``Do Nothing``."""
        return ACTIONS

    def manual_text(self, state: MessengerState) -> str:
        """Objective, role sentences with synonyms, advice."""
        return manual.manual_text(state)

    def rollout(self) -> int:
        """4 steps on level 1, 64 on level 2."""
        return LEVEL_STEPS[self.level]

    def _apply(
        self, state: MessengerState, actions: Mapping[int, str]
    ) -> tuple[MessengerState, list[Event]]:
        return rules.step(state, ACTIONS.index(actions[0]))

    def is_terminal(self, state: MessengerState) -> bool:
        """A contact ended the episode, or the steps ran out."""
        return state.outcome is not None or state.turn >= LEVEL_STEPS[state.level]

    def returns(self, state: MessengerState) -> tuple[float, ...]:
        """The sum of rewards so far."""
        return (state.total_reward,)

    def observation(self, state: MessengerState, player: int) -> str:
        """The released text view (last action, message status, entities seen)."""
        return render.observation_text(state)

    def render(self, state: MessengerState) -> str:
        """A map of the grid with roles and movements."""
        return render.render_text(state)
