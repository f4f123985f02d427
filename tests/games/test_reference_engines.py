"""Our rules agree with reference engines on random play-outs: legal moves, ends, winners.

Board games are compared with OpenSpiel; Texas Hold'em with the engine of PettingZoo's
``texas_holdem_no_limit_v6``, the game GAMEBoT played (see the Texas section below).

Coordinate maps (our action -> OpenSpiel action string):
- TicTacToe: ``(r,c)`` -> ``x(r,c)``/``o(r,c)``; identical rules.
- Connect4: our rows count from the bottom; OpenSpiel names the column (``x3``).
- Othello: OpenSpiel's start has the colours of our (GAMEBoT's) start mirrored top to
  bottom, so row ``k`` maps to row ``9 - k``; OpenSpiel's explicit ``pass`` action is
  what our engine applies automatically.
- Checkers: OpenSpiel puts the first player's men on rows 1-3 of columns a, c, e, g;
  GAMEBoT uses columns 1, 3, 5, 7 for White's first row, a mirror image, so column ``c``
  maps to letter ``7 - c`` and row ``r`` to rank ``r + 1``.

Rules that differ on purpose: Checkers draws on threefold repetition in our engine (the
GAMEBoT prompt's rule) but not in OpenSpiel, which only has the 40-move rule. A play-out
that our engine ends by repetition is compared up to that point.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pyspiel
import pytest
import rlcard
from rlcard.games.base import Card
from rlcard.games.nolimitholdem.round import Action

from langgraph_games.games import GameSession, make
from langgraph_games.games.texas_holdem import TexasHoldem
from langgraph_games.games.texas_holdem.cards import card_code, parse_card
from langgraph_games.games.texas_holdem.rules import TexasState, act, start_match

PLAYOUTS = 1000


def _ttt(action: str, player: int) -> str:
    return ("x", "o")[player] + action


def _c4(action: str, player: int) -> str:
    return ("x", "o")[player] + action.strip("()").split(",")[1]


def _othello(action: str, player: int) -> str:
    col, row = action.strip("()").split(",")
    return f"{col.lower()}{9 - int(row)}"


def _checkers(action: str, player: int) -> str:
    r1, c1, r2, c2 = map(int, re.findall(r"\d", action))
    return f"{'abcdefgh'[7 - c1]}{r1 + 1}{'abcdefgh'[7 - c2]}{r2 + 1}"


CASES: dict[str, tuple[str, Callable[[str, int], str]]] = {
    "tictactoe": ("tic_tac_toe", _ttt),
    "connect4": ("connect_four", _c4),
    "othello": ("othello", _othello),
    "checkers": ("checkers", _checkers),
}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_random_playouts_agree_with_openspiel(game_id: str) -> None:
    spiel_name, to_spiel = CASES[game_id]
    game = make(game_id)
    reference = pyspiel.load_game(spiel_name)
    repetition_draws = steps = 0
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        ours = GameSession(game, seed=seed)
        theirs = reference.new_initial_state()
        while True:
            # OpenSpiel's explicit passes are automatic in our engine.
            while not theirs.is_terminal() and [
                theirs.action_to_string(a) for a in theirs.legal_actions()
            ] == ["pass"]:
                theirs.apply_action(theirs.legal_actions()[0])
            if ours.done:
                if game_id == "checkers" and game.draw_reason(ours.state) == "threefold repetition":
                    repetition_draws += 1
                    break
                assert theirs.is_terminal(), f"seed {seed}: we ended, OpenSpiel did not"
                assert list(ours.returns) == list(theirs.returns()), f"seed {seed}: winners"
                break
            assert not theirs.is_terminal(), f"seed {seed} step {steps}: OpenSpiel ended first"
            player = ours.current_players[0]
            assert theirs.current_player() == player, f"seed {seed}: player to move"
            legal = ours.legal_actions()
            spiel_legal = {theirs.action_to_string(a): a for a in theirs.legal_actions()}
            assert sorted(to_spiel(a, player) for a in legal) == sorted(spiel_legal), (
                f"seed {seed} step {len(ours.actions)}: legal moves differ"
            )
            action = rng.choice(legal)
            ours.step(action)
            theirs.apply_action(spiel_legal[to_spiel(action, player)])
            steps += 1
    assert steps > PLAYOUTS * 5
    if game_id == "checkers":
        # Repetition needs kings shuffling, which random play produces only now and then.
        assert repetition_draws < PLAYOUTS // 10


# --- Texas Hold'em against PettingZoo's texas_holdem_no_limit_v6 ----------------------------
#
# PettingZoo's ``texas_holdem_no_limit_v6`` is an AEC wrapper around
# ``rlcard.make("no-limit-holdem")``: its ``agent_selection`` is rlcard's player to act, its
# action mask rlcard's legal actions and its rewards rlcard's payoffs. (Importing the
# PettingZoo module needs pygame for its renderer, which the test environment lacks, so the
# game the wrapper holds is driven directly.) One rlcard game is one hand at 100 chips each;
# every hand of our match is set up in it with our stacks, button and cards.
#
# Differences on purpose, which the comparison steps over:
# - No raise of any kind when the opponent has no chips behind (rlcard offers a pointless
#   one), so there only Fold and Check and Call are compared.
# - rlcard still asks a player with no chips behind (all in from posting a blind), and the
#   other player when its opponent is all in and it owes nothing; those decisions can change
#   nothing but a fold, and our engine runs the board out instead. They are answered with
#   Check and Call in rlcard.

RLCARD_ACTIONS = {
    Action.FOLD: "Fold",
    Action.CHECK_CALL: "Check and Call",
    Action.RAISE_HALF_POT: "Raise Half Pot",
    Action.RAISE_POT: "Raise Full Pot",
    Action.ALL_IN: "All in",
}
RLCARD_IDS = {name: action.value for action, name in RLCARD_ACTIONS.items()}


def _rlcard_card(card: int) -> Card:
    code = card_code(card)  # "As": rank then suit
    return Card(code[1].upper(), code[0])


class _RlcardMatch:
    """Our match's hands replayed one by one in rlcard's no-limit game (PettingZoo's)."""

    def __init__(self, standard_order: bool) -> None:
        self.env = rlcard.make(
            "no-limit-holdem", {"allow_step_back": False, "seed": 0, "game_num_players": 2}
        )
        self.standard_order = standard_order
        self.chips: list[int] | None = None
        self.button = 0

    @property
    def game(self) -> Any:
        return self.env.game

    def start_hand(
        self,
        chips: list[int],
        button: int,
        holes: tuple[tuple[int, int], tuple[int, int]],
        board: tuple[int, ...],
    ) -> None:
        """Deal a hand with our stacks and cards; our button is rlcard's small blind."""
        assert self.chips is None, "a new hand began before rlcard's hand was settled"
        self.chips, self.button = chips, button
        self.game.init_chips = list(chips)
        self.game.dealer_id = 1 - button  # heads-up rlcard: the small blind is dealer + 1
        self.env.reset()
        for seat in (0, 1):
            self.game.players[seat].hand = [_rlcard_card(c) for c in holes[seat]]
        self.game.dealer.deck = [_rlcard_card(c) for c in reversed(board)]
        self.street = 0

    def _step(self, action_id: int) -> None:
        self.env.step(action_id)
        if self.standard_order and self.game.round_counter != self.street:
            self.street = self.game.round_counter
            if not self.game.is_over() and self.game.players[1 - self.button].remained_chips:
                # The standard order: the big blind opens the flop, turn and river.
                self.game.game_pointer = self.game.round.game_pointer = 1 - self.button

    def skip_pointless(self) -> None:
        """Answer rlcard's decisions that cannot matter with Check and Call."""
        while not self.game.is_over():
            seat = self.game.game_pointer
            players = self.game.players
            owed = max(self.game.round.raised) - self.game.round.raised[seat]
            if players[seat].remained_chips and (players[1 - seat].remained_chips or owed):
                return
            self._step(Action.CHECK_CALL.value)

    def decision(self) -> tuple[int, list[str]]:
        """rlcard's player to act and its legal actions (raises only when they can matter)."""
        self.skip_pointless()
        assert not self.game.is_over(), "rlcard's hand ended first"
        seat = self.game.game_pointer
        legal = [RLCARD_ACTIONS[a] for a in self.game.get_legal_actions()]
        if not self.game.players[1 - seat].remained_chips:
            legal = [a for a in legal if a in ("Fold", "Check and Call")]
        return seat, sorted(legal)

    def act(self, action: str) -> None:
        self._step(RLCARD_IDS[action])

    def settle(self, chips: list[int]) -> None:
        """Our hand ended with ``chips``: rlcard's must be over with the same payoffs."""
        self.skip_pointless()
        assert self.game.is_over(), "our hand ended, rlcard's did not"
        assert self.chips is not None
        payoffs = [int(p) for p in self.game.get_payoffs()]
        assert payoffs == [chips[p] - self.chips[p] for p in (0, 1)], "payoffs differ"
        self.chips = None


def _cards(codes: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


def _follow(reference: _RlcardMatch, state: TexasState, events: list[dict[str, Any]]) -> int:
    """Replay in ``reference`` the hands our engine began or ended in ``events``; hands begun."""
    begun = 0
    for k, event in enumerate(events):
        if event["type"] in ("hand", "match_over") and reference.chips is not None:
            reference.settle(event["chips"])
        if event["type"] != "hand":
            continue
        begun += 1
        if state.hand == event["hand"]:
            holes, board = state.holes, state.board
        else:  # dealt and run out at once: its cards are in its showdown
            shown = next(e for e in events[k:] if e["type"] == "showdown")
            first, second = (_cards(hole) for hole in shown["holes"])
            holes = ((first[0], first[1]), (second[0], second[1]))
            board = _cards(shown["board"])
        reference.start_hand(event["chips"], event["button"], holes, board)
    return begun


def _compare(game: TexasHoldem, seed: int, standard_reference: bool) -> tuple[str | None, int]:
    """A random match in our rules and rlcard's side by side: the first difference, hands."""
    rng = random.Random(seed)
    reference = _RlcardMatch(standard_reference)
    state, events = start_match(seed, game.rules)
    hands = 0
    try:
        hands += _follow(reference, state, events)
        while not state.over:
            player = state.to_act
            seat, legal = reference.decision()
            if seat != player:
                return f"to act on the {STREET_NAMES[state.street]}", hands
            ours = list(game.legal_actions(state, player))
            if legal != ours:
                return f"legal actions {ours} vs {legal}", hands
            action = rng.choice(ours)
            reference.act(action)
            state, events = act(state, player, action, game.rules)
            hands += _follow(reference, state, events[1:])
    except AssertionError as error:
        return str(error), hands
    return None, hands


STREET_NAMES = ("pre-flop", "flop", "turn", "river")


def test_texas_holdem_default_order_agrees_with_pettingzoo() -> None:
    # The default post-flop order is the one GAMEBoT played: the button (small blind) opens
    # every street, so whole random matches agree with texas_holdem_no_limit_v6 hand by hand.
    game = make("texas_holdem")
    assert isinstance(game, TexasHoldem) and game.postflop_order == "gamebot"
    hands = 0
    for seed in range(PLAYOUTS):
        difference, played = _compare(game, seed, standard_reference=False)
        assert difference is None, f"seed {seed}: {difference}"
        hands += played
    assert hands > 4 * PLAYOUTS


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("texas_holdem", {"postflop_order": "standard"}), ("texas_holdem-v2", {})],
)
def test_texas_holdem_standard_order_differs_only_in_who_opens_after_the_flop(
    game_id: str, options: dict[str, str]
) -> None:
    # The casino rule (the big blind opens the flop, turn and river) is the only difference:
    # against PettingZoo's engine as it is, every match that differs first differs there;
    # with the engine's post-flop first player moved to the big blind, none differs.
    game = make(game_id, **options)
    assert isinstance(game, TexasHoldem) and game.postflop_order == "standard"
    first: Counter[str] = Counter()
    for seed in range(PLAYOUTS):
        difference, _ = _compare(game, seed, standard_reference=False)
        if difference is not None:
            first[difference] += 1
        moved, _ = _compare(game, seed, standard_reference=True)
        assert moved is None, f"seed {seed}: {moved}"
    assert set(first) <= {"to act on the flop", "to act on the turn", "to act on the river"}
    assert first["to act on the flop"] > PLAYOUTS // 4
