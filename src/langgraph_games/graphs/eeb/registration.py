"""EvoEmpirBench's prompt agent in the player registry: ``eeb[:<model>]``."""

from __future__ import annotations

from langgraph_games.graphs.eeb.graph import EEB_GAMES, eeb_player
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry, only
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import NoSettings

__all__: list[str] = []


def _build(request: PlayerBuild[NoSettings]) -> Player:
    return eeb_player(request.chat_model, request.engine, name=request.name)


ENTRY = register_player(
    PlayerEntry(
        name="eeb",
        build=_build,
        description="EvoEmpirBench prompt agent for maze (Action: X) and match2 (JSON)",
        needs_model=True,
        games=EEB_GAMES,
        plays=only(*EEB_GAMES),
    )
)
