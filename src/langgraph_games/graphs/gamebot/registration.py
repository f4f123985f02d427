"""GAMEBoT's entry in the player registry: ``gamebot[:variant=...][:<model>]``.

``variant`` picks the prompt: ``gamebot`` (the paper's), ``action_only`` and ``cot`` (Table
3's baselines), ``reasoning`` (section 2.4's looser prompt). ``constrain=true`` holds the
final answer to a legal move; ``reader=released`` reads moves as GAMEBoT's released
parsers did (``reader=rule``, the answer rule, is the default). The former names
``gamebot_action``, ``gamebot_cot`` and ``gamebot_reasoning`` are refused with their
current spelling (``gamebot:variant=cot``).
"""

from __future__ import annotations

import pkgutil

from pydantic import Field

from langgraph_games.graphs.gamebot import prompts
from langgraph_games.graphs.gamebot.graph import Reader, Variant, gamebot_player
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry, only
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import PlayerSettings

__all__ = ["GAMEBOT_GAMES", "GamebotSettings"]

GAMEBOT_GAMES: tuple[str, ...] = tuple(
    sorted(m.name for m in pkgutil.iter_modules(prompts.__path__) if not m.name.startswith("_"))
)
"""The games with a GAMEBoT prompt module (``graphs/gamebot/prompts/<game>.py``)."""


class GamebotSettings(PlayerSettings):
    """Settings of ``gamebot``."""

    variant: Variant = Field(
        "gamebot",
        description="the prompt: gamebot (the subproblem chain-of-thought), action_only "
        "(Table 3's action-only baseline), cot (Table 3's 'think step by step'), reasoning "
        "(the looser prompt for reasoning models)",
    )
    constrain: bool = Field(
        False,
        description="hold the final answer to a legal move: a grammar for the local model, "
        "a JSON-schema response_format for an OpenAI-compatible endpoint",
    )
    reader: Reader = Field(
        "rule",
        description="how moves are read: rule (the answer rule: the first move after the "
        "final label, commentary ignored, two moves ambiguous) or released (as GAMEBoT's "
        "released parsers did, for parity studies)",
    )


def _build(request: PlayerBuild[GamebotSettings]) -> Player:
    return gamebot_player(
        request.chat_model,
        request.engine,
        variant=request.settings.variant,
        name=request.name,
        constrain=request.settings.constrain,
        reader=request.settings.reader,
    )


ENTRY = register_player(
    PlayerEntry(
        name="gamebot",
        build=_build,
        description="GAMEBoT subproblem chain-of-thought prompt (and its baselines)",
        settings=GamebotSettings,
        needs_model=True,
        renamed={
            "gamebot_action": {"variant": "action_only"},
            "gamebot_cot": {"variant": "cot"},
            "gamebot_reasoning": {"variant": "reasoning"},
        },
        games=GAMEBOT_GAMES,
        plays=only(*GAMEBOT_GAMES),
    )
)
