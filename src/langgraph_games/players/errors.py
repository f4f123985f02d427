"""Errors of player specs: unknown players, bad settings, malformed specs.

Every message names what was wrong and lists what is accepted, generated from the player
registry. A model spec that is not understood raises the model layer's
:class:`~langgraph_games.models.errors.ModelSpecError` instead.
"""

from __future__ import annotations

__all__ = [
    "PlayerContractError",
    "PlayerSettingError",
    "PlayerSpecError",
    "UnknownPlayerError",
]


class PlayerSpecError(ValueError):
    """A player spec that cannot be understood; the message lists the accepted forms."""


class UnknownPlayerError(PlayerSpecError, LookupError):
    """The spec names no registered player (the message lists every accepted name).

    Attributes:
        name: The name that was not found.
    """

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        super().__init__(message)


class PlayerSettingError(PlayerSpecError):
    """A setting the player lacks, a bad value, or settings or a model it does not take.

    The message lists the player's settings.

    Attributes:
        player: The registry name of the player.
    """

    def __init__(self, player: str, message: str) -> None:
        self.player = player
        super().__init__(message)


class PlayerContractError(ValueError):
    """A player broke the player contract: it read or returned what the contract lacks.

    The message names the player, the key or value that was wrong, the graph node where
    it happened (when a graph's node did it) and what was expected.
    """
