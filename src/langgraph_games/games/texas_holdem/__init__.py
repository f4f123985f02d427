"""Texas Hold'em (GAMEBoT): heads-up no-limit, 100 chips each, a match of several hands.

Betting rules are in :mod:`.rules`, the hand evaluator in :mod:`.cards`. A player's view
shows its own two cards and never the opponent's. The outcome score of a match is the
chips won divided by ``return_scale`` = 100 (the starting stack), so
busting the opponent scores +1.

Versions: 3 (the newest) has the ``postflop_order`` option, by default ``"gamebot"`` (the
button acts first on every street, as in the engine GAMEBoT played); versions 1 and 2,
kept so that their results files read back exactly, have the big blind act first after the
flop (``"standard"``) and no such option.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import ClassVar, cast

from pydantic import Field

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem
from langgraph_games.games.texas_holdem.render import observation_text, render_text
from langgraph_games.games.texas_holdem.rules import (
    ACTIONS,
    STARTING_CHIPS,
    MatchRules,
    PostflopOrder,
    TexasState,
    act,
    action_amount,
    legal_actions,
    start_match,
    to_call,
)
from langgraph_games.games.texas_holdem.truth import texas_truth

__all__ = [
    "TexasHoldem",
    "TexasHoldemOptions",
    "TexasHoldemV1",
    "TexasHoldemV2",
    "TexasHoldemV2Options",
    "TexasState",
]

# An optional part between two runs of spaces takes its own spaces (``\s*(?:and\s*)?``, not
# ``\s*(?:and)?\s*``): two quantifiers that can take the same spaces side by side backtrack in
# quadratic time on a long run of them.
_PHRASES = regex_mentions(
    [
        (re.compile(r"\braise\s*half(?:\s*pot)?\b", re.I), "Raise Half Pot"),
        (re.compile(r"\braise\s*(?:full\s*)?pot\b", re.I), "Raise Full Pot"),
        (re.compile(r"\bcheck\s*(?:(?:and|&|/)\s*)?call\b", re.I), "Check and Call"),
        (re.compile(r"\bhalf\s*pot\b", re.I), "Raise Half Pot"),
        (re.compile(r"\bfull\s*pot\b", re.I), "Raise Full Pot"),
        (re.compile(r"\ball[\s-]*in\b", re.I), "All in"),
        (re.compile(r"\bcheck\b|\bcall\b", re.I), "Check and Call"),
        (re.compile(r"\bfold\b", re.I), "Fold"),
    ],
    starts=r"(?i:[acfhr])",
)


class TexasHoldemV2Options(GameOptions):
    """Options of versions 1 and 2 (:class:`TexasHoldemV1`, :class:`TexasHoldemV2`)."""

    hand_limit: int = Field(
        10, ge=1, le=10_000, description="hands after which the match ends if nobody busted"
    )


class TexasHoldemOptions(TexasHoldemV2Options):
    """Options of :class:`TexasHoldem` (version 3)."""

    postflop_order: PostflopOrder = Field(
        "gamebot",
        description=(
            "who acts first on the flop, turn and river: gamebot = the button (small blind), "
            "as in PettingZoo's texas_holdem_no_limit_v6 that GAMEBoT played; standard = the "
            "big blind (casino heads-up)"
        ),
    )


@register
class TexasHoldem(Game[TexasState]):
    """Heads-up no-limit hold'em with GAMEBoT's five actions; a match of several hands.

    Every hand is dealt from the seed and the hand number alone, so a match and its mirror
    with the seats swapped play the same cards (version 1, kept for its results files, also
    used the turn each hand started on; see :class:`~.rules.MatchRules`). Version 3 adds the
    ``postflop_order`` option and plays GAMEBoT's order by default: the button acts first on
    every street (version 2 is the same game with the ``"standard"`` order fixed).
    """

    id = "texas_holdem"
    version = 3
    name = "Texas Hold'em"
    description = (
        "Heads-up no-limit Texas Hold'em, 100 chips each, blinds 1/2, five actions; "
        "hands until a player busts or the hand limit."
    )
    source = "GAMEBoT"
    player_names = ("Player 1", "Player 2")
    Options: ClassVar[type[TexasHoldemV2Options]] = TexasHoldemOptions
    State = TexasState
    answer_labels = ("Chosen Action",)
    return_scale = float(STARTING_CHIPS)
    subproblems = (
        Subproblem(
            1,
            "preflop_win_percent",
            AnswerKind.NUMBER,
            Metric.ACCURACY,
            "Before the flop: the table's winning probability of your two cards, in %.",
            "XX.X%",
            tolerance=0.05,
            unit="%",
        ),
        Subproblem(
            2,
            "hand_rank",
            AnswerKind.NUMBER,
            Metric.ACCURACY,
            "On the flop, turn and river: the rank (1-10) of your best five-card hand.",
            "X",
        ),
    )

    _deal_by_turn: ClassVar[bool] = False

    @property
    def settings(self) -> TexasHoldemV2Options:
        """The validated options."""
        return cast(TexasHoldemV2Options, self.options)

    @property
    def postflop_order(self) -> PostflopOrder:
        """Who acts first on the flop, turn and river (the ``postflop_order`` option)."""
        return cast(TexasHoldemOptions, self.options).postflop_order

    @property
    def rules(self) -> MatchRules:
        """The match settings the pure rules are played under."""
        return MatchRules(self.settings.hand_limit, self._deal_by_turn, self.postflop_order)

    def initial_state(self, seed: int = 0) -> TexasState:
        """The first hand dealt from the seed, seat 0 on the button, blinds posted."""
        return start_match(seed, self.rules)[0]

    def is_terminal(self, state: TexasState) -> bool:
        """A player has no chips left, or the hand limit was played."""
        return state.over

    def current_players(self, state: TexasState) -> tuple[int, ...]:
        """The seat to act."""
        return () if state.over else (state.to_act,)

    def legal_actions(self, state: TexasState, player: int) -> tuple[str, ...]:
        """The allowed actions among the five, sorted."""
        return tuple(sorted(legal_actions(state, player)))

    def is_legal(self, state: TexasState, player: int, action: str) -> bool:
        """Whether ``action`` is allowed for ``player`` now."""
        return action in legal_actions(state, player)

    def illegal_reason(self, state: TexasState, player: int, action: str) -> str:
        """Why ``action`` is not allowed for ``player`` now, in words a model can act on."""
        if state.over:
            return "the match is over"
        if player != state.to_act:
            return f"it is not this player's turn (to act: {state.to_act})"
        if action not in ACTIONS:
            return f"{action!r} is not one of the five actions ({', '.join(ACTIONS)})"
        owed = to_call(state, player)
        behind = state.stacks[player]
        if state.stacks[1 - player] == 0:
            return "your opponent is all in, so you can only call or fold"
        if behind <= owed:
            return (
                f"your {behind} chips do not cover the {owed} to call, so Check and Call puts "
                "them all in and no raise is possible"
            )
        amount = action_amount(state, player, action)
        if amount <= owed:
            return (
                f"{action} would put in {amount} chips, which does not raise over the "
                f"{owed} needed to call"
            )
        return (
            f"{action} needs {amount} chips but you have {behind} behind; "
            f"All in puts in all {behind}"
        )

    def apply(
        self, state: TexasState, actions: Mapping[int, str]
    ) -> tuple[TexasState, list[Event]]:
        """Apply the acting player's action; refusals say why and list what is allowed.

        Raises:
            IllegalActionError: Out of turn, after the end, or not allowed now (for example
                a raise bigger than the chips behind).
        """
        for player, action in actions.items():
            if (
                not state.over
                and player == state.to_act
                and not self.is_legal(state, player, action)
            ):
                raise IllegalActionError(
                    action,
                    self.legal_actions(state, player),
                    player=player,
                    reason=self.illegal_reason(state, player, action),
                )
        return super().apply(state, actions)

    def _apply(
        self, state: TexasState, actions: Mapping[int, str]
    ) -> tuple[TexasState, list[Event]]:
        player, action = next(iter(actions.items()))
        return act(state, player, action, self.rules)

    def returns(self, state: TexasState) -> tuple[float, ...]:
        """Chips won or lost so far, counted at the start of the current hand (or the end).

        That is each player's chips then minus the 100 it started with.
        """
        return tuple(float(state.stacks[p] + state.committed[p] - STARTING_CHIPS) for p in (0, 1))

    def action_mentions(self, state: TexasState, player: int, text: str) -> list[Mention]:
        """The five action names and short forms.

        Short forms: ``check``, ``call``, ``half pot``, ``full pot``, ``raise pot``,
        ``all-in``.
        """
        return _PHRASES(text)

    def rejection_reason(self, state: TexasState, player: int, action: str) -> str | None:
        """Why the action read is not allowed now (see :meth:`illegal_reason`)."""
        return self.illegal_reason(state, player, action)

    def fallback_action(self, state: TexasState, player: int, rng: random.Random) -> str | None:
        """``Fold``: GAMEBoT's runner folded when it could not read an action."""
        return "Fold" if self.is_legal(state, player, "Fold") else None

    def observation(self, state: TexasState, player: int) -> str:
        """GAMEBoT's state text for ``player`` (its own cards only)."""
        return observation_text(
            state,
            player,
            legal_actions(state, player),
            self.settings.hand_limit,
            self.postflop_order,
        )

    def render(self, state: TexasState) -> str:
        """Both hands, the board and the chips."""
        return render_text(state)

    def ground_truth(self, state: TexasState, player: int) -> dict[int, Answer]:
        """Pre-flop odds from the prompt's table (1), or the made hand's rank 1-10 (2)."""
        return texas_truth(state, player)


@register
class TexasHoldemV2(TexasHoldem):
    """Version 2: the big blind acts first on the flop, turn and river (no option).

    Kept so that results files and replays of ``texas_holdem-v2`` read back exactly: their
    options do not name an order, and they were played under the ``"standard"`` one. New
    runs use version 3, whose default is the order GAMEBoT played.
    """

    version = 2
    Options = TexasHoldemV2Options

    @property
    def postflop_order(self) -> PostflopOrder:
        """Always ``"standard"``: the big blind acts first after the flop."""
        return "standard"


@register
class TexasHoldemV1(TexasHoldemV2):
    """Version 1: hands after the first were dealt from the seed and the turn they began on.

    Kept so that results files and replays of ``texas_holdem-v1`` read back exactly; new
    runs use version 3, whose deals do not depend on how the earlier hands were played.
    """

    version = 1
    _deal_by_turn = True
