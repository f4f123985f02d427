"""The game registry: versioned ids, ``make`` and ``list_games``.

Built-in games register themselves when :mod:`langgraph_games.games` is imported.
Third-party packages add games through the ``langgraph_games.games`` entry-point group;
each entry point names a :class:`~langgraph_games.games.base.Game` subclass (or a module
whose import registers some), loaded the first time the registry is consulted.
"""

from __future__ import annotations

import re
from importlib import metadata
from typing import Any, TypeVar

from langgraph_games.games._numbers import read_int
from langgraph_games.games.base import Game, GameInfo
from langgraph_games.games.errors import UnknownGameError

__all__ = [
    "ENTRY_POINT_GROUP",
    "game_class",
    "game_classes",
    "list_games",
    "make",
    "register",
]

ENTRY_POINT_GROUP = "langgraph_games.games"

G = TypeVar("G", bound=type[Game[Any]])

_GAMES: dict[str, dict[int, type[Game[Any]]]] = {}
_VERSIONED = re.compile(r"^(?P<id>[a-z0-9_]+)-v(?P<version>\d+)$")
_plugins_loaded = False


def register(cls: G) -> G:
    """Class decorator adding a game to the registry under ``cls.id`` and ``cls.version``.

    Raises:
        ValueError: The id is malformed or another class holds the same id and version.
    """
    if not re.fullmatch(r"[a-z0-9_]+", cls.id):
        raise ValueError(f"game id {cls.id!r} must be lower-case letters, digits or '_'")
    versions = _GAMES.setdefault(cls.id, {})
    existing = versions.get(cls.version)
    if existing is not None and existing is not cls:
        raise ValueError(f"game {cls.id}-v{cls.version} is already registered by {existing!r}")
    versions[cls.version] = cls
    return cls


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = entry.load()
        if isinstance(loaded, type) and issubclass(loaded, Game):
            register(loaded)


def _known_ids() -> list[str]:
    ids = []
    for game_id, versions in sorted(_GAMES.items()):
        ids.append(game_id)
        ids.extend(f"{game_id}-v{v}" for v in sorted(versions))
    return ids


def game_class(game_id: str) -> type[Game[Any]]:
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
    versions = _GAMES.get(base)
    if not versions or (version is not None and version not in versions):
        raise UnknownGameError(game_id, _known_ids())
    return versions[version if version is not None else max(versions)]


def make(game_id: str, **options: Any) -> Game[Any]:
    """Create a game engine by id with validated options.

    Args:
        game_id: A registered id, optionally with a version suffix (``"connect4-v1"``).
        **options: Game options; unknown names and invalid values are rejected.

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


def game_classes() -> list[type[Game[Any]]]:
    """The newest version of every registered game class, sorted by id."""
    _load_plugins()
    return [versions[max(versions)] for _, versions in sorted(_GAMES.items())]


def list_games() -> list[GameInfo]:
    """Metadata of the newest version of every registered game, sorted by id."""
    _load_plugins()
    return [versions[max(versions)].info() for _, versions in sorted(_GAMES.items())]
