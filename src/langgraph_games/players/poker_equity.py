"""A Texas Hold'em player that bets by Monte Carlo equity against a random hand.

At each decision it deals the unknown cards (the opponent's two and the rest of the
board) ``samples`` times and counts how often its hand wins (ties count half). It folds
when that equity is below the price of calling (pot odds), never folds when checking is
free, raises the pot with strong hands and moves all in with very strong ones. Samples
are drawn from a generator seeded by the player's seed, the episode and the step, so its
play is reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import cast

from langgraph_games.games.state import derive_rng
from langgraph_games.games.texas_holdem import TexasState
from langgraph_games.games.texas_holdem.cards import evaluate
from langgraph_games.games.texas_holdem.rules import to_call
from langgraph_games.players._games import require_game
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["EquityPlayer", "equity"]


def equity(hole: Sequence[int], board: Sequence[int], samples: int, rng: random.Random) -> float:
    """Chance that ``hole`` beats a random hand once the board is complete (ties half).

    Example:
        >>> from langgraph_games.games.texas_holdem.cards import parse_card
        >>> aces = [parse_card("As"), parse_card("Ah")]
        >>> 0.8 < equity(aces, [], 2000, random.Random(0)) < 0.9  # about 85%
        True
    """
    known = set(hole) | set(board)
    deck = [c for c in range(52) if c not in known]
    missing = 5 - len(board)
    score = 0.0
    for _ in range(samples):
        drawn = rng.sample(deck, 2 + missing)
        full = (*board, *drawn[2:])
        mine = evaluate((*hole, *full))
        theirs = evaluate((drawn[0], drawn[1], *full))
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return score / samples


class EquityPlayer(SearchPlayer):
    """Bets by its Monte Carlo winning chance against a random hand and the pot odds.

    Args:
        samples: Deals simulated per decision.
        seed: Seed of the simulations.
        name: Label in results tables.

    Raises:
        ValueError: ``samples`` is not positive.
    """

    instant = True

    def __init__(self, samples: int = 300, seed: int = 0, name: str = "holdem_equity") -> None:
        if samples <= 0:
            raise ValueError(f"samples must be positive, got {samples}")
        self.samples = samples
        self.seed = seed
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "holdem_equity", "samples": ..., "seed": ...}``."""
        return {"kind": "holdem_equity", "samples": self.samples, "seed": self.seed}

    def choose(self, legal: Sequence[str], win: float, owed: int, pot: int) -> str:
        """The action for winning chance ``win`` when ``owed`` chips call a ``pot``."""

        def first(*names: str) -> str:
            return next((n for n in names if n in legal), "Check and Call")

        if win >= 0.85:
            return first("All in", "Raise Full Pot", "Raise Half Pot")
        if win >= 0.7:
            return first("Raise Full Pot", "Raise Half Pot", "All in")
        if win >= 0.6 and owed == 0:
            return first("Raise Half Pot", "Raise Full Pot")
        if owed and win < owed / (pot + owed):
            return "Fold"
        return "Check and Call"

    def decide(self, request: DecisionRequest) -> Decision:
        """Estimate the winning chance, then bet, call, check or fold by it."""
        start = time.perf_counter()
        require_game(request, "texas_holdem", "holdem_equity")
        state = cast(TexasState, request.state)
        seat = request.player
        rng = derive_rng("holdem-equity", self.seed, state.seed, state.turn, seat)
        win = equity(state.holes[seat], state.revealed, self.samples, rng)
        action = self.choose(request.legal_actions, win, to_call(state, seat), state.pot)
        return Decision(
            action=action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"equity": round(win, 3)},
        )
