"""A registry entry (:class:`PlayerEntry`) and a resolved spec ready to build players.

An entry names a player, its builder, its typed settings schema, whether it plays through
a chat model, the games it is made for, the games it can play (:attr:`PlayerEntry.plays`:
a test of a game class, checked before a player is built, so a run refuses a game its
player cannot play before any episode) and its former names (refused with the spelling
that replaces each). :class:`PlayerRecipe` is what a spec becomes once resolved at the top of a run
(entry, validated settings, chat model): it builds a player for a game without parsing
or validating anything again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import ValidationError

from langgraph_games.games.base import Game
from langgraph_games.games.registry import game_classes
from langgraph_games.games.state import GameState
from langgraph_games.players.base import Player
from langgraph_games.players.errors import PlayerSettingError, PlayerSpecError
from langgraph_games.players.spec import (
    NoSettings,
    PlayerSettings,
    PlayerSpec,
    SettingInfo,
    format_value,
    setting_infos,
)

__all__ = ["GameFilter", "PlayerBuild", "PlayerBuilder", "PlayerEntry", "PlayerRecipe", "only"]

S = TypeVar("S", bound=PlayerSettings)


@dataclass(frozen=True)
class PlayerBuild(Generic[S]):
    """What a builder gets: the typed settings, the game, the chat model and the name.

    Attributes:
        settings: The entry's settings, validated (defaults filled in).
        game: The game to play (``None`` when the caller has none: search players that
            need no game to be built).
        model: The chat model of an LLM strategy (``None`` for other players).
        name: The player's name in results (the spec as written).
    """

    settings: S
    game: Game[GameState] | None
    model: BaseChatModel | None
    name: str

    @property
    def engine(self) -> Game[GameState]:
        """The game; raises :class:`PlayerSpecError` when the caller gave none."""
        if self.game is None:
            raise PlayerSpecError(f"player {self.name!r} is built for a game; pass the game")
        return self.game

    @property
    def chat_model(self) -> BaseChatModel:
        """The chat model; raises :class:`PlayerSpecError` when the caller gave none."""
        if self.model is None:
            raise PlayerSpecError(f"player {self.name!r} plays through a chat model; pass one")
        return self.model


PlayerBuilder = Callable[[PlayerBuild[Any]], Player]
"""``(PlayerBuild) -> Player``."""

GameFilter = Callable[[type[Game[GameState]]], bool]
"""``(game class) -> bool``: whether a player can play that game."""


def only(*game_ids: str) -> GameFilter:
    """A :data:`GameFilter` accepting the games ``game_ids`` (ids without version)."""
    return lambda cls: cls.id in game_ids


@dataclass(frozen=True)
class PlayerEntry:
    """One registered player.

    Attributes:
        name: The name in specs (lower case, no ``:`` or ``=``).
        build: Makes the player from a :class:`PlayerBuild`.
        description: One line for people.
        settings: The settings schema (a :class:`PlayerSettings` subclass).
        needs_model: An LLM strategy: its spec may end with a model spec (default
            ``local``) and it is built with that chat model.
        renamed: Former names of this player with some settings, e.g.
            ``{"gamebot_cot": {"variant": "cot"}}``: a spec naming one is refused with a
            message that gives the current spelling (:meth:`new_spelling`).
        games: The games it is made for (empty: any game it can play); shown to people.
        plays: Which games it can play (``None``: every game). A spec for a game it
            cannot play is refused before the player is built.
    """

    name: str
    build: PlayerBuilder
    description: str
    settings: type[PlayerSettings] = NoSettings
    needs_model: bool = False
    renamed: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    games: tuple[str, ...] = ()
    plays: GameFilter | None = None

    def can_play(self, game: Game[GameState] | type[Game[GameState]]) -> bool:
        """Whether this player can play ``game`` (an engine or a game class)."""
        cls = game if isinstance(game, type) else type(game)
        return self.plays is None or self.plays(cls)

    def playable(self) -> list[str] | None:
        """The ids of the registered games it can play, sorted; ``None``: every game."""
        if self.plays is None:
            return None
        return [cls.id for cls in game_classes() if self.can_play(cls)]

    def plays_text(self) -> str:
        """``plays every game`` or ``plays checkers, connect4`` (``plays no registered game``)."""
        playable = self.playable()
        if playable is None:
            return "plays every game"
        return f"plays {', '.join(playable)}" if playable else "plays no registered game"

    def check_game(self, game: Game[GameState], label: str) -> None:
        """Refuse ``game`` unless this player can play it.

        Raises:
            PlayerSpecError: One line naming the player, the game and the games it plays.
        """
        if not self.can_play(game):
            named = repr(label) if label == self.name else f"{label!r} ({self.name})"
            raise PlayerSpecError(
                f"Player {named} cannot play {game.id!r}; it {self.plays_text()}."
            )

    def infos(self) -> list[SettingInfo]:
        """The settings, in declaration order."""
        return setting_infos(self.settings)

    def form(self) -> str:
        """The accepted form: ``gamebot[:variant=<one of ...>][:<model>]``."""
        parts = "".join(f"[:{info.name}=<{info.type}>]" for info in self.infos())
        return f"{self.name}{parts}{'[:<model>]' if self.needs_model else ''}"

    def settings_text(self) -> str:
        """Every setting with its values, default and description, or ``none``."""
        infos = self.infos()
        if not infos:
            return "none"
        return "; ".join(
            f"{info.name} ({info.type}, default {info.default}): {info.description}"
            for info in infos
        )

    def new_spelling(self, former: str) -> str:
        """The current spelling of a former name: ``gamebot_cot`` -> ``gamebot:variant=cot``.

        Raises:
            KeyError: ``former`` is not one of :attr:`renamed`.
        """
        implied = self.renamed[former]
        return ":".join([self.name, *(f"{k}={format_value(v)}" for k, v in implied.items())])

    def validate(self, values: Mapping[str, Any], spec: str) -> PlayerSettings:
        """Check ``values`` against the schema and convert them to its types.

        Raises:
            PlayerSettingError: A setting the player does not have (or any setting for
                a player without settings) or a value of the wrong type; the message
                lists the player's settings.
        """
        fields = self.settings.model_fields
        unknown = [key for key in values if key not in fields]
        if unknown and not fields:
            raise PlayerSettingError(
                self.name,
                f"Player {self.name!r} takes no settings; got {', '.join(map(repr, unknown))} "
                f"(in {spec!r})",
            )
        if unknown:
            raise PlayerSettingError(
                self.name,
                f"Player {self.name!r} has no setting {unknown[0]!r} (in {spec!r}). "
                f"Its settings: {self.settings_text()}.",
            )
        try:
            return self.settings.model_validate(dict(values))
        except ValidationError as exc:
            error = exc.errors()[0]
            key = str(error["loc"][0]) if error["loc"] else ""
            kind = {info.name: info.type for info in self.infos()}.get(key, "valid")
            raise PlayerSettingError(
                self.name,
                f"Player {self.name!r}: setting {key}={values.get(key)!r} must be {kind} "
                f"({error['msg']}; in {spec!r}). Its settings: {self.settings_text()}.",
            ) from None


@dataclass(frozen=True)
class PlayerRecipe:
    """A spec resolved once: its entry, validated settings and chat model.

    Attributes:
        spec: The parsed spec (its :attr:`~PlayerSpec.label` names the players).
        entry: The registry entry.
        settings: The validated settings (the spec's and the caller's extra ones).
        model: The chat model of an LLM strategy, else ``None``.
    """

    spec: PlayerSpec
    entry: PlayerEntry
    settings: PlayerSettings
    model: BaseChatModel | None = None

    def build(self, game: Game[GameState] | None = None, **defaults: Any) -> Player:
        """A player for ``game``, named by the spec as written.

        Args:
            game: The game to play (needed by LLM strategies).
            **defaults: Values of settings the spec and the caller did not give (e.g. a
                search player's ``seed``); names the player does not have are ignored.

        Raises:
            PlayerSettingError: The settings do not fit together (e.g. the negotiator's
                thresholds out of order).
            PlayerSpecError: The player cannot play ``game`` (one line naming the player,
                the game and the games it plays).
        """
        if game is not None:
            self.entry.check_game(game, self.spec.label)
        settings = self.settings
        fields = type(settings).model_fields
        fill = {
            k: v for k, v in defaults.items() if k in fields and k not in settings.model_fields_set
        }
        if fill:
            settings = settings.model_copy(update=fill)
        player = self.entry.build(PlayerBuild(settings, game, self.model, self.spec.label))
        player.name = self.spec.label
        return player
