"""Action universes: every action string a game can ever take, in one fixed order.

Reinforcement-learning APIs want a fixed action space, while an engine only lists the
actions that are legal now. A game's *action universe* is the fixed tuple of every
canonical action string it can take under its options, so that ``Discrete(n)`` index
``i`` always means the same move and an action mask marks the legal ones.

Each built-in game has an enumerator built from the engine's own names (its constants
and naming helpers), never from a copy of its rules. Two games need a bound:

* Negotiation's proposals name both shares, so the universe is ``Agree`` and every
  division of every pool the deal can draw (three item types, 8-12 items, at least one
  of each): 12,544 actions, of which about a hundred are legal in a given episode.
* Minesweeper's depends on its ``rows``/``cols`` options (a triple per cell and flag or
  reveal) and, with ``invalid_moves="step"``, the three ``invalid:*`` answers.

Crafter's 17 actions, Match-2's tiles and props and Checkers' steps and jumps between
dark squares are small. A game added by a plugin registers its own enumerator with
:func:`register_action_universe`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from langgraph_games.games import connect4, tictactoe
from langgraph_games.games.base import Game
from langgraph_games.games.checkers import rules as checkers
from langgraph_games.games.crafter import ACTION_NAMES as CRAFTER_ACTIONS
from langgraph_games.games.match2 import INVALID as MATCH2_INVALID
from langgraph_games.games.match2 import rules as match2
from langgraph_games.games.maze.rules import ACTIONS as MAZE_ACTIONS
from langgraph_games.games.minesweeper import INVALID_TOKENS as MINESWEEPER_INVALID
from langgraph_games.games.negotiation import rules as negotiation
from langgraph_games.games.othello.rules import SQUARES as OTHELLO_SQUARES
from langgraph_games.games.pong import ACTIONS as PONG_ACTIONS
from langgraph_games.games.registry import make
from langgraph_games.games.smartplay import bandit, hanoi, rock_paper_scissors
from langgraph_games.games.smartplay.messenger.rules import ACTIONS as MESSENGER_ACTIONS
from langgraph_games.games.surround import ACTIONS as SURROUND_ACTIONS
from langgraph_games.games.texas_holdem.rules import ACTIONS as HOLDEM_ACTIONS

__all__ = [
    "ActionEnumerator",
    "ActionUniverse",
    "all_actions",
    "register_action_universe",
]

ActionEnumerator = Callable[[Game[Any]], Sequence[str]]
"""A function of a configured engine returning its action universe in a fixed order."""


def _checkers(game: Game[Any]) -> list[str]:
    """Steps and jumps (one or two diagonal squares) between dark squares, both ways."""
    size = checkers.SIZE
    board = checkers.initial_board()
    dark = {(i // size + i % size) % 2 for i, piece in enumerate(board) if piece != checkers.EMPTY}
    moves = []
    for start in range(size * size):
        r, c = divmod(start, size)
        if (r + c) % 2 not in dark:
            continue
        for distance in (1, 2):
            for dr in (-distance, distance):
                for dc in (-distance, distance):
                    r1, c1 = r + dr, c + dc
                    if 0 <= r1 < size and 0 <= c1 < size:
                        move = checkers.Move(start, r1 * size + c1, -1)
                        moves.append(checkers.move_name(move))
    return moves


def _negotiation(game: Game[Any]) -> list[str]:
    """``Agree`` and every division of every pool the deal can draw."""
    names = [negotiation.AGREE]
    low, high = negotiation.MIN_ITEMS, negotiation.MAX_ITEMS
    for size in range(low, high + 1):
        for first in range(1, size - 1):
            for second in range(1, size - first):
                pool = (first, second, size - first - second)
                names.extend(negotiation.proposal_name(p) for p in negotiation.splits(pool))
    return names


def _minesweeper(game: Game[Any]) -> list[str]:
    """``r``/``f`` triples on every cell, and the ``invalid:*`` answers in step mode."""
    options: Any = game.options
    names = [
        f"{letter},{row},{col}"
        for letter in "rf"
        for row in range(options.rows)
        for col in range(options.cols)
    ]
    if options.invalid_moves == "step":
        names.extend(MINESWEEPER_INVALID)
    return names


def _match2(game: Game[Any]) -> list[str]:
    """``eliminate`` on every tile, each prop on every target, and ``invalid`` in step mode."""
    options: Any = game.options
    size = match2.SIZE
    cells = [f"{r},{c}" for r in range(size) for c in range(size)]
    names = [f"eliminate,{cell}" for cell in cells]
    if options.props:
        for prop in match2.PROPS:
            targets = [str(i) for i in range(size)] if prop in ("row", "col") else cells
            names.extend(f"{prop},{target}" for target in targets)
    if options.invalid_moves == "step":
        names.append(MATCH2_INVALID)
    return names


def _fixed(actions: Sequence[str]) -> ActionEnumerator:
    return lambda game: actions


_UNIVERSES: dict[str, ActionEnumerator] = {
    "bandit": _fixed(bandit.ACTIONS),
    "checkers": _checkers,
    "connect4": _fixed(connect4.CELLS),
    "crafter": _fixed(CRAFTER_ACTIONS),
    "hanoi": _fixed(hanoi.ACTIONS),
    "match2": _match2,
    "maze": _fixed(MAZE_ACTIONS),
    "messenger": _fixed(MESSENGER_ACTIONS),
    "minesweeper": _minesweeper,
    "negotiation": _negotiation,
    "othello": _fixed(OTHELLO_SQUARES),
    "pong": _fixed(PONG_ACTIONS),
    "rock_paper_scissors": _fixed(rock_paper_scissors.ACTIONS),
    "surround": _fixed(SURROUND_ACTIONS),
    "texas_holdem": _fixed(HOLDEM_ACTIONS),
    "tictactoe": _fixed(tictactoe.CELLS),
}


def register_action_universe(game_id: str, enumerate_actions: ActionEnumerator) -> None:
    """Declare the action universe of a game (e.g. one a plugin adds).

    Args:
        game_id: The game's registry id, without version.
        enumerate_actions: Returns every canonical action string the configured engine
            can ever take, in a fixed order and without repeats.
    """
    _UNIVERSES[game_id] = enumerate_actions


def all_actions(game: Game[Any] | str, **options: Any) -> tuple[str, ...]:
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
    enumerate_actions = _UNIVERSES.get(engine.id)
    if enumerate_actions is None:
        known = ", ".join(sorted(_UNIVERSES))
        raise ValueError(
            f"No action universe is known for game {engine.id!r} (known: {known}); "
            "declare one with register_action_universe(game_id, function)."
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
    def of(cls, game: Game[Any]) -> ActionUniverse:
        """The universe of a configured engine (see :func:`all_actions`)."""
        actions = all_actions(game)
        return cls(game.id, actions, {a: i for i, a in enumerate(actions)})

    def __len__(self) -> int:
        return len(self.actions)

    def action(self, index: Any) -> str:
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
                    "action universe; its enumerator in langgraph_games.integrations.actions "
                    "misses it."
                )
            mask[i] = 1
        return mask
