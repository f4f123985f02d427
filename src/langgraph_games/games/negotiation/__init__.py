"""Negotiation v2 (GAMEBoT): split a pool of three item types, alternating proposals.

Rules are in :mod:`.rules`. Actions are ``Agree`` and proposals written
``P1: (a,b,c), P2: (x,y,z)``. A proposal that does not divide the pool is refused with an
error that says so (GAMEBoT's engine ended the game and fined the proposer 10 instead).
Returns are the values obtained; ``return_scale`` = 30 is the value of the whole pool.
The game is not constant-sum, so GAMEBoT's outcome score O takes the difference to the
opponent's value over 30 (see ``eval/scoring/metrics.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Literal, cast

from pydantic import Field

from langgraph_games.games._answer import Mention, negated, regex_mentions
from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.negotiation.render import observation_text, render_text
from langgraph_games.games.negotiation.rules import (
    AGREE,
    AGREE_RE,
    AGREED,
    ITEM_TYPES,
    NO_DEAL,
    OPEN,
    PROPOSAL_RE,
    SEAT_NAMES,
    NegotiationState,
    Proposal,
    deal,
    ends_by_chance,
    is_split,
    proposal_name,
    read_proposal,
    share_value,
    splits,
)
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = ["Negotiation", "NegotiationOptions", "NegotiationState"]

_MENTIONS = regex_mentions(
    [
        (PROPOSAL_RE, lambda m: proposal_name(cast(Proposal, tuple(int(g) for g in m.groups())))),
        (AGREE_RE, AGREE),
    ],
    starts=r"(?i:[ap])",
)
OPENING_AGREE_PAYOFF = (0.0, 15.0)
"""What GAMEBoT's engine paid for ``Agree`` before any proposal."""


class NegotiationOptions(GameOptions):
    """Options of :class:`Negotiation`."""

    end_after_round: int = Field(
        8, ge=0, le=1000, description="rounds played before the game may end by chance"
    )
    end_chance: float = Field(
        0.2, ge=0.0, le=1.0, description="chance the game ends before each later round"
    )
    max_rounds: int = Field(
        100, ge=1, le=100_000, description="safety cap: the game ends without a deal after it"
    )
    opening_agree: Literal["illegal", "reference"] = Field(
        "illegal",
        description="'Agree' before any proposal: refused, or GAMEBoT's 0/15 payout",
    )


@lru_cache(maxsize=256)
def _proposals(pool: tuple[int, int, int]) -> dict[str, Proposal]:
    """Every division of ``pool`` by its canonical action string, in sorted order."""
    named = {proposal_name(p): p for p in splits(pool)}
    return {name: named[name] for name in sorted(named)}


@lru_cache(maxsize=256)
def _proposal_actions(pool: tuple[int, int, int]) -> tuple[str, ...]:
    return tuple(_proposals(pool))


@register
class Negotiation(Game[NegotiationState]):
    """GAMEBoT's Negotiation v2: alternating proposals over a pool worth 30 to each player."""

    id = "negotiation"
    name = "Negotiation v2"
    description = (
        "Split 8-12 items of three types with private values worth 30 to each player; "
        "alternating proposals; 20% chance of no deal before each round after round 8."
    )
    source = "GAMEBoT"
    player_names = SEAT_NAMES
    Options = NegotiationOptions
    State = NegotiationState
    answer_labels = ("Proposal:",)
    return_scale = 30.0
    constant_sum = False  # both can gain (a deal) or get nothing (no deal)
    subproblems = (
        Subproblem(
            1,
            "value_of_latest_proposal",
            AnswerKind.NUMBER,
            Metric.ACCURACY,
            "What is the opponent's latest proposal worth to you?",
            "XXX",
        ),
        Subproblem(
            2,
            "value_of_my_proposal",
            AnswerKind.NUMBER,
            Metric.ACCURACY,
            "What is your new proposal worth to you?",
            "XXX",
        ),
    )

    @property
    def settings(self) -> NegotiationOptions:
        """The validated options."""
        return cast(NegotiationOptions, self.options)

    def initial_state(self, seed: int = 0) -> NegotiationState:
        """The pool and both players' values drawn from the seed; Player 1 to propose."""
        pool, values = deal(seed)
        return NegotiationState(
            seed=seed, turn=0, pool=pool, values=values, proposals=(), outcome=OPEN
        )

    def is_terminal(self, state: NegotiationState) -> bool:
        """An agreement was reached or the game ended by chance."""
        return state.outcome != OPEN

    def current_players(self, state: NegotiationState) -> tuple[int, ...]:
        """The player whose round it is."""
        return () if state.outcome != OPEN else (state.to_move,)

    def _may_agree(self, state: NegotiationState) -> bool:
        return bool(state.proposals) or self.settings.opening_agree == "reference"

    def legal_actions(self, state: NegotiationState, player: int) -> tuple[str, ...]:
        """``Agree`` (once there is a proposal) and every division of the pool, sorted."""
        if state.outcome != OPEN or player != state.to_move:
            return ()
        proposals = _proposal_actions(state.pool)
        return (AGREE, *proposals) if self._may_agree(state) else proposals

    def is_legal(self, state: NegotiationState, player: int, action: str) -> bool:
        """Whether ``action`` is ``Agree`` when allowed or a canonical division of the pool."""
        if state.outcome != OPEN or player != state.to_move:
            return False
        if action == AGREE:
            return self._may_agree(state)
        return action in _proposals(state.pool)

    def illegal_reason(self, state: NegotiationState, action: str) -> str:
        """Why ``action`` is refused for the player to move, saying what is accepted."""
        accepted = "write 'Agree' or a division as 'P1: (a,b,c), P2: (x,y,z)'"
        if AGREE_RE.fullmatch(action.strip().strip("[]").strip()):
            return "there is no proposal to agree to yet; make the first proposal"
        proposal = read_proposal(action)
        if proposal is None:
            return f"{action!r} is not a proposal: {accepted}"
        if not is_split(proposal, state.pool):
            totals = tuple(proposal[t] + proposal[t + ITEM_TYPES] for t in range(ITEM_TYPES))
            return (
                f"the shares add up to {list(totals)} but the pool is {list(state.pool)}; "
                "P1's and P2's counts of every item type must add up to the pool"
            )
        return f"write the proposal exactly as {proposal_name(proposal)!r}"

    def apply(
        self, state: NegotiationState, actions: Mapping[int, str]
    ) -> tuple[NegotiationState, list[Event]]:
        """Apply the move of the player to move; refusals say what was wrong.

        Raises:
            IllegalActionError: Out of turn, after the end, a malformed proposal, one
                that does not divide the pool, or ``Agree`` with nothing to agree to.
        """
        for player, action in actions.items():
            if (
                state.outcome == OPEN
                and player == state.to_move
                and not self.is_legal(state, player, action)
            ):
                raise IllegalActionError(
                    action,
                    self.legal_actions(state, player),
                    player=player,
                    reason=self.illegal_reason(state, action),
                )
        return super().apply(state, actions)

    def _apply(
        self, state: NegotiationState, actions: Mapping[int, str]
    ) -> tuple[NegotiationState, list[Event]]:
        player, action = next(iter(actions.items()))
        turn = state.turn + 1
        if action == AGREE:
            new = NegotiationState(
                seed=state.seed,
                turn=turn,
                pool=state.pool,
                values=state.values,
                proposals=state.proposals,
                outcome=AGREED,
            )
            payoff = self.returns(new)
            return new, [{"type": "agree", "player": player, "payoff": list(payoff)}]
        proposal = _proposals(state.pool)[action]
        proposals = (*state.proposals, proposal)
        events: list[Event] = [{"type": "propose", "player": player, "proposal": action}]
        outcome = OPEN
        options = self.settings
        if len(proposals) >= options.max_rounds:
            outcome = NO_DEAL
            events.append({"type": "no_deal", "reason": f"{options.max_rounds} rounds played"})
        elif ends_by_chance(
            state.seed, turn, len(proposals) + 1, options.end_after_round, options.end_chance
        ):
            outcome = NO_DEAL
            events.append({"type": "no_deal", "reason": "ended by chance"})
        new = NegotiationState(
            seed=state.seed,
            turn=turn,
            pool=state.pool,
            values=state.values,
            proposals=proposals,
            outcome=outcome,
        )
        return new, events

    def returns(self, state: NegotiationState) -> tuple[float, ...]:
        """After an agreement, each player's value of its share; otherwise 0 each."""
        if state.outcome != AGREED:
            return (0.0, 0.0)
        if not state.proposals:
            return OPENING_AGREE_PAYOFF
        last = state.proposals[-1]
        return (
            float(share_value(state.values[0], last[:ITEM_TYPES])),
            float(share_value(state.values[1], last[ITEM_TYPES:])),
        )

    def action_mentions(self, state: NegotiationState, player: int, text: str) -> list[Mention]:
        """Proposals ``P1: (x,y,z), P2: (x,y,z)`` and ``Agree``.

        Proposals may say ``Player1:`` and use brackets or parentheses; they are named
        whether or not they divide the pool. ``Agree`` is a yes/no answer, so a negated
        one (``I do not agree``, ``no agreement``) names nothing.
        """
        return [
            mention
            for mention in _MENTIONS(text)
            if mention.action != AGREE or not negated(text, mention.start)
        ]

    def rejection_reason(self, state: NegotiationState, player: int, action: str) -> str | None:
        """The specific reason the proposal (or ``Agree``) read was refused."""
        if state.outcome != OPEN or player != state.to_move:
            return None
        return self.illegal_reason(state, action)

    def fallback_action(
        self, state: NegotiationState, player: int, rng: random.Random
    ) -> str | None:
        """``Agree`` (GAMEBoT's runner agreed when it could not read a proposal).

        Before any proposal, where agreeing is refused, a random division instead.
        """
        legal = self.legal_actions(state, player)
        if not legal:
            return None
        return AGREE if AGREE in legal else rng.choice(legal)

    def observation(self, state: NegotiationState, player: int) -> str:
        """GAMEBoT's input for ``player``: pool, own values, proposals so far."""
        options = self.settings
        return observation_text(state, player, options.end_after_round, options.end_chance)

    def render(self, state: NegotiationState) -> str:
        """Pool, both players' values, history and outcome."""
        return render_text(state, self.returns(state))

    def value_for(self, state: NegotiationState, player: int, proposal: Proposal) -> int:
        """What ``player``'s share of ``proposal`` is worth to it."""
        share = proposal[:ITEM_TYPES] if player == 0 else proposal[ITEM_TYPES:]
        return share_value(state.values[player], share)

    def ground_truth(self, state: NegotiationState, player: int) -> dict[int, Answer]:
        """Once there is a proposal: what the latest one is worth to ``player`` (1)."""
        if not state.proposals:
            return {}
        return {1: self.value_for(state, player, state.proposals[-1])}

    def action_ground_truth(
        self, state: NegotiationState, player: int, action: str
    ) -> dict[int, Answer]:
        """When ``action`` is a valid proposal: what it is worth to ``player`` (2)."""
        proposal = read_proposal(action)
        if proposal is None or not is_split(proposal, state.pool):
            return {}
        return {2: self.value_for(state, player, proposal)}
