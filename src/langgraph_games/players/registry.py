"""The one player registry: search players and LLM strategies by name, with typed settings.

Specs follow one syntax, ``name[:key=value...][:<model spec>]`` (see
:mod:`langgraph_games.players.spec`): ``minimax:depth=3``, ``gamebot:variant=cot:local``,
``spring:variant=no_dag``. Search players register in :mod:`langgraph_games.players.builtin`;
each LLM strategy family registers its own entry from its package under
``langgraph_games.graphs``. This module imports no strategy: :data:`PLAYERS` holds a table
of plugin modules (every ``langgraph_games/graphs/<family>/registration.py``, found on
disk by name) and imports them with :func:`importlib.import_module` the first time a name
it does not know is looked up or the whole list is asked for, so ``import
langgraph_games`` does not load LangGraph and every strategy.

Outside packages add players through the ``langgraph_games.players`` entry-point group
(:data:`ENTRY_POINT_GROUP`), as games come through ``langgraph_games.games``: each entry
point names a :class:`~langgraph_games.players.entry.PlayerEntry` (registered as it is)
or a module whose import registers some. :data:`PLAYERS` reads them with the strategy
families, and again when a name is not found or ``sys.path`` has changed since.

A former name (``gamebot_cot``, now ``gamebot:variant=cot``) is refused with one line
that gives its current spelling (:attr:`PlayerEntry.renamed
<langgraph_games.players.entry.PlayerEntry.renamed>`). A player is named by its spec as
written, so results tables and run-spec hashes keep the spelling the user chose.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.models.factory import ACCEPTED_FORMS
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerEntry, PlayerRecipe
from langgraph_games.players.errors import PlayerSettingError, PlayerSpecError, UnknownPlayerError
from langgraph_games.players.spec import PlayerSpec, split_spec

__all__ = [
    "DEFAULT_MODEL",
    "ENTRY_POINT_GROUP",
    "PLAYERS",
    "PlayerRegistry",
    "PlayerSettingError",
    "PlayerSpecError",
    "UnknownPlayerError",
    "accepted_forms",
    "complete_model",
    "make_player",
    "parse_spec",
    "player_entries",
    "player_entry",
    "register_player",
    "resolve_player",
]

DEFAULT_MODEL = "local"
"""The model of an LLM strategy whose spec names none."""

ENTRY_POINT_GROUP = "langgraph_games.players"
"""The entry-point group outside packages add players through."""


class PlayerRegistry:
    """Players by name, parsed and resolved from spec strings.

    Args:
        entry_points: An entry-point group whose players it reads too (``None``: none).
    """

    def __init__(self, entry_points: str | None = None) -> None:
        self._entries: dict[str, PlayerEntry] = {}
        self._names: dict[str, PlayerEntry] = {}
        self._renamed: dict[str, str] = {}  # former name -> its current spelling
        self._plugins: list[str] = []
        self._group = entry_points
        self._scanned_path: tuple[str, ...] | None = None
        self._loaded_entry_points: set[tuple[str, str]] = set()

    def add_plugins(self, modules: Iterable[str]) -> None:
        """Modules that register entries when imported, imported on first need.

        The registry imports them (all of them, in order) the first time a lookup misses
        or every entry is asked for; a module already imported registers nothing again.
        """
        self._plugins.extend(m for m in modules if m not in self._plugins)

    def _load_plugins(self, *, again: bool = False) -> None:
        while self._plugins:
            importlib.import_module(self._plugins.pop(0))
        if self._group is not None:
            self._load_entry_points(self._group, again)

    def _load_entry_points(self, group: str, again: bool) -> None:
        """Read ``group`` once per ``sys.path`` (and again when ``again``: a name missed)."""
        path = tuple(sys.path)
        if self._scanned_path == path and not again:
            return
        self._scanned_path = path
        for point in metadata.entry_points(group=group):
            key = (point.name, point.value)
            if key in self._loaded_entry_points:
                continue
            self._loaded_entry_points.add(key)
            loaded = point.load()
            if isinstance(loaded, PlayerEntry) and self._entries.get(loaded.name) is not loaded:
                self.register(loaded)

    def register(self, entry: PlayerEntry, *, replace: bool = False) -> PlayerEntry:
        """Add ``entry`` under its name, and remember its former names.

        Raises:
            ValueError: A name is malformed or taken (unless ``replace``), or a former
                name maps to a setting the entry does not have.
        """
        if replace:
            self._load_plugins()  # what it replaces may not be loaded yet
        for name in [entry.name, *entry.renamed]:
            if not name or name != name.lower() or any(c in name for c in ":= "):
                raise ValueError(f"player name {name!r} must be lower case without ':', '=', ' '")
            taken = name in self._names or name in self._renamed
            if taken and not replace:
                raise ValueError(f"player name {name!r} is already registered")
        for former, implied in entry.renamed.items():
            entry.validate(implied, former)
        if replace and entry.name in self._entries:
            self.unregister(entry.name)
        self._entries[entry.name] = entry
        self._names[entry.name] = entry
        self._renamed.update({former: entry.new_spelling(former) for former in entry.renamed})
        return entry

    def unregister(self, name: str) -> None:
        """Remove the entry ``name`` and its former names (nothing if absent)."""
        self._load_plugins()
        entry = self._entries.pop(name, None)
        if entry is not None:
            self._names.pop(entry.name, None)
            for former in entry.renamed:
                self._renamed.pop(former, None)

    def copy(self) -> PlayerRegistry:
        """An independent registry with the same entries (e.g. to add test players)."""
        self._load_plugins()
        other = PlayerRegistry()
        other._entries = dict(self._entries)
        other._names = dict(self._names)
        other._renamed = dict(self._renamed)
        return other

    def entries(self) -> list[PlayerEntry]:
        """Every entry, LLM strategies first, each group by name."""
        self._load_plugins()
        entries = sorted(self._entries.values(), key=lambda e: e.name)
        return [e for e in entries if e.needs_model] + [e for e in entries if not e.needs_model]

    def names(self) -> list[str]:
        """Every accepted name."""
        self._load_plugins()
        return list(self._names)

    def entry(self, name: str) -> PlayerEntry:
        """The entry of a name.

        Raises:
            UnknownPlayerError: No such player; the message lists the accepted forms, or
                gives the current spelling of a former name.
        """
        return self._lookup(name, name)

    def _lookup(self, name: str, spec: str) -> PlayerEntry:
        key = name.strip().lower()
        if key not in self._names:
            self._load_plugins(again=True)
        if key in self._names:
            return self._names[key]
        where = "" if spec.strip().lower() == key else f" (in {spec!r})"
        current = self._renamed.get(key)
        if current is not None:
            raise UnknownPlayerError(key, f"Unknown player {key!r}{where}: renamed to {current!r}")
        raise UnknownPlayerError(
            key, f"Unknown player {key!r}{where}. Accepted players: {self.accepted_forms()}."
        )

    def parse(self, text: str) -> PlayerSpec:
        """Parse a spec string into a :class:`PlayerSpec` (settings typed and checked).

        Raises:
            UnknownPlayerError: The name is not registered.
            PlayerSettingError: A setting is unknown, given twice or has a bad value, or
                a player without a model is given one.
            PlayerSpecError: The spec has no name.
        """
        name, pairs, model = split_spec(text)
        entry = self._lookup(name, text)
        values: dict[str, Any] = {}
        for key, value in pairs:
            if key in values:
                raise PlayerSettingError(
                    entry.name,
                    f"Player spec {text!r}: {key} is given twice; give each setting once",
                )
            values[key] = value
        if model is not None and not entry.needs_model:
            first = model.split(":")[0]
            raise PlayerSettingError(
                entry.name,
                f"Player spec {text!r}: {first!r} is not key=value, and {entry.name!r} "
                f"plays without a model. Its form: {entry.form()}; its settings: "
                f"{entry.settings_text()}.",
            )
        settings = entry.validate(values, text)
        typed = {key: getattr(settings, key) for key in values}
        return PlayerSpec(entry.name, typed, model, text)

    def resolve(
        self,
        spec: str | PlayerSpec,
        *,
        model: BaseChatModel | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> PlayerRecipe:
        """Resolve a spec once: its entry, validated settings and chat model.

        Args:
            spec: A spec string or a parsed spec.
            model: The chat model (required by LLM strategies, refused by others).
            settings: Settings a spec string cannot carry (e.g. SPRING's ``context``).

        Raises:
            PlayerSpecError: See :meth:`parse`; also an LLM strategy without a model, a
                model for a player that takes none, or a setting given twice.
        """
        parsed = self.parse(spec) if isinstance(spec, str) else spec
        entry = self._lookup(parsed.name, parsed.label)
        extra = dict(settings or {})
        twice = sorted(set(extra) & set(parsed.settings))
        if twice:
            raise PlayerSettingError(
                entry.name,
                f"Player spec {parsed.label!r} already sets {', '.join(twice)}; "
                "give each setting once",
            )
        if entry.needs_model and model is None:
            raise PlayerSpecError(
                f"{entry.name!r} is an LLM strategy and needs a chat model: use "
                "eval's build_player(spec, game), which loads the spec's model, or pass model="
            )
        if model is not None and not entry.needs_model:
            raise PlayerSpecError(f"{entry.name!r} plays without a model; none can be given")
        validated = entry.validate({**parsed.settings, **extra}, parsed.label)
        return PlayerRecipe(parsed, entry, validated, model)

    def accepted_forms(self) -> str:
        """Every accepted form with its description, and the model forms."""
        forms = "; ".join(f"'{e.form()}' ({e.description})" for e in self.entries())
        return f"{forms}. <model>: {ACCEPTED_FORMS}, default '{DEFAULT_MODEL}'"


STRATEGY_PACKAGE = "langgraph_games.graphs"
"""The package whose sub-packages register the LLM strategies (``<family>/registration.py``)."""


def strategy_modules() -> list[str]:
    """The registration module of every strategy family, found on disk without importing."""
    root = Path(__file__).resolve().parent.parent / STRATEGY_PACKAGE.rsplit(".", 1)[-1]
    return [
        f"{STRATEGY_PACKAGE}.{family.name}.registration"
        for family in sorted(pkgutil.iter_modules([str(root)]), key=lambda f: f.name)
        if family.ispkg and (root / family.name / "registration.py").is_file()
    ]


PLAYERS = PlayerRegistry(entry_points=ENTRY_POINT_GROUP)
"""The registry every spec goes through."""
PLAYERS.add_plugins(strategy_modules())


def register_player(entry: PlayerEntry, *, replace: bool = False) -> PlayerEntry:
    """Register ``entry`` in :data:`PLAYERS` (see :meth:`PlayerRegistry.register`)."""
    return PLAYERS.register(entry, replace=replace)


def player_entries() -> list[PlayerEntry]:
    """Every registered entry, LLM strategies first."""
    return PLAYERS.entries()


def player_entry(name: str) -> PlayerEntry:
    """The entry of a name.

    Raises:
        UnknownPlayerError: No such player.
    """
    return PLAYERS.entry(name)


def parse_spec(text: str) -> PlayerSpec:
    """Parse ``name[:key=value...][:<model spec>]`` into a :class:`PlayerSpec`.

    Raises:
        UnknownPlayerError: The name is not registered.
        PlayerSettingError: A setting is unknown, repeated or has a bad value.

    Example:
        >>> spec = parse_spec("minimax:depth=3")
        >>> spec.name, spec.settings, spec.model
        ('minimax', {'depth': 3}, None)
    """
    return PLAYERS.parse(text)


def resolve_player(
    spec: str | PlayerSpec,
    *,
    model: BaseChatModel | None = None,
    settings: Mapping[str, Any] | None = None,
) -> PlayerRecipe:
    """Resolve a spec once (see :meth:`PlayerRegistry.resolve`)."""
    return PLAYERS.resolve(spec, model=model, settings=settings)


def accepted_forms() -> str:
    """Every accepted player form, for messages."""
    return PLAYERS.accepted_forms()


def complete_model(text: str, model: str | None) -> str:
    """Add ``model`` to an LLM strategy's spec that names none (``spring`` -> ``spring:local``).

    Other specs, and specs that name a model, come back unchanged.

    Raises:
        PlayerSpecError: The spec is not understood.

    Example:
        >>> complete_model("minimax:depth=2", "local")
        'minimax:depth=2'
    """
    if model is None:
        return text
    parsed = parse_spec(text)
    if parsed.model is not None or not PLAYERS.entry(parsed.name).needs_model:
        return text
    return f"{text}:{model}"


def make_player(
    spec: str | PlayerSpec,
    game: Game[GameState] | None = None,
    *,
    model: BaseChatModel | None = None,
    settings: Mapping[str, Any] | None = None,
    **defaults: Any,
) -> Player:
    """Build the player named by ``spec``, e.g. ``"minimax:depth=3"``.

    Args:
        spec: ``name[:key=value...][:<model spec>]`` or a parsed spec.
        game: The game to play (LLM strategies need it).
        model: The chat model of an LLM strategy (the spec's model part is then not
            loaded here: the evaluation layer's ``build_player`` does that).
        settings: Settings a spec string cannot carry.
        **defaults: Values of settings the spec does not give (e.g. ``seed``); names the
            player does not have are ignored.

    Raises:
        UnknownPlayerError: Unknown name.
        PlayerSettingError: Unknown setting or a value of the wrong type.
        PlayerSpecError: An LLM strategy without a model.

    Example:
        >>> make_player("minimax:depth=2", seed=1).describe()["depth"]
        2
    """
    return resolve_player(spec, model=model, settings=settings).build(game, **defaults)
