"""SmartPlay's games: Two-armed Bandit, Rock-Paper-Scissors, Tower of Hanoi, Messenger."""

from __future__ import annotations

from langgraph_games.games.smartplay._base import SmartPlayGame, describe_actions, earliest_match
from langgraph_games.games.smartplay.bandit import Bandit, BanditState
from langgraph_games.games.smartplay.hanoi import Hanoi, HanoiState
from langgraph_games.games.smartplay.messenger import Messenger, MessengerState
from langgraph_games.games.smartplay.rock_paper_scissors import (
    RockPaperScissors,
    RockPaperScissorsState,
)

__all__ = [
    "Bandit",
    "BanditState",
    "Hanoi",
    "HanoiState",
    "Messenger",
    "MessengerState",
    "RockPaperScissors",
    "RockPaperScissorsState",
    "SmartPlayGame",
    "describe_actions",
    "earliest_match",
]
