"""What a game folder declares for the rest of the package, beside its engine.

A game's engine (its :class:`~langgraph_games.games.base.Game` class) is all the game
contract needs. The tools, the RL adapters, the search player and the serve page each
want one more fact about a game, and each reads it from the game's own folder: a module
``parts.py`` beside the game's class (in the same package, or the package holding the
class's module) with a dict ``PARTS`` of game id to :class:`GameParts`::

    PARTS = {"tictactoe": GameParts(move_schema=..., actions=..., search=Search(None, ...))}

Every field is optional; a game without ``parts.py`` gets :class:`GameParts` defaults
(the generic ``action: str`` move, no action universe, no search, no clickable grid, no
objective). :func:`parts_of` finds the module the first time a game is asked for, the way
the replay page finds a game's ``replay.py`` (:func:`companion_module` serves both), so a
game added by an outside package declares its parts in its own package too.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from langgraph_games.games.base import Game
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.games.move_schema import SchemaBuilder
from langgraph_games.games.registry import game_class, game_classes
from langgraph_games.games.state import GameState

__all__ = [
    "WIN",
    "ActionEnumerator",
    "BoardGrid",
    "Evaluator",
    "GameParts",
    "PartsView",
    "Search",
    "companion_module",
    "fixed_actions",
    "own_state",
    "parts_of",
]

T = TypeVar("T")
St = TypeVar("St", bound=GameState)

WIN = 1_000_000.0
"""The value of a won position in search; a heuristic stays well inside ``(-WIN, WIN)``."""

Evaluator = Callable[[Game[GameState], GameState, int], float]
"""A search heuristic ``(game, state, player) -> float``: larger is better for ``player``."""


def own_state(state: GameState, kind: type[St], reader: str) -> St:
    """``state`` as the state class ``kind`` that ``reader`` (e.g. a heuristic) reads.

    Raises:
        TypeError: ``state`` is another game's state; names both classes.

    Example:
        >>> from langgraph_games.games.tictactoe import TicTacToe, TicTacToeState
        >>> state = own_state(TicTacToe().initial_state(), TicTacToeState, "tictactoe_eval")
        >>> type(state).__name__
        'TicTacToeState'
    """
    if not isinstance(state, kind):
        raise TypeError(f"{reader} reads a {kind.__name__}, got a {type(state).__name__}")
    return state


ActionEnumerator = Callable[[Game[GameState]], Sequence[str]]
"""A function of a configured engine returning its action universe in a fixed order."""


@dataclass(frozen=True)
class Search:
    """How a two-player, turn-based, zero-sum game is searched (``minimax`` plays it).

    Attributes:
        depth: Plies searched by default; ``None`` searches to the end (exact; small
            games only).
        heuristic: Scores a non-terminal leaf (needed unless ``depth`` is ``None``).
    """

    depth: int | None
    heuristic: Evaluator | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.heuristic is None:
            raise ValueError("a depth-limited search needs a heuristic (or depth=None: exact)")


@dataclass(frozen=True)
class BoardGrid:
    """A board shown as a clickable grid (the serve page); others get one button per move.

    The state's ``board`` is a row-major string; each legal move is ``(row,col)``.

    Attributes:
        rows: Rows of the board.
        cols: Columns of the board.
        bottom_up: Row 0 is drawn at the bottom, and a click anywhere in a column plays
            that column's legal move (Connect4).
    """

    rows: int
    cols: int
    bottom_up: bool = False


@dataclass(frozen=True)
class GameParts:
    """One game's declarations (every field optional).

    Attributes:
        move_schema: The typed move a model fills in (``(game, state) -> MoveSchema``;
            ``None``: the generic ``action: str``).
        actions: The action universe for fixed action spaces (PettingZoo, Gymnasium):
            every canonical action the configured engine can take, in a fixed order.
        search: How ``minimax`` searches it (``None``: minimax does not play it).
        grid: How the serve page draws it as a clickable grid.
        objective: The game has an objective an episode completes or not (its completion
            rate is reported), like Hanoi and Messenger.
    """

    move_schema: SchemaBuilder | None = None
    actions: ActionEnumerator | None = None
    search: Search | None = None
    grid: BoardGrid | None = None
    objective: bool = False


NONE = GameParts()
_PARTS: dict[str, GameParts] = {}


def fixed_actions(actions: Sequence[str]) -> ActionEnumerator:
    """An action universe that depends on no option."""
    return lambda game: actions


def companion_module(game_id: str, name: str) -> str | None:
    """The module ``name`` beside a game's class, if it exists (``None`` otherwise).

    "Beside" is the class's package: its module when that is a package, else the package
    holding it (``games.smartplay.bandit`` -> ``games.smartplay.<name>``).
    """
    try:
        module_name = game_class(game_id).__module__
    except UnknownGameError:
        return None
    module = sys.modules.get(module_name)
    is_package = module is not None and hasattr(module, "__path__")
    package = module_name if is_package else module_name.rpartition(".")[0]
    if not package:
        return None
    full = f"{package}.{name}"
    return full if importlib.util.find_spec(full) is not None else None


def parts_of(game: Game[GameState] | type[Game[GameState]] | str) -> GameParts:
    """The parts a game declares (defaults when its folder has no ``parts.py``).

    Args:
        game: An engine, a game class or a game id (with or without version).

    Example:
        >>> parts_of("connect4").grid
        BoardGrid(rows=6, cols=7, bottom_up=True)
        >>> parts_of("negotiation").search is None
        True
    """
    game_id = game if isinstance(game, str) else game.id
    base = game_id.split("-v")[0]
    found = _PARTS.get(base)
    if found is None:
        found = NONE
        name = companion_module(base, "parts")
        if name is not None:
            declared: Mapping[str, GameParts] = getattr(importlib.import_module(name), "PARTS", {})
            found = declared.get(base, NONE)
        _PARTS[base] = found
    return found


class PartsView(Mapping[str, T], Generic[T]):
    """A read-only mapping of game id to one declared part, over every registered game.

    Args:
        pick: The part of a game's :class:`GameParts`, or ``None`` where it declares none.
    """

    def __init__(self, pick: Callable[[GameParts], T | None]) -> None:
        self._pick = pick

    def _items(self) -> dict[str, T]:
        found = {}
        for cls in game_classes():
            value = self._pick(parts_of(cls))
            if value is not None:
                found[cls.id] = value
        return found

    def __getitem__(self, game_id: str) -> T:
        value = self._pick(parts_of(game_id))
        if value is None:
            raise KeyError(game_id)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())
