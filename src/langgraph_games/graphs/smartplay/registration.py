"""SmartPlay's entry in the player registry: ``smartplay[:question=...][:<model>]``.

``question=paper`` words question 1 as the paper does (``code``, the default, as the
released code does); the former name ``smartplay_paper`` is refused with that spelling
(``smartplay:question=paper``). ``history_length``
and ``default_action`` are the agent's other settings (the SmartPlay protocol sets the
history window per game with ``--history``).
"""

from __future__ import annotations

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.smartplay._base import SmartPlayGame
from langgraph_games.games.state import GameState
from langgraph_games.graphs.smartplay.graph import QuestionVariant, smartplay_player
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import PlayerSettings

__all__ = ["SMARTPLAY_GAMES", "SmartPlaySettings", "plays_smartplay"]

SMARTPLAY_GAMES = ("bandit", "rock_paper_scissors", "hanoi", "messenger", "crafter")
"""The games the SmartPlay baseline plays."""


class SmartPlaySettings(PlayerSettings):
    """Settings of ``smartplay``."""

    question: QuestionVariant = Field(
        "code",
        description="wording of question 1: code (as released) or paper (as the paper prints it)",
    )
    history_length: int | None = Field(
        None,
        ge=0,
        description="past observations shown (default the game's: Bandit 50, RPS 50, Hanoi 5, "
        "Messenger 2, Crafter 5)",
    )
    default_action: int | None = Field(
        0,
        description="index of the action taken when the answer names none (none: the "
        "episode loop's re-asks and fallback apply)",
    )


def plays_smartplay(cls: type[Game[GameState]]) -> bool:
    """Whether the baseline plays a game: one seat, a manual and an ordered action list.

    SmartPlay's games have both; so do engines with ``action_names`` and ``manual()``
    (Crafter).
    """
    if len(cls.player_names) != 1:
        return False
    return issubclass(cls, SmartPlayGame) or (
        bool(getattr(cls, "action_names", None)) and callable(getattr(cls, "manual", None))
    )


def _build(request: PlayerBuild[SmartPlaySettings]) -> Player:
    settings = request.settings
    return smartplay_player(
        request.chat_model,
        request.engine,
        question_variant=settings.question,
        history_length=settings.history_length,
        default_action=settings.default_action,
        name=request.name,
    )


ENTRY = register_player(
    PlayerEntry(
        name="smartplay",
        build=_build,
        description="SmartPlay baseline: think step by step, then choose the exact action "
        "(SmartPlay games and Crafter)",
        settings=SmartPlaySettings,
        needs_model=True,
        renamed={"smartplay_paper": {"question": "paper"}},
        games=SMARTPLAY_GAMES,
        plays=plays_smartplay,
    )
)
