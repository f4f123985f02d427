"""Crafter (Hafner, 2021) through the ``crafter`` package, as SPRING and SmartPlay play it.

One player explores a procedurally generated 64x64 world, gathers materials, crafts tools
and survives (health, food, drink and energy, each 0-9). 17 actions, all always allowed
(an action whose requirements are not met does nothing); 22 achievements. The episode
ends when health reaches 0 or after ``length`` steps (10,000 by default, as in the package
and SmartPlay).

**State.** The package's world cannot be written as a small pure value, so a state is
``(seed, turn, actions)``: the episode seed and the actions taken so far, one character
per action (:data:`ACTION_CODES`, the index in the package's action order). The world it
describes is rebuilt by replaying and cached (see :mod:`langgraph_games.games.crafter._live`):
normal stepping costs one ``env.step``, observing a seen state is a look-up.

**Observation.** The text descriptor of SPRING's code (SmartPlay's), read from the world
state: the last action, the nearest instance of every kind of thing in the 9x7 local
view with its distance and direction, what the player faces, the four vitals out of 9 and
the inventory (:func:`~langgraph_games.games.crafter.render.describe`).

**Reward.** The package's: +1 on a step that unlocks an achievement for the first time
in the episode, plus the change of health divided by 10. ``returns`` is its sum.

**Parsing.** SPRING's rule by default: the first action name, in the package's action
order, that occurs in the answer (case-insensitive); options select SmartPlay's earliest
position or whole-word matching (:mod:`langgraph_games.games.matching`). When nothing is
named, the fallback is ``default_action`` ("Do", SPRING's; SmartPlay used "Noop").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, cast

from pydantic import Field, field_validator

from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.crafter._live import (
    ACTION_CODES,
    Snapshot,
    cache_info,
    clear_caches,
    set_cache_limits,
    snapshot,
)
from langgraph_games.games.crafter.data import (
    ACHIEVEMENTS,
    ACTION_NAMES,
    TECH_TREE_DEPTH,
)
from langgraph_games.games.crafter.manual import action_descriptions, crafter_manual
from langgraph_games.games.crafter.render import describe, render_state
from langgraph_games.games.matching import match_action
from langgraph_games.games.registry import register
from langgraph_games.games.state import GameState

__all__ = [
    "ACHIEVEMENTS",
    "ACTION_CODES",
    "ACTION_NAMES",
    "TECH_TREE_DEPTH",
    "Crafter",
    "CrafterOptions",
    "CrafterState",
    "Snapshot",
    "cache_info",
    "clear_caches",
    "set_cache_limits",
]

_CODE_OF = {name: ACTION_CODES[i] for i, name in enumerate(ACTION_NAMES)}
_SORTED_ACTIONS = tuple(sorted(ACTION_NAMES))


@dataclass(frozen=True, slots=True)
class CrafterState(GameState):
    """A Crafter position: the seed and the actions taken so far.

    Attributes:
        actions: One character of ``"0123456789abcdefg"`` per action taken, giving the
            action's index in the package's order (``"0"`` Noop ... ``"g"`` Make Iron Sword).
    """

    actions: str

    type_name: ClassVar[str] = "crafter"

    def validate(self) -> tuple[str, str] | None:
        """Check that ``actions`` holds ``turn`` action codes."""
        if len(self.actions) != self.turn:
            return ("actions", f"holds {len(self.actions)} actions but turn is {self.turn}")
        bad = sorted(set(self.actions) - set(ACTION_CODES))
        if bad:
            return ("actions", f"holds characters that are not action codes: {bad}")
        return GameState.validate(self)


class CrafterOptions(GameOptions):
    """Options of the Crafter game."""

    length: int = Field(10_000, ge=1, description="episode length limit in steps")
    parse_rule: Literal["list_order", "earliest_position", "word_boundary"] = Field(
        "list_order",
        description="how parse_action reads an answer: list_order (SPRING), "
        "earliest_position (SmartPlay) or word_boundary",
    )
    default_action: str = Field(
        "Do", description="fallback when an answer names no action (SPRING: Do; SmartPlay: Noop)"
    )

    @field_validator("default_action")
    @classmethod
    def _known_action(cls, value: str) -> str:
        if value not in ACTION_NAMES:
            raise ValueError(f"must be one of {', '.join(ACTION_NAMES)}")
        return value


@register
class Crafter(Game[CrafterState]):
    """Crafter through the ``crafter`` package (needs the ``crafter`` extra)."""

    id = "crafter"
    family = "crafter"
    name = "Crafter"
    description = (
        "Open-world survival (Hafner 2021): gather, craft and survive for 22 achievements; "
        "SPRING/SmartPlay text view."
    )
    source = "SPRING / SmartPlay"
    player_names = ("player",)
    Options = CrafterOptions
    State = CrafterState
    return_scale = float(len(ACHIEVEMENTS))

    action_names: ClassVar[tuple[str, ...]] = ACTION_NAMES
    """The 17 actions in the package's order (the order SPRING's parsing rule walks)."""

    @property
    def settings(self) -> CrafterOptions:
        """The validated options, typed."""
        return cast(CrafterOptions, self.options)

    @property
    def length(self) -> int:
        """The episode length limit."""
        return self.settings.length

    def snapshot(self, state: CrafterState) -> Snapshot:
        """The world described by ``state`` (rebuilt by replay if it is not cached)."""
        return snapshot(state.seed, self.length, state.actions)

    # ----- rules ------------------------------------------------------------------------

    def initial_state(self, seed: int = 0) -> CrafterState:
        """The start of the episode played on the world of ``seed``."""
        return CrafterState(seed=seed, turn=0, actions="")

    def current_players(self, state: CrafterState) -> tuple[int, ...]:
        """The single player until the episode ends."""
        return () if self.is_terminal(state) else (0,)

    def legal_actions(self, state: CrafterState, player: int) -> tuple[str, ...]:
        """All 17 actions (sorted) while the episode runs."""
        if player != 0 or self.is_terminal(state):
            return ()
        return _SORTED_ACTIONS

    def is_legal(self, state: CrafterState, player: int, action: str) -> bool:
        """Any of the 17 action names, while the episode runs."""
        return player == 0 and action in _CODE_OF and not self.is_terminal(state)

    def _apply(
        self, state: CrafterState, actions: Mapping[int, str]
    ) -> tuple[CrafterState, list[Event]]:
        action = actions[0]
        new = CrafterState(
            seed=state.seed, turn=state.turn + 1, actions=state.actions + _CODE_OF[action]
        )
        before = self.snapshot(state)
        after = self.snapshot(new)
        return new, _events(before, after)

    def is_terminal(self, state: CrafterState) -> bool:
        """Whether the player died or the length limit was reached."""
        return state.turn >= self.length or self.snapshot(state).done

    def returns(self, state: CrafterState) -> tuple[float, ...]:
        """The reward collected so far."""
        return (self.snapshot(state).total_reward,)

    # ----- views ------------------------------------------------------------------------

    def observation(self, state: CrafterState, player: int) -> str:
        """The SPRING/SmartPlay text description of the state."""
        return describe(self.snapshot(state))

    def render(self, state: CrafterState) -> str:
        """Vitals, the 9x7 local map, inventory and achievements."""
        return render_state(self.snapshot(state), state.seed)

    def manual(self) -> str:
        """A Crafter manual written from the package's rules (the default SPRING context)."""
        return crafter_manual()

    def action_descriptions(self) -> dict[str, str]:
        """What each action does and needs, one sentence each."""
        return action_descriptions()

    def parse_action(self, state: CrafterState, player: int, text: str) -> str | None:
        """The action named in ``text`` by the ``parse_rule`` option, or ``None``."""
        if self.is_terminal(state):
            return None
        return match_action(text, ACTION_NAMES, self.settings.parse_rule)

    def fallback_action(self, state: CrafterState, player: int, rng: random.Random) -> str | None:
        """The ``default_action`` option ("Do" by default, as in SPRING)."""
        return self.settings.default_action


def _events(before: Snapshot, after: Snapshot) -> list[Event]:
    events: list[Event] = [{"type": "achievement", "name": n} for n in after.new_achievements]
    health_before, health_after = before.item("health"), after.item("health")
    if health_after != health_before:
        events.append({"type": "health", "from": health_before, "to": health_after})
    if after.sleeping != before.sleeping:
        events.append({"type": "sleep" if after.sleeping else "wake"})
    if after.dead:
        events.append({"type": "died"})
    return events
