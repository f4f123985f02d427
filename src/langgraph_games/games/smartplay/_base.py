"""What every SmartPlay game shares: the ordered action list, the manual, the match rule.

SmartPlay (Wu et al.) gives the model a manual, a window of past observations and the
current observation, then asks for "the exact chosen action" from a numbered list. The
engines here keep the list in the released order (``action_list``), so the baseline's
"action 0 by default" and the numbering in the manual mean what they meant there, while
``legal_actions`` stays sorted as the game contract requires.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState

__all__ = ["SmartPlayGame", "describe_actions", "earliest_match"]

S = TypeVar("S", bound=GameState)


def describe_actions(actions: Sequence[str]) -> str:
    """The numbered action list SmartPlay appends to every manual.

    Example:
        >>> print(describe_actions(["Rock", "Paper"]))
        List of all actions:
        1. Rock
        2. Paper
    """
    return "List of all actions:\n" + "\n".join(f"{i}. {a}" for i, a in enumerate(actions, 1))


def earliest_match(text: str, actions: Sequence[str]) -> int | None:
    """Index of the action whose name occurs earliest in ``text`` (case-insensitive).

    This is SmartPlay's matching rule: among the action names found anywhere in the
    answer, the one that starts first wins; on a tie the one listed first. ``None`` when
    no action name occurs.

    Example:
        >>> earliest_match("Paper beats Rock, so: Paper", ["Rock", "Paper", "Scissor"])
        1
        >>> earliest_match("no idea", ["Rock", "Paper"]) is None
        True
    """
    lowered = text.lower()
    best: tuple[int, int] | None = None
    for index, action in enumerate(actions):
        position = lowered.find(action.lower())
        if position >= 0 and (best is None or position < best[0]):
            best = (position, index)
    return None if best is None else best[1]


class SmartPlayGame(Game[S]):
    """Base of the single-seat SmartPlay games.

    Every action of the released list can always be taken (an action with no effect,
    such as moving a disk onto a smaller one, is a move the game punishes, not an
    illegal one), so ``legal_actions`` is the whole list, sorted, until the episode ends.

    Attributes:
        history_length: How many past observations the released environment shows.
        human_score: The released human score of the paper's setting (for normalising).
        min_score: The released minimum score of that setting.
    """

    source = "SmartPlay"
    family = "smartplay"
    player_names = ("player",)
    history_length: ClassVar[int]

    @abstractmethod
    def action_list(self, state: S) -> tuple[str, ...]:
        """The actions in the released order (the numbering of the manual's list)."""

    @abstractmethod
    def manual_text(self, state: S) -> str:
        """The manual without the action list (background, rules, examples, advice)."""

    @abstractmethod
    def rollout(self) -> int:
        """Number of steps of an episode (the released ``default_steps``)."""

    def manual(self, state: S) -> str:
        """The manual shown to the model: our text followed by the numbered action list."""
        return f"{self.manual_text(state)}\n\n{describe_actions(self.action_list(state))}"

    def current_players(self, state: S) -> tuple[int, ...]:
        """The single seat, until the episode ends."""
        return () if self.is_terminal(state) else (0,)

    def legal_actions(self, state: S, player: int) -> tuple[str, ...]:
        """Every action of the list, sorted (empty once the episode is over)."""
        if player != 0 or self.is_terminal(state):
            return ()
        return tuple(sorted(self.action_list(state)))

    def is_legal(self, state: S, player: int, action: str) -> bool:
        """The action is on the list and the episode is running."""
        return player == 0 and not self.is_terminal(state) and action in self.action_list(state)

    def action_index(self, state: S, action: str) -> int:
        """Position of ``action`` in the released list."""
        return self.action_list(state).index(action)

    def parse_action(self, state: S, player: int, text: str) -> str | None:
        """SmartPlay's rule: the action named earliest in ``text``, or ``None``."""
        if not self.is_legal(state, player, self.action_list(state)[0]):
            return None
        index = earliest_match(text, self.action_list(state))
        return None if index is None else self.action_list(state)[index]

    def fallback_action(self, state: S, player: int, rng: random.Random) -> str | None:
        """The released baseline's choice when no action is named: action 0 of the list."""
        if self.is_terminal(state):
            return None
        return self.action_list(state)[0]
