"""Action universes: every action string a game can ever take, in one fixed order.

Reinforcement-learning APIs want a fixed action space, while an engine only lists the
actions that are legal now. A game's *action universe* is the fixed tuple of every
canonical action string it can take under its options, so that ``Discrete(n)`` index
``i`` always means the same move and an action mask marks the legal ones.

Each game declares its enumerator in its own folder (the ``actions`` of its
:class:`~langgraph_games.games.parts.GameParts`, in ``games/<game>/parts.py``), built from
the engine's own names (its constants and naming helpers), never from a copy of its rules.
Two games need a bound:

* Negotiation's proposals name both shares, so the universe is ``Agree`` and every
  division of every pool the deal can draw (three item types, 8-12 items, at least one
  of each): 12,544 actions, of which about a hundred are legal in a given episode.
* Minesweeper's depends on its ``rows``/``cols`` options (a triple per cell and flag or
  reveal) and, with ``invalid_moves="step"``, the three ``invalid:*`` answers.

Crafter's 17 actions, Match-2's tiles and props and Checkers' steps and jumps between
dark squares are small. A game added by a plugin declares its own in its package's
``parts.py``, or registers one here with :func:`register_action_universe`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.parts import ActionEnumerator, PartsView, parts_of
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState

__all__ = [
    "ActionEnumerator",
    "ActionUniverse",
    "all_actions",
    "register_action_universe",
]

_REGISTERED: dict[str, ActionEnumerator] = {}
_DECLARED = PartsView(lambda parts: parts.actions)


def register_action_universe(game_id: str, enumerate_actions: ActionEnumerator) -> None:
    """Declare the action universe of a game (e.g. one a plugin adds).

    Args:
        game_id: The game's registry id, without version.
        enumerate_actions: Returns every canonical action string the configured engine
            can ever take, in a fixed order and without repeats.
    """
    _REGISTERED[game_id] = enumerate_actions


def all_actions(game: Game[GameState] | str, **options: object) -> tuple[str, ...]:
    """Every action string ``game`` can take under its options, in a fixed order.

    Args:
        game: A configured engine, or a registered id (then ``options`` configure it).
        **options: Game options when ``game`` is an id.

    Returns:
        The universe; the legal actions of every state are a subset of it.

    Raises:
        ValueError: No enumerator is known for the game, or it repeats an action.

    Example:
        >>> all_actions("tictactoe")[:3]
        ('(0,0)', '(0,1)', '(0,2)')
        >>> len(all_actions("negotiation"))
        12544
    """
    engine = make(game, **options) if isinstance(game, str) else game
    enumerate_actions = _REGISTERED.get(engine.id) or parts_of(engine).actions
    if enumerate_actions is None:
        known = ", ".join(sorted({*_REGISTERED, *_DECLARED}))
        raise ValueError(
            f"No action universe is known for game {engine.id!r} (known: {known}); "
            "declare one in the game's parts.py (GameParts(actions=...)) or with "
            "register_action_universe(game_id, function)."
        )
    actions = tuple(enumerate_actions(engine))
    seen: set[str] = set()
    for action in actions:
        if action in seen:
            raise ValueError(f"The action universe of {engine.id!r} lists {action!r} twice.")
        seen.add(action)
    return actions


@dataclass(frozen=True)
class ActionUniverse:
    """A game's action universe with its index, for ``Discrete(n)`` spaces and masks.

    Attributes:
        game_id: The game's id.
        actions: Every action, in index order.
        index: The index of each action.
    """

    game_id: str
    actions: tuple[str, ...]
    index: Mapping[str, int] = field(repr=False)

    @classmethod
    def of(cls, game: Game[GameState]) -> ActionUniverse:
        """The universe of a configured engine (see :func:`all_actions`)."""
        actions = all_actions(game)
        return cls(game.id, actions, {a: i for i, a in enumerate(actions)})

    def __len__(self) -> int:
        return len(self.actions)

    def action(self, index: object) -> str:
        """The action string at ``index``.

        Raises:
            ValueError: ``index`` is not an integer in ``0..n-1``.
        """
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
                index = int(index)
            else:
                raise ValueError(
                    f"{self.game_id}: an action must be an integer index into the action "
                    f"universe (0..{len(self) - 1}), got {index!r}"
                )
        if not 0 <= index < len(self.actions):
            raise ValueError(
                f"{self.game_id}: action index {int(index)} is outside the action universe "
                f"(0..{len(self) - 1})"
            )
        return self.actions[int(index)]

    def mask(self, legal: Iterable[str]) -> np.ndarray[Any, np.dtype[np.int8]]:
        """An ``int8`` vector with 1 at the index of each action in ``legal``.

        Raises:
            ValueError: A legal action is missing from the universe (an enumerator bug;
                the message names it rather than hiding the move).
        """
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for action in legal:
            i = self.index.get(action)
            if i is None:
                raise ValueError(
                    f"{self.game_id}: the legal action {action!r} is not in the game's "
                    "action universe; its enumerator (the actions of its GameParts) misses "
                    "it."
                )
            mask[i] = 1
        return mask
