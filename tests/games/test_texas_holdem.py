"""Texas Hold'em: the hand evaluator against rlcard and OpenSpiel, betting rules, truth, errors."""

from __future__ import annotations

import random

import pytest

from langgraph_games.games import GameSession, IllegalActionError, OptionError, make
from langgraph_games.games.subproblems import score_answer
from langgraph_games.games.texas_holdem import TexasHoldem, TexasState
from langgraph_games.games.texas_holdem.cards import (
    card_code,
    card_name,
    evaluate,
    hand_rank,
    parse_card,
)
from langgraph_games.games.texas_holdem.rules import MatchRules, _new_hand
from langgraph_games.games.texas_holdem.truth import PREFLOP_WIN_PERCENT, hand_class


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def strength(text: str) -> int:
    return evaluate(cards(text))


# --- the evaluator against reference engines ----------------------------------------


def test_hand_ranks_match_rlcard_on_100k_random_hands() -> None:
    from rlcard.games.limitholdem.utils import Hand

    rlcard_rank = {8: 3, 7: 4, 6: 5, 5: 6, 4: 7, 3: 8, 2: 9, 1: 10}  # 9: straight flush
    rng = random.Random(2024)
    seen = set()
    for _ in range(100_000):
        hand = rng.sample(range(52), 7)
        ours = hand_rank(evaluate(hand))
        reference = Hand([card_code(c)[1].upper() + card_code(c)[0] for c in hand])
        reference.evaluateHand()
        if reference.category == 9:
            royal = {c[1] for c in reference.best_five} == set("AKQJT")
            expected = 1 if royal else 2
        else:
            expected = rlcard_rank[reference.category]
        assert ours == expected, [card_code(c) for c in hand]
        seen.add(ours)
    assert seen >= set(range(2, 11))  # a royal flush is too rare to count on; see below


def test_showdowns_match_openspiel_universal_poker() -> None:
    import pyspiel

    game = pyspiel.load_game(
        "universal_poker",
        {
            "betting": "nolimit",
            "numPlayers": 2,
            "numRounds": 4,
            "blind": "1 2",
            "firstPlayer": "1 1 1 1",
            "numSuits": 4,
            "numRanks": 13,
            "numHoleCards": 2,
            "numBoardCards": "0 3 1 1",
            "stack": "100 100",
        },
    )
    rng = random.Random(7)
    outcomes = {-1: 0, 0: 0, 1: 0}
    for _ in range(30_000):
        dealt = rng.sample(range(52), 9)  # our card numbering is universal_poker's
        state = game.new_initial_state()
        k = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealt[k])
                k += 1
            else:
                state.apply_action(1)  # check or call down to the showdown
        reference = state.returns()[0]
        mine = evaluate(dealt[0:2] + dealt[4:9])
        theirs = evaluate(dealt[2:4] + dealt[4:9])
        expected = (mine > theirs) - (mine < theirs)
        assert (reference > 0) - (reference < 0) == expected, [card_code(c) for c in dealt]
        outcomes[expected] += 1
    assert min(outcomes.values()) > 500  # wins, losses and splits all occurred


@pytest.mark.parametrize(
    ("hand", "rank"),
    [
        ("As Ks Qs Js Ts 2d 3c", 1),  # royal flush
        ("Ah Kh Qh Jh Th 9h 8h", 1),  # royal flush among seven suited cards
        ("As 2s 3s 4s 5s Kd Kh", 2),  # A-2-3-4-5 straight flush (steel wheel)
        ("9c Tc Jc Qc Kc Ac 2d", 1),  # the best straight flush in seven is the royal one
        ("9d 9c 9h 9s Kd Kh 2c", 3),  # four of a kind
        ("Ad Ac Ah Kd Kc Kh 2c", 4),  # two threes of a kind make a full house
        ("2h 5h 9h Jh Kh As Ad", 5),  # flush beats a pair
        ("As 2d 3h 4s 5c Kd Kh", 6),  # the wheel: A-2-3-4-5 straight
        ("Ts Jd Qh Kc As 2d 2h", 6),  # broadway straight
        ("Ks As 2d 3h 4c 9d 8s", 10),  # no wrap-around: K-A-2-3-4 is not a straight
        ("7d 7c 7h Ks 2d 3c 9h", 7),  # three of a kind
        ("Ad Ac Kd Kc Qd Qc 2h", 8),  # two pair (three pairs)
        ("Ad Ac 3d 5c 9d Jc Kh", 9),  # one pair
        ("2d 4c 6h 8s Td Qc Kh", 10),  # high card
        ("As Ks Qs Js Ts", 1),  # five cards (the flop)
        ("5c 6d 7h 8s 9c 2d", 6),  # six cards (the turn)
    ],
)
def test_edge_case_ranks(hand: str, rank: int) -> None:
    assert hand_rank(strength(hand)) == rank


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts 2d 3c", "9s Ks Qs Js Ts 2d 3c"),  # royal > king-high straight flush
        ("6s 2s 3s 4s 5s Kd Kh", "As 2s 3s 4s 5s Kd Kh"),  # 6-high SF > steel wheel
        ("6d 2d 3h 4s 5c Kd Kh", "Ad 2d 3h 4s 5c Kd Kh"),  # 6-high straight > wheel
        ("Ad 2d 3h 4s 5c 9d 9h", "9c 9s 9d Ks 2c 3d 7h"),  # the wheel beats three nines
        ("9d 9c 9h 9s Kd 2h 2c", "9d 9c 9h 9s Qd Jh Tc"),  # quads: the kicker decides
        ("Ad Ac Ah 2d 2c 5h 6c", "Kd Kc Kh Qd Qc Jh Tc"),  # aces full > kings full
        ("Ad Ac Kd Kc Qd Qc 2h", "Ad Ac Kd Kc Jd Jc Th"),  # two pair: queen kicker > jack
        ("Ad Ac Kd 9c 5d 4c 2h", "Ad Ac Qd Jc 9d 5c 4h"),  # pair of aces: K kicker wins
        ("Ah Kh 9h 7h 3h 2c 2d", "Ah Kh 9h 7h 2h Qc Qd"),  # flushes compare the fifth card
    ],
)
def test_edge_case_order(better: str, worse: str) -> None:
    assert strength(better) > strength(worse)


def test_board_plays_is_a_split() -> None:
    board = "As Ks Qs Js Ts"
    assert strength(f"2d 3c {board}") == strength(f"4h 5h {board}")


def test_card_names_follow_the_prompt() -> None:
    assert card_name(parse_card("As")) == "Spades A"
    assert card_name(parse_card("Th")) == "Hearts 10"
    assert parse_card("10h") == parse_card("Th")
    with pytest.raises(ValueError, match="not a card"):
        parse_card("1x")


# --- pre-flop table and hand-rank truth -----------------------------------------------


def test_preflop_table_covers_every_starting_hand() -> None:
    seen = set()
    for a in range(52):
        for b in range(a + 1, 52):
            key = hand_class((a, b))
            assert key in PREFLOP_WIN_PERCENT
            seen.add(key)
    assert len(PREFLOP_WIN_PERCENT) == 116 and seen <= set(PREFLOP_WIN_PERCENT)
    assert hand_class(tuple(cards("3d 4d"))) == "43s"  # type: ignore[arg-type]
    assert PREFLOP_WIN_PERCENT["43s"] == 35.7  # the prompt's example
    assert hand_class(tuple(cards("7d 2c"))) == "72o"  # type: ignore[arg-type]
    assert hand_class(tuple(cards("7d 2d"))) == "72"  # type: ignore[arg-type]
    assert hand_class(tuple(cards("Ks Ah"))) == "AKo"  # type: ignore[arg-type]
    assert hand_class(tuple(cards("Qs 9s"))) == "Q9"  # type: ignore[arg-type]


def test_truth_by_street_and_two_sided_tolerance() -> None:
    game = TexasHoldem()
    session = GameSession(game, seed=0)  # seat 0: 5d 5c; seat 1: Jh 3c; board Jd As 9c 4c 6h
    assert game.ground_truth(session.state, 0) == {1: 59.6}
    session.step("Check and Call")
    assert game.ground_truth(session.state, 1) == {1: 43.8}
    session.step("Check and Call")
    assert session.state.street == 1
    assert game.ground_truth(session.state, 1) == {2: 9}  # a pair of jacks
    preflop, rank = game.subproblems
    assert score_answer(preflop, "59.6%", 59.6).correct
    assert not score_answer(preflop, "59.5%", 59.6).correct  # the released check was one-sided
    assert not score_answer(preflop, "59.7%", 59.6).correct
    assert score_answer(rank, "9", 9).correct and not score_answer(rank, "8", 9).correct


# --- betting ---------------------------------------------------------------------------


def test_blinds_first_decision_and_private_cards() -> None:
    game = TexasHoldem()
    state = game.initial_state(0)
    assert state.button == 0 and state.to_act == 0
    assert state.committed == (1, 2) and state.stacks == (99, 98)
    assert game.legal_actions(state, 0) == ("All in", "Check and Call", "Fold", "Raise Full Pot")
    assert game.legal_actions(state, 1) == ()
    mine, theirs = game.observation(state, 0), game.observation(state, 1)
    assert "[Diamonds 5, Clubs 5]" in mine and "Hearts J" not in mine and "Clubs 3" not in mine
    assert "[Hearts J, Clubs 3]" in theirs and "Diamonds 5" not in theirs
    assert "The community cards are []" in mine
    assert "You can choose one of the following actions: [Fold, Check and Call" in mine


def test_raise_sizes_follow_the_pot() -> None:
    game = TexasHoldem()
    state, events = game.apply(game.initial_state(0), {0: "Raise Full Pot"})
    assert events[0]["amount"] == 3 and state.committed == (4, 2)
    # Seat 1 owes 2 into a pot of 6: half pot (3) and full pot (6) both raise.
    assert game.legal_actions(state, 1) == (
        "All in", "Check and Call", "Fold", "Raise Full Pot", "Raise Half Pot",
    )  # fmt: skip
    state, events = game.apply(state, {1: "Raise Half Pot"})
    assert events[0]["amount"] == 3 and state.committed == (4, 5) and state.to_act == 0


def test_scripted_check_down_gives_exact_outcome() -> None:
    game = make("texas_holdem", hand_limit=1)
    session = GameSession(game, seed=0)
    while not session.done:
        session.step("Check and Call")
    showdown = next(e for events in session.events for e in events if e["type"] == "showdown")
    assert showdown["ranks"] == [9, 9]  # fives against jacks
    assert session.returns == (-2.0, 2.0)
    assert [r / game.return_scale for r in session.returns] == [-0.02, 0.02]


def test_scripted_all_in_busts_a_player() -> None:
    game = TexasHoldem()
    session = GameSession(game, seed=0)
    session.step("All in")
    session.step("Check and Call")
    assert session.done and session.state.hand == 1
    assert session.returns == (-100.0, 100.0)
    assert [r / game.return_scale for r in session.returns] == [-1.0, 1.0]


def test_fold_and_hand_limit() -> None:
    game = make("texas_holdem", hand_limit=2)
    session = GameSession(game, seed=3)
    session.step("Fold")  # the button folds its small blind
    assert session.state.hand == 2 and session.state.button == 1
    assert game.returns(session.state) == (-1.0, 1.0)
    session.step("Fold")  # now seat 1 is the button and folds
    assert session.done and session.returns == (0.0, 0.0)


def _state(**fields: object) -> TexasState:
    base: dict[str, object] = {
        "seed": 0,
        "turn": 7,
        "hand": 1,
        "button": 0,
        "street": 0,
        "holes": (tuple(cards("Ad Ac")), tuple(cards("7d 2c"))),
        "board": tuple(cards("Ah Kd 9s 5c 3h")),
        "acted": (False, False),
    }
    base.update(fields)
    return TexasState(**base)  # type: ignore[arg-type]


def test_call_for_less_returns_the_unmatched_chips() -> None:
    game = TexasHoldem()
    state = _state(stacks=(20, 170), committed=(8, 2), to_act=1, acted=(True, False))
    state, _ = game.apply(state, {1: "All in"})
    assert game.legal_actions(state, 0) == ("Check and Call", "Fold")
    state, events = game.apply(state, {0: "Check and Call"})
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["action", "showdown", "win", "hand"]
    assert events[2] == {"type": "win", "player": 0, "pot": 56}
    # Seat 0 had 28 in all; seat 1 gets back 172 - 28 = 144 unmatched chips.
    assert game.returns(state) == (-44.0, 44.0)


def test_short_stack_posts_what_it_has() -> None:
    state, events = _new_hand(0, 10, 3, 0, (199, 1), MatchRules(hand_limit=10))
    # Seat 1 is all in with its big blind of 1; nothing to bet, so the hand runs out at once.
    assert events[0]["blinds"] == [1, 1]
    assert any(e["type"] == "showdown" for e in events)
    assert state.over or state.hand == 4


def test_out_of_range_raises_and_bad_actions_explain_themselves() -> None:
    game = TexasHoldem()
    short = _state(stacks=(30, 130), committed=(20, 20), street=1, to_act=1, acted=(False, False))
    deep = _state(stacks=(30, 130), committed=(20, 20), street=1, to_act=0)
    with pytest.raises(IllegalActionError, match="needs 40 chips but you have 30 behind"):
        game.apply(deep, {0: "Raise Full Pot"})
    covered = _state(stacks=(5, 173), committed=(2, 20), to_act=0, acted=(False, True))
    with pytest.raises(IllegalActionError, match="do not cover the 18 to call") as info:
        game.apply(covered, {0: "All in"})
    assert "Legal actions: Check and Call, Fold" in str(info.value)
    with pytest.raises(IllegalActionError, match="not one of the five actions"):
        game.apply(short, {1: "Raise 50"})
    with pytest.raises(IllegalActionError, match="not this player's turn"):
        game.apply(short, {0: "Check and Call"})
    opponent_all_in = _state(stacks=(50, 0), committed=(20, 130), to_act=0, acted=(False, True))
    with pytest.raises(IllegalActionError, match="opponent is all in"):
        game.apply(opponent_all_in, {0: "Raise Half Pot"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2. Conclusion ... 3. **Chosen Action**\nCheck and Call", "Check and Call"),
        ("Chosen Action: All in", "All in"),
        ("Chosen Action: all-in", "All in"),
        ("Chosen Action: Raise Full Pot", "Raise Full Pot"),
        ("Chosen Action: Raise Half Pot", None),  # not allowed in the first decision
        ("Chosen Action: call", "Check and Call"),
        ("I would fold here. Chosen Action: Fold", "Fold"),
        ("Chosen Action: pass", None),
    ],
)
def test_parse_action(text: str, expected: str | None) -> None:
    game = TexasHoldem()
    assert game.parse_action(game.initial_state(0), 0, text) == expected


def test_fallback_folds() -> None:
    game = TexasHoldem()
    assert game.fallback_action(game.initial_state(0), 0, random.Random(0)) == "Fold"


def _deals(game: TexasHoldem, seed: int, policy: list[str]) -> dict[int, tuple[object, object]]:
    """Each hand's cards in a match where the player to act picks by ``policy``'s order."""
    state = game.initial_state(seed)
    deals = {state.hand: (state.holes, state.board)}
    while not game.is_terminal(state):
        player = game.current_players(state)[0]
        legal = game.legal_actions(state, player)
        action = next(a for a in policy if a in legal)
        state = game.apply(state, {player: action})[0]
        deals.setdefault(state.hand, (state.holes, state.board))
    return deals


def test_v2_deals_each_hand_from_the_seed_and_hand_alone() -> None:
    # Folding at once and calling down play hands on different turns; version 2 deals the
    # same cards to the same seats whatever was played, so mirrored matches are fair.
    game = TexasHoldem(hand_limit=6)
    folds = _deals(game, 3, ["Fold"])
    calls = _deals(game, 3, ["Check and Call", "Fold"])
    common = sorted(set(folds) & set(calls))
    assert len(common) >= 3
    assert all(folds[h] == calls[h] for h in common)
    old = make("texas_holdem-v1", hand_limit=6)
    old_folds, old_calls = _deals(old, 3, ["Fold"]), _deals(old, 3, ["Check and Call", "Fold"])
    assert old_folds[1] == old_calls[1] == folds[1]  # hand 1 is dealt alike by both versions
    assert any(old_folds[h] != old_calls[h] for h in common if h > 1)


@pytest.mark.parametrize("version", [1, 2])
def test_old_versions_still_replay_their_golden_playthroughs(version: int) -> None:
    from pathlib import Path

    from langgraph_games.testing import playthrough

    golden = Path(__file__).parent / "golden" / f"texas_holdem-v{version}-seed0.txt"
    assert playthrough(f"texas_holdem-v{version}", seed=0) == golden.read_text(encoding="utf-8")


# --- who acts first after the flop --------------------------------------------------------

# One script of actions, and who must be to act before each under either order. Seed 0,
# hand 1: seat 0 is on the button (small blind), seat 1 the big blind; hand 2 swaps them.
ORDER_SCRIPT = [
    # (action, street, to act under "gamebot", to act under "standard")
    ("Raise Full Pot", 0, 0, 0),  # the button opens pre-flop under both orders: 1 -> 4
    ("Check and Call", 0, 1, 1),  # the big blind calls: 4 each, pot 8
    ("Check and Call", 1, 0, 1),  # flop: the button (gamebot) or the big blind checks
    ("Raise Half Pot", 1, 1, 0),  # the other bets 4
    ("Check and Call", 1, 0, 1),  # and is called: 8 each, pot 16
    ("Check and Call", 2, 0, 1),  # turn: the same seat opens
    ("Check and Call", 2, 1, 0),
    ("Fold", 3, 0, 1),  # river: the first to act folds and loses 8
    ("Check and Call", 0, 1, 1),  # hand 2, seat 1 on the button: it opens pre-flop
    ("Check and Call", 0, 0, 0),  # the big blind checks
]


@pytest.mark.parametrize(
    ("order", "column", "hand_1", "flop_2"),
    [("gamebot", 2, (-8.0, 8.0), 1), ("standard", 3, (8.0, -8.0), 0)],
)
def test_postflop_order_on_a_hand_written_sequence(
    order: str, column: int, hand_1: tuple[float, float], flop_2: int
) -> None:
    game = make("texas_holdem", postflop_order=order, hand_limit=2)
    state = game.initial_state(0)
    for step, row in enumerate(ORDER_SCRIPT):
        action, street = row[0], row[1]
        expected = row[column]
        assert (state.street, state.to_act) == (street, expected), f"step {step}: {action}"
        assert game.current_players(state) == (expected,)
        state, _ = game.apply(state, {expected: action})
        if step == 7:  # the river fold ended hand 1
            assert state.hand == 2 and game.returns(state) == hand_1
    # Hand 2's flop: the button (seat 1) opens under gamebot, the big blind (seat 0) else.
    assert (state.hand, state.street, state.to_act) == (2, 1, flop_2)


def test_postflop_order_option_and_views() -> None:
    assert TexasHoldem().postflop_order == "gamebot"
    assert make("texas_holdem").versioned_id == "texas_holdem-v3"
    assert make("texas_holdem-v2").postflop_order == "standard"  # type: ignore[attr-defined]
    assert make("texas_holdem-v1").postflop_order == "standard"  # type: ignore[attr-defined]
    # The default is left out of a results file's options; the casino rule is written.
    assert make("texas_holdem").options_dict() == {}
    standard = make("texas_holdem", postflop_order="standard")
    assert standard.options_dict() == {"postflop_order": "standard"}
    with pytest.raises(OptionError, match="postflop_order"):
        make("texas_holdem", postflop_order="casino")
    with pytest.raises(OptionError, match="not an option"):
        make("texas_holdem-v2", postflop_order="gamebot")  # version 2 has the order fixed
    state = TexasHoldem().initial_state(0)
    assert "act first in every round" in TexasHoldem().observation(state, 0)
    assert "acts first in every round" in TexasHoldem().observation(state, 1)
    assert "act first after the flop" in standard.observation(state, 1)
    assert "act first before the flop" in standard.observation(state, 0)
