"""Heads-up no-limit Texas Hold'em as GAMEBoT played it (paper Appendix H.7): pure rules.

A match: both players start with 100 chips; hands are played until a player has no chips
left or the hand limit is reached. The button alternates, starting with seat 0. The
button posts the small blind (1 chip) and acts first before the flop; the other player
posts the big blind (2 chips). Who acts first on the flop, turn and river is
:attr:`MatchRules.postflop_order`: ``"gamebot"``, the button (small blind) on every street
as in PettingZoo's ``texas_holdem_no_limit_v6`` (rlcard), the engine GAMEBoT played; or
``"standard"``, the big blind, as in casino heads-up play. A player short of a blind posts
what it has and is all in.

The five actions follow PettingZoo's ``texas_holdem_no_limit`` (rlcard), which GAMEBoT
used; ``pot`` is every chip put in this hand and ``to call`` the difference between the
two players' chips in the pot:

- ``Fold``: always allowed (also when checking is free), losing the pot.
- ``Check and Call``: put in ``to call`` (nothing to check); with fewer chips, all of them.
- ``Raise Half Pot`` / ``Raise Full Pot``: put in ``pot // 2`` / ``pot`` chips, allowed when
  that is more than ``to call`` and no more than the chips behind.
- ``All in``: put in every chip behind, allowed when that is more than ``to call``.
Raises of any kind need an opponent with chips behind.

A betting round ends when both players have acted since the last raise and have equal
chips in the pot. When no more betting is possible (a player is all in and the other has
matched or called), the remaining community cards are dealt and the hand goes to a
showdown. Chips one player put in beyond what the other could match are returned; the
best five-card hand wins the pot and equal hands split it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal, NamedTuple

from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.games.texas_holdem.cards import card_code, evaluate, hand_rank

__all__ = [
    "ACTIONS",
    "BIG_BLIND",
    "POSTFLOP_ORDERS",
    "SMALL_BLIND",
    "STARTING_CHIPS",
    "STREETS",
    "MatchRules",
    "PostflopOrder",
    "TexasState",
    "act",
    "action_amount",
    "first_to_act",
    "legal_actions",
    "start_match",
    "to_call",
]

STARTING_CHIPS = 100
SMALL_BLIND = 1
BIG_BLIND = 2
STREETS = ("Pre-flop", "Flop", "Turn", "River")
BOARD_SIZES = (0, 3, 4, 5)
ACTIONS = ("Fold", "Check and Call", "Raise Half Pot", "Raise Full Pot", "All in")
"""The five actions in the prompt's order."""

PostflopOrder = Literal["gamebot", "standard"]
"""Who acts first after the flop: the button (``gamebot``) or the big blind (``standard``)."""
POSTFLOP_ORDERS: tuple[PostflopOrder, ...] = ("gamebot", "standard")

Event = dict[str, Any]


class MatchRules(NamedTuple):
    """The settings a match is played under.

    Attributes:
        hand_limit: Hands after which the match ends if nobody busted.
        deal_by_turn: Version 1 shuffled each hand's deck from the seed *and* the turn the
            hand started on, so the same seed dealt different cards from hand 2 on once the
            players acted differently. Version 2 shuffles from the seed and the hand number
            only: the same seed deals the same hands whatever is played, so a match and its
            mirror (seats swapped) play the same cards.
        postflop_order: Who acts first on the flop, turn and river. ``"gamebot"``: the
            button (small blind), who also acts first before the flop, as in PettingZoo's
            ``texas_holdem_no_limit_v6`` (rlcard), the engine GAMEBoT played. ``"standard"``:
            the big blind, the casino heads-up rule (versions 1 and 2 of the game).
    """

    hand_limit: int
    deal_by_turn: bool = False
    postflop_order: PostflopOrder = "gamebot"


@dataclass(frozen=True, slots=True)
class TexasState(GameState):
    """A point in a match: the current hand and the chips of both players.

    Attributes:
        hand: Number of the hand being played (1 for the first).
        button: Seat on the button (small blind; first to act before the flop, and after it
            too under the ``"gamebot"`` order).
        stacks: Chips each player has behind (not yet in the pot).
        committed: Chips each player has put in the pot this hand.
        street: 0 pre-flop, 1 flop, 2 turn, 3 river.
        holes: Each seat's two private cards.
        board: The hand's five community cards; ``BOARD_SIZES[street]`` are revealed.
        to_act: The seat to act, or -1 once the match is over.
        acted: Whether each seat has acted since the last raise on this street.
    """

    hand: int
    button: int
    stacks: tuple[int, int]
    committed: tuple[int, int]
    street: int
    holes: tuple[tuple[int, int], tuple[int, int]]
    board: tuple[int, int, int, int, int]
    to_act: int
    acted: tuple[bool, bool]

    type_name: ClassVar[str] = "texas_holdem"

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.to_act < 0

    @property
    def pot(self) -> int:
        """Chips in the pot this hand."""
        return self.committed[0] + self.committed[1]

    @property
    def revealed(self) -> tuple[int, ...]:
        """The community cards dealt so far."""
        return self.board[: BOARD_SIZES[self.street]]

    def validate(self) -> tuple[str, str] | None:
        """Check chip totals, cards and seats."""
        total = sum(self.stacks) + sum(self.committed)
        if total != 2 * STARTING_CHIPS or min(*self.stacks, *self.committed) < 0:
            return ("stacks", f"chips must be non-negative and add up to {2 * STARTING_CHIPS}")
        cards = [*self.holes[0], *self.holes[1], *self.board]
        if len(set(cards)) != 9 or not all(0 <= c < 52 for c in cards):
            return ("board", "the nine cards of a hand must be distinct cards 0-51")
        if self.button not in (0, 1) or self.to_act not in (-1, 0, 1):
            return ("to_act", "seats are 0 and 1 (-1 once the match is over)")
        if not 0 <= self.street < len(STREETS):
            return ("street", "must be 0-3")
        if self.hand < 1:
            return ("hand", "must be >= 1")
        return GameState.validate(self)


def to_call(state: TexasState, player: int) -> int:
    """Chips ``player`` must add to match the opponent's chips in the pot."""
    return max(0, state.committed[1 - player] - state.committed[player])


def action_amount(state: TexasState, player: int, action: str) -> int:
    """Chips ``action`` would put in the pot (before capping a call at the stack)."""
    if action == "Check and Call":
        return min(to_call(state, player), state.stacks[player])
    if action == "Raise Half Pot":
        return state.pot // 2
    if action == "Raise Full Pot":
        return state.pot
    if action == "All in":
        return state.stacks[player]
    return 0


def first_to_act(button: int, street: int, order: PostflopOrder) -> int:
    """The seat that opens the betting on ``street`` (0 pre-flop) of a hand.

    Before the flop it is the button under either order; after it, the button under
    ``"gamebot"`` and the big blind (the other seat) under ``"standard"``.
    """
    if street == 0 or order == "gamebot":
        return button
    return 1 - button


def legal_actions(state: TexasState, player: int) -> tuple[str, ...]:
    """The actions ``player`` may take now, in the prompt's order (empty if not to act)."""
    if state.over or player != state.to_act:
        return ()
    actions = ["Fold", "Check and Call"]
    owed = to_call(state, player)
    behind = state.stacks[player]
    if state.stacks[1 - player] > 0 and behind > owed:
        for action in ("Raise Half Pot", "Raise Full Pot"):
            amount = action_amount(state, player, action)
            if owed < amount <= behind:
                actions.append(action)
        actions.append("All in")
    return tuple(actions)


def start_match(seed: int, rules: MatchRules) -> tuple[TexasState, list[Event]]:
    """The first hand of a match (seat 0 on the button), dealt and with blinds posted."""
    return _new_hand(seed, 0, 1, 0, (STARTING_CHIPS, STARTING_CHIPS), rules)


def act(
    state: TexasState, player: int, action: str, rules: MatchRules
) -> tuple[TexasState, list[Event]]:
    """Apply a legal ``action`` of the player to act; play on to the next decision."""
    amount = 0 if action == "Fold" else action_amount(state, player, action)
    stacks = list(state.stacks)
    committed = list(state.committed)
    stacks[player] -= amount
    committed[player] += amount
    acted = [state.acted[0], state.acted[1]]
    acted[player] = True
    if action not in ("Fold", "Check and Call"):
        acted[1 - player] = False
    events: list[Event] = [{"type": "action", "player": player, "action": action, "amount": amount}]
    moved = replace(
        state,
        turn=state.turn + 1,
        stacks=(stacks[0], stacks[1]),
        committed=(committed[0], committed[1]),
        acted=(acted[0], acted[1]),
    )
    if action == "Fold":
        return _finish_hand(moved, winner=1 - player, events=events, rules=rules)
    return _advance(moved, events, rules, last=player)


def _advance(
    state: TexasState, events: list[Event], rules: MatchRules, last: int | None
) -> tuple[TexasState, list[Event]]:
    """Move on to the next decision: the other player, the next street or a showdown.

    ``last`` is the seat that just acted, or ``None`` when a hand has just been dealt
    (``to_act`` is then already the first to act, :func:`first_to_act`).
    """
    while True:
        with_chips = [p for p in (0, 1) if state.stacks[p] > 0]
        if len(with_chips) < 2:
            waiting = [p for p in with_chips if to_call(state, p) > 0]
            if waiting:
                return replace(state, to_act=waiting[0]), events
            return _showdown(replace(state, street=3), events, rules)
        if last is None:
            return state, events
        if not (all(state.acted) and state.committed[0] == state.committed[1]):
            return replace(state, to_act=1 - last), events
        if state.street == 3:
            return _showdown(state, events, rules)
        street = state.street + 1
        state = replace(
            state,
            street=street,
            acted=(False, False),
            to_act=first_to_act(state.button, street, rules.postflop_order),
        )
        shown = state.board[BOARD_SIZES[state.street - 1] : BOARD_SIZES[state.street]]
        events.append(
            {
                "type": "street",
                "street": STREETS[state.street],
                "cards": [card_code(c) for c in shown],
            }
        )
        last = None


def _showdown(
    state: TexasState, events: list[Event], rules: MatchRules
) -> tuple[TexasState, list[Event]]:
    strengths = [evaluate((*state.holes[p], *state.board)) for p in (0, 1)]
    events.append(
        {
            "type": "showdown",
            "board": [card_code(c) for c in state.board],
            "holes": [[card_code(c) for c in state.holes[p]] for p in (0, 1)],
            "ranks": [hand_rank(s) for s in strengths],
        }
    )
    winner = None if strengths[0] == strengths[1] else int(strengths[1] > strengths[0])
    return _finish_hand(replace(state, street=3), winner, events, rules)


def _finish_hand(
    state: TexasState, winner: int | None, events: list[Event], rules: MatchRules
) -> tuple[TexasState, list[Event]]:
    """Return unmatched chips, pay the pot, then deal the next hand or end the match."""
    matched = min(state.committed)
    chips = [state.stacks[p] + state.committed[p] - matched for p in (0, 1)]
    pot = 2 * matched
    if winner is None:
        chips = [c + pot // 2 for c in chips]
        events.append({"type": "split", "pot": pot})
    else:
        chips[winner] += pot
        events.append({"type": "win", "player": winner, "pot": pot})
    if min(chips) == 0 or state.hand >= rules.hand_limit:
        events.append({"type": "match_over", "chips": chips, "hands": state.hand})
        final = replace(
            state, stacks=(chips[0], chips[1]), committed=(0, 0), to_act=-1, acted=(False, False)
        )
        return final, events
    new, more = _new_hand(
        state.seed, state.turn, state.hand + 1, 1 - state.button, (chips[0], chips[1]), rules
    )
    return new, events + more


def _new_hand(
    seed: int,
    turn: int,
    hand: int,
    button: int,
    chips: tuple[int, int],
    rules: MatchRules,
) -> tuple[TexasState, list[Event]]:
    """Shuffle from the seed, deal, post the blinds and play on to the first decision.

    The deck depends on the seed and the hand number (version 1: also the turn, see
    :class:`MatchRules`); hand 1 starts on turn 0, so both versions deal it alike.
    """
    deck = list(range(52))
    derive_rng(seed, turn if rules.deal_by_turn else 0, "deal", hand).shuffle(deck)
    blinds = [0, 0]
    blinds[button] = min(SMALL_BLIND, chips[button])
    blinds[1 - button] = min(BIG_BLIND, chips[1 - button])
    state = TexasState(
        seed=seed,
        turn=turn,
        hand=hand,
        button=button,
        stacks=(chips[0] - blinds[0], chips[1] - blinds[1]),
        committed=(blinds[0], blinds[1]),
        street=0,
        holes=((deck[0], deck[1]), (deck[2], deck[3])),
        board=(deck[4], deck[5], deck[6], deck[7], deck[8]),
        to_act=first_to_act(button, 0, rules.postflop_order),
        acted=(False, False),
    )
    events: list[Event] = [
        {"type": "hand", "hand": hand, "button": button, "blinds": blinds, "chips": list(chips)}
    ]
    return _advance(state, events, rules, last=None)
