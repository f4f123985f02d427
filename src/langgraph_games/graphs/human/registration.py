"""The human player's entry in the player registry: ``human``."""

from __future__ import annotations

from langgraph_games.graphs.human.player import HumanPlayer
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import NoSettings

__all__: list[str] = []


def _build(request: PlayerBuild[NoSettings]) -> Player:
    return HumanPlayer(name=request.name)


ENTRY = register_player(
    PlayerEntry(
        name="human",
        build=_build,
        description="a person, asked for each move through a LangGraph interrupt "
        "(the terminal in 'play'; Command(resume=...) elsewhere)",
    )
)
