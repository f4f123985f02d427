"""A seeded uniformly random player: the baseline row of every GAMEBoT table."""

from __future__ import annotations

import time

from langgraph_games.games.state import derive_rng
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["RandomPlayer"]


class RandomPlayer(SearchPlayer):
    """Picks a legal action uniformly at random.

    The choice depends only on the player's seed, the episode seed, the turn and the
    seat, so replays and reruns pick the same moves whatever order games run in.

    Args:
        seed: The player's own seed.
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import RandomPlayer, request_for
        >>> session = GameSession("tictactoe", seed=3)
        >>> RandomPlayer(seed=1).decide(request_for(session)).action
        '(0,1)'
    """

    instant = True

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.seed = seed
        self.name = name

    def decide(self, request: DecisionRequest) -> Decision:
        """Choose uniformly among ``request.legal_actions``."""
        start = time.perf_counter()
        rng = derive_rng(
            "random-player", self.seed, request.state.seed, request.state.turn, request.player
        )
        action = rng.choice(request.legal_actions) if request.legal_actions else None
        status = ParseStatus.OK if action is not None else ParseStatus.FALLBACK
        return Decision(action=action, status=status, latency_s=time.perf_counter() - start)

    def describe(self) -> dict[str, object]:
        """``{"kind": "random", "seed": ...}``."""
        return {"kind": "random", "seed": self.seed}
