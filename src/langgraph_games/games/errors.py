"""Errors raised by game engines, the registry and sessions."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "OptionError",
    "StateFormatError",
    "UnknownGameError",
]


def _listing(items: Iterable[str], limit: int = 40) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items) - limit} more)"
    return shown or "none"


class GameError(Exception):
    """Base class of every error a game, the registry or a session raises."""


class IllegalActionError(GameError, ValueError):
    """An action that the rules do not allow in the current state.

    The message names the action, why it was refused and every legal move, so it
    can be shown to a model as feedback unchanged.

    Attributes:
        action: The action that was refused, as given.
        player: The player it was submitted for.
        legal: The legal actions of that player at that moment.
        reason: A short description of what was wrong.
    """

    def __init__(
        self,
        action: str,
        legal: Iterable[str],
        *,
        player: int | None = None,
        reason: str | None = None,
    ) -> None:
        self.action = action
        self.player = player
        self.legal = tuple(legal)
        self.reason = reason or "it is not a legal move"
        who = f" for player {player}" if player is not None else ""
        super().__init__(
            f"Illegal action {action!r}{who}: {self.reason}. Legal actions: {_listing(self.legal)}."
        )


class GameOverError(IllegalActionError):
    """An action submitted after the game has ended."""

    def __init__(self, action: str, *, player: int | None = None) -> None:
        super().__init__(action, (), player=player, reason="the game is over")


class UnknownGameError(GameError, LookupError):
    """A game id that is not registered.

    Attributes:
        game_id: The id that was asked for.
        known: The registered ids.
    """

    def __init__(self, game_id: str, known: Iterable[str]) -> None:
        self.game_id = game_id
        self.known = tuple(known)
        super().__init__(f"Unknown game {game_id!r}. Registered games: {_listing(self.known)}.")

    def __str__(self) -> str:
        # LookupError's str() would quote the whole message; show it as written.
        return str(self.args[0])


class OptionError(GameError, ValueError):
    """An unknown option name or an invalid option value for a game.

    Attributes:
        game_id: The game the options were given for.
        option: The offending option name.
        accepted: A description of what is accepted (option names or values).
    """

    def __init__(self, game_id: str, option: str, problem: str, accepted: str) -> None:
        self.game_id = game_id
        self.option = option
        self.accepted = accepted
        super().__init__(f"Game {game_id!r}: option {option!r} {problem}. {accepted}")


class StateFormatError(GameError, ValueError):
    """A serialised state that cannot be read back: names the field that is wrong.

    Attributes:
        field: Dotted path of the offending field (``""`` for the whole document).
    """

    def __init__(self, state_type: str, field: str, problem: str) -> None:
        self.field = field
        where = f"field {field!r}" if field else "document"
        super().__init__(f"Malformed {state_type} state: {where} {problem}.")
