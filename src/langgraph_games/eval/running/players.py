"""Players by spec string for runs: the registry's specs plus the chat models they name.

Specs follow the one player syntax, ``name[:key=value...][:<model spec>]`` (see
:mod:`langgraph_games.players.spec`), and name entries of the one registry
(:mod:`langgraph_games.players.registry`): search players and LLM strategies alike. This
module adds what a run needs on top: the chat model of an LLM strategy is loaded from the
spec's model part (default ``local``) through a :class:`ModelPool`, so players naming the
same model share it, and :func:`resolve` turns a spec into a
:class:`~langgraph_games.players.entry.PlayerRecipe` once, at the top of a run, from which
every episode builds its player.

Settings a spec string cannot carry (SPRING's ``context``, a document's worth of text) come
from :class:`~langgraph_games.eval.running.runner.EvalSpec`'s ``agent_settings`` and are
checked against the player's settings schema like the spec's own.

A run's players may also be objects (a player, a decision graph, a chat model, a
function): :func:`split_players` names each by its player's name, and
:func:`resolve_seat` gives it a recipe of its own (:func:`object_recipe`), so the run
treats it like any spec.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.models.factory import check_model, load_chat_model
from langgraph_games.players import registry
from langgraph_games.players.base import Player
from langgraph_games.players.compose import as_player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry, PlayerRecipe
from langgraph_games.players.errors import PlayerSpecError
from langgraph_games.players.spec import NoSettings, PlayerSpec, split_spec

__all__ = [
    "STRATEGIES",
    "HeldPlayer",
    "ModelPool",
    "build_player",
    "check_models",
    "is_llm_spec",
    "object_recipe",
    "resolve",
    "resolve_seat",
    "split_players",
    "strategy_of",
]

# Importing from langgraph_games.graphs (above) imports every strategy family, and each
# registers its entry: the registry is complete here.


class _Strategies(Mapping[str, PlayerEntry]):
    """The LLM strategies of the registry by every accepted name (a read-only view)."""

    def _names(self) -> list[str]:
        players = registry.PLAYERS
        return [name for name in players.names() if players.entry(name).needs_model]

    def __getitem__(self, name: str) -> PlayerEntry:
        if name not in self._names():
            raise KeyError(name)
        return registry.PLAYERS.entry(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


STRATEGIES: Mapping[str, PlayerEntry] = _Strategies()
"""LLM strategies by name (``gamebot``, ``spring``, ...): a view
of the player registry; register a strategy with
:func:`~langgraph_games.players.registry.register_player`."""


class ModelPool:
    """One chat model per model spec, shared by every player that names it."""

    def __init__(self, **settings: object) -> None:
        self.settings = settings
        self.models: dict[str, BaseChatModel] = {}

    def get(self, spec: str) -> BaseChatModel:
        """The (cached) model for ``spec``.

        Raises:
            ModelSpecError: ``spec`` is not an accepted model spec.
        """
        if spec not in self.models:
            self.models[spec] = load_chat_model(spec, **self.settings)
        return self.models[spec]


def resolve(
    spec: str | PlayerSpec,
    models: ModelPool,
    settings: Mapping[str, Any] | None = None,
) -> PlayerRecipe:
    """Resolve a player spec once: entry, checked settings and (for LLM strategies) model.

    Args:
        spec: A spec string or a parsed spec.
        models: Where the spec's chat model comes from.
        settings: Settings a spec string cannot carry (e.g. SPRING's ``context``).

    Raises:
        UnknownPlayerError: No such player (the message lists every accepted form).
        PlayerSettingError: A setting is unknown, repeated or has a bad value.
        ModelSpecError: The model part is not an accepted model spec.
    """
    parsed = registry.parse_spec(spec) if isinstance(spec, str) else spec
    entry = registry.player_entry(parsed.name)
    model = models.get(parsed.model or registry.DEFAULT_MODEL) if entry.needs_model else None
    return registry.resolve_player(parsed, model=model, settings=settings)


def check_models(recipes: Sequence[PlayerRecipe]) -> None:
    """Check every chat model the players use, each once (see ``check_model``).

    Raises:
        ModelUnavailableError: A model cannot be used.
    """
    seen: set[int] = set()
    for recipe in recipes:
        if recipe.model is not None and id(recipe.model) not in seen:
            seen.add(id(recipe.model))
            check_model(recipe.model)


def strategy_of(spec: str) -> str | None:
    """The registry name of the LLM strategy ``spec`` names, ``None`` for other players.

    Example:
        >>> strategy_of("spring:variant=no_dag:local"), strategy_of("minimax:depth=2")
        ('spring', None)
    """
    entry = registry.player_entry(split_spec(spec)[0])
    return entry.name if entry.needs_model else None


def is_llm_spec(spec: str) -> bool:
    """Whether ``spec`` names an LLM strategy (``False`` for anything else, unknown names too)."""
    try:
        return strategy_of(spec) is not None
    except PlayerSpecError:
        return False


def build_player(
    spec: str | PlayerSpec,
    game: Game[GameState],
    *,
    models: ModelPool | None = None,
    seed: int = 0,
    settings: Mapping[str, object] | None = None,
) -> Player:
    """Build the player named by ``spec`` for ``game`` (named by the spec as written).

    Args:
        spec: A player spec (see the module docstring).
        game: The game to play.
        models: Shared chat models (a new pool by default).
        seed: Seed of a search player's own randomness, unless the spec sets one.
        settings: Settings a spec string cannot carry (e.g. SPRING's ``context``).

    Raises:
        UnknownPlayerError: Unknown player (the message lists the accepted forms).
        PlayerSettingError: A setting the player does not have or a bad value.
        ModelSpecError: The model part of an LLM spec is not an accepted form.
    """
    return resolve(spec, models or ModelPool(), settings).build(game, seed=seed)


class HeldPlayer:
    """The builder of an object player's entry: it gives the object itself, for every game.

    A plain class (not a closure), so the entry pickles exactly when the player does: a
    run with worker processes sends it to them, or says why it cannot.
    """

    def __init__(self, player: Player) -> None:
        self.player = player

    def __call__(self, request: PlayerBuild[Any]) -> Player:
        """The held player."""
        return self.player


def split_players(items: Sequence[Any]) -> tuple[list[str], dict[str, Player]]:
    """Spec strings and objects of a run's player list: ``(labels, {label: player})``.

    An object (a player, a graph, a chat model, a function: see
    :func:`~langgraph_games.players.compose.as_player`) is named by its player's ``name``
    (give ``as_player(obj, name=...)`` for another label).

    Raises:
        TypeError: An object is not one :func:`as_player` accepts.
    """
    labels: list[str] = []
    objects: dict[str, Player] = {}
    for item in items:
        if isinstance(item, str):
            labels.append(item)
            continue
        player = as_player(item)
        labels.append(player.name)
        objects[player.name] = player
    return labels, objects


def object_recipe(player: Player) -> PlayerRecipe:
    """The recipe of an object player: an unregistered entry that gives the object."""
    entry = PlayerEntry(
        name=player.name, build=HeldPlayer(player), description=f"the player object {player.name!r}"
    )
    return PlayerRecipe(PlayerSpec(player.name, text=player.name), entry, NoSettings())


def resolve_seat(
    label: str,
    models: ModelPool,
    objects: Mapping[str, Player],
    settings: Mapping[str, Any] | None = None,
) -> PlayerRecipe:
    """The recipe of a run's player: its object when the run was given one, else its spec.

    Raises:
        See :func:`resolve`.
    """
    if label in objects:
        return object_recipe(objects[label])
    return resolve(label, models, settings)
