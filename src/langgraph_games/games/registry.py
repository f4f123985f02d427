"""The game registry: versioned ids, ``make`` and ``list_games``.

A game registers itself with :func:`register` when its module is imported. The registry
imports the games it can find the first time it is consulted: every package in
``langgraph_games/games/`` (found on disk, so a new game is its folder and nothing else),
and every entry point of the ``langgraph_games.games`` group, which outside packages use;
each entry point names a :class:`~langgraph_games.games.base.Game` subclass (or a module
whose import registers some). Entry points are read again when an id is not found or
``sys.path`` has changed since they were last read.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from langgraph_games.games._numbers import read_int
from langgraph_games.games.base import Game, GameInfo
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.games.state import GameState

__all__ = [
    "ENTRY_POINT_GROUP",
    "builtin_game_modules",
    "game_class",
    "game_classes",
    "list_games",
    "make",
    "register",
]

ENTRY_POINT_GROUP = "langgraph_games.games"

C = TypeVar("C", bound=type)

_GAMES: dict[str, dict[int, type[Game[GameState]]]] = {}
_VERSIONED = re.compile(r"^(?P<id>[a-z0-9_]+)-v(?P<version>\d+)$")
_scanned_path: tuple[str, ...] | None = None
_loaded_entry_points: set[tuple[str, str]] = set()
_GAMES_PACKAGE = __name__.rpartition(".")[0]


def register(cls: C) -> C:
    """Class decorator adding a game to the registry under ``cls.id`` and ``cls.version``.

    The registry holds games of every state type, so it hands each one out as a
    ``Game[GameState]``; a state given to an engine must still be one of that engine's
    own (from its :meth:`~langgraph_games.games.base.Game.initial_state`, its moves or
    its ``state_from_json``).

    Raises:
        TypeError: ``cls`` is not a :class:`~langgraph_games.games.base.Game` subclass.
        ValueError: The id is malformed or another class holds the same id and version.
    """
    if not issubclass(cls, Game):
        raise TypeError(f"register() takes a Game subclass, got {cls!r}")
    game: type[Game[GameState]] = cls
    if not re.fullmatch(r"[a-z0-9_]+", game.id):
        raise ValueError(f"game id {game.id!r} must be lower-case letters, digits or '_'")
    versions = _GAMES.setdefault(game.id, {})
    existing = versions.get(game.version)
    if existing is not None and existing is not game:
        raise ValueError(f"game {game.id}-v{game.version} is already registered by {existing!r}")
    versions[game.version] = game
    return cls


def builtin_game_modules() -> list[str]:
    """The game packages of ``langgraph_games/games/``, found on disk without importing."""
    root = Path(__file__).resolve().parent
    return [
        f"{_GAMES_PACKAGE}.{module.name}"
        for module in sorted(pkgutil.iter_modules([str(root)]), key=lambda m: m.name)
        if module.ispkg and not module.name.startswith("_")
    ]


def _load_plugins(*, again: bool = False) -> None:
    """Import the built-in game packages, then the entry points not loaded yet.

    Entry points are read once per ``sys.path`` (and again when ``again``: an id missed).
    """
    global _scanned_path
    path = tuple(sys.path)
    if _scanned_path == path and not again:
        return
    first = _scanned_path is None
    _scanned_path = path
    if first:
        for name in builtin_game_modules():
            importlib.import_module(name)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        key = (entry.name, entry.value)
        if key in _loaded_entry_points:
            continue
        _loaded_entry_points.add(key)
        loaded = entry.load()
        if isinstance(loaded, type) and issubclass(loaded, Game):
            register(loaded)


def _known_ids() -> list[str]:
    ids = []
    for game_id, versions in sorted(_GAMES.items()):
        ids.append(game_id)
        ids.extend(f"{game_id}-v{v}" for v in sorted(versions))
    return ids


def game_class(game_id: str) -> type[Game[GameState]]:
    """Return the class registered as ``game_id`` (``"othello"`` or ``"othello-v1"``).

    A bare id means the newest version.

    Raises:
        UnknownGameError: No game is registered under that id; lists the valid ids.
    """
    _load_plugins()
    match = _VERSIONED.match(game_id)
    base, version = (match["id"], read_int(match["version"])) if match else (game_id, None)
    if match and version is None:  # a version number too long to be any registered one
        raise UnknownGameError(game_id, _known_ids())
    if base not in _GAMES:
        _load_plugins(again=True)
    versions = _GAMES.get(base)
    if not versions or (version is not None and version not in versions):
        raise UnknownGameError(game_id, _known_ids())
    return versions[version if version is not None else max(versions)]


def make(game_id: str, **options: object) -> Game[GameState]:
    """Create a game engine by id with validated options.

    Args:
        game_id: A registered id, optionally with a version suffix (``"connect4-v1"``).
        **options: Game options, checked against the game's options model (its
            ``Options``, listed by ``langgraph-games games``): unknown names and values
            of another type (``"3"`` or ``True`` for a number) are refused.

    Returns:
        The configured engine.

    Raises:
        UnknownGameError: The id is not registered.
        OptionError: An option is unknown or has an invalid value.

    Example:
        >>> game = make("tictactoe")
        >>> game.legal_actions(game.initial_state(seed=0), 0)[:3]
        ('(0,0)', '(0,1)', '(0,2)')
    """
    return game_class(game_id)(**options)


def game_classes() -> list[type[Game[GameState]]]:
    """The newest version of every registered game class, sorted by id."""
    _load_plugins()
    return [versions[max(versions)] for _, versions in sorted(_GAMES.items())]


def list_games() -> list[GameInfo]:
    """Metadata of the newest version of every registered game, sorted by id."""
    _load_plugins()
    return [versions[max(versions)].info() for _, versions in sorted(_GAMES.items())]
