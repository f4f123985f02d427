"""A Negotiation v2 player with a concession schedule.

Its aspiration starts high and drops by a fixed step for every proposal it has made,
down to a floor; once the game may end by chance (after round 8 by default) it settles
for half the pool. It agrees when the opponent's latest proposal is worth at least the
current aspiration; otherwise it proposes, among the divisions worth at least that much
to itself, the one it expects the opponent to like best. The opponent's tastes are
guessed from its proposals: the item types it kept the most of are the ones it values.
"""

from __future__ import annotations

import time
from typing import Any, cast

from langgraph_games.games.negotiation import Negotiation, NegotiationState
from langgraph_games.games.negotiation.rules import (
    AGREE,
    ITEM_TYPES,
    TOTAL_VALUE,
    Proposal,
    proposal_name,
    share_value,
    splits,
)
from langgraph_games.players._games import require_game
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["ConcessionNegotiator"]


def _share(proposal: Proposal, seat: int) -> tuple[int, int, int]:
    counts = proposal[:ITEM_TYPES] if seat == 0 else proposal[ITEM_TYPES:]
    return (counts[0], counts[1], counts[2])


class ConcessionNegotiator(SearchPlayer):
    """Agrees above a falling aspiration; otherwise proposes the friendliest acceptable split.

    Args:
        start: Aspiration (value out of 30) in the first round.
        step: How much the aspiration drops after each of its own proposals.
        floor: The lowest aspiration before the chance rounds.
        late: The aspiration once the game may end by chance.
        name: Label in results tables.

    Raises:
        ValueError: The values are not ``0 <= late <= floor <= start <= 30`` with a
            non-negative step.

    Example:
        >>> player = ConcessionNegotiator()
        >>> [player.aspiration(r, 8) for r in (1, 2, 3, 5, 7, 9)]
        [26, 26, 24, 22, 20, 15]
    """

    instant = True

    def __init__(
        self,
        start: int = 26,
        step: int = 2,
        floor: int = 18,
        late: int = 15,
        name: str = "negotiator",
    ) -> None:
        if not (0 <= late <= floor <= start <= TOTAL_VALUE and step >= 0):
            raise ValueError(
                f"need 0 <= late <= floor <= start <= {TOTAL_VALUE} and step >= 0; "
                f"got start={start}, step={step}, floor={floor}, late={late}"
            )
        self.start, self.step, self.floor, self.late = start, step, floor, late
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "negotiator", "start": ..., "step": ..., "floor": ..., "late": ...}``."""
        return {
            "kind": "negotiator",
            "start": self.start,
            "step": self.step,
            "floor": self.floor,
            "late": self.late,
        }

    def aspiration(self, round_number: int, end_after_round: int) -> int:
        """The value it asks for in round ``round_number`` (counted from 1)."""
        if round_number > end_after_round:
            return self.late
        own_proposals = (round_number - 1) // 2
        return max(self.floor, self.start - self.step * own_proposals)

    @staticmethod
    def opponent_weights(state: NegotiationState, seat: int) -> tuple[float, ...]:
        """Guessed value per item of each type to the opponent (1 each with no evidence)."""
        other = 1 - seat
        kept = [0.0] * ITEM_TYPES
        theirs = state.proposals[other::2]
        for proposal in theirs:
            share = _share(proposal, other)
            for t in range(ITEM_TYPES):
                kept[t] += share[t] / state.pool[t]
        if not theirs:
            return (1.0,) * ITEM_TYPES
        return tuple(0.5 + k / len(theirs) for k in kept)

    def decide(self, request: DecisionRequest) -> Decision:
        """Agree if the latest offer is good enough, else propose."""
        start = time.perf_counter()
        require_game(request, "negotiation", "negotiator")
        game = cast(Negotiation, request.game)
        state = cast(NegotiationState, request.state)
        seat = request.player
        values = state.values[seat]
        wanted = self.aspiration(state.round, game.settings.end_after_round)
        info: dict[str, Any] = {"aspiration": wanted}
        if state.proposals and AGREE in request.legal_actions:
            offered = share_value(values, _share(state.proposals[-1], seat))
            info["offered"] = offered
            if offered >= wanted:
                return Decision(
                    action=AGREE,
                    status=ParseStatus.OK,
                    latency_s=time.perf_counter() - start,
                    info=info,
                )
        weights = self.opponent_weights(state, seat)

        def appeal(proposal: Proposal) -> tuple[float, int, str]:
            their_share = _share(proposal, 1 - seat)
            liked = sum(w * n for w, n in zip(weights, their_share, strict=True))
            return (liked, share_value(values, _share(proposal, seat)), proposal_name(proposal))

        acceptable = [
            p for p in splits(state.pool) if share_value(values, _share(p, seat)) >= wanted
        ]
        best = max(acceptable, key=appeal)
        return Decision(
            action=proposal_name(best),
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info=info,
        )
