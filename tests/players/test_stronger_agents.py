"""GAMEBoT's "stronger agents" (Appendix E): each beats random play at its own game."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.games.pong.rules import LEFT_X, RIGHT_X, land_y
from langgraph_games.players import (
    ConcessionNegotiator,
    EquityPlayer,
    Player,
    PlayerSpecError,
    PongTracker,
    RandomPlayer,
    SurroundSpacePlayer,
    make_player,
    request_for,
)


def play(session: GameSession, players: list[Player]) -> GameSession:
    while not session.done:
        joint = {}
        for seat in session.current_players:
            decision = players[seat].decide(request_for(session, seat))
            assert decision.action in session.legal_actions(seat)
            joint[seat] = decision.action
        session.step(joint)
    return session


def test_pong_tracker_returns_every_ball_and_beats_random() -> None:
    for seed in range(20):
        seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[seat] = PongTracker()
        session = play(GameSession("pong", seed=seed, points_to_win=3), players)
        assert session.returns[seat] == 1.0
        assert session.state.score[1 - seat] == 0  # it never missed
    # Two trackers never miss: the match runs to the step limit and is drawn.
    session = play(GameSession("pong", seed=1, max_steps=300), [PongTracker(), PongTracker()])
    assert session.returns == (0.0, 0.0) and len(session.actions) == 300
    hits = [e for events in session.events for e in events if e["type"] == "hit"]
    assert len(hits) >= 6 and {h["player"] for h in hits} == {0, 1}


def test_pong_tracker_aims_away_from_the_opponent() -> None:
    # Seed 0 serves to the left (vy = +4): the ball reaches x = 20 at y = 156. The left
    # paddle can be at [144, 160] or [152, 168] by then; hitting 4 above the centre sends the
    # ball to y = 76, hitting 4 below it sends it to y = 36, farther from the idle right
    # paddle (centre 96). The tracker takes the second.
    session = GameSession(make("pong"), seed=0)
    tracker = PongTracker()
    while not any(e["type"] == "hit" for events in session.events for e in events):
        session.step({0: "Stay Still", 1: tracker.decide(request_for(session, 1)).action})
    assert session.state.paddles[1] == 152 and session.state.velocity == (4, -4)
    assert land_y(LEFT_X, 156, 4, -4, RIGHT_X) == 36
    naive = PongTracker(aim=False)
    session = GameSession(make("pong"), seed=0)
    while not any(e["type"] == "hit" for events in session.events for e in events):
        session.step({0: "Stay Still", 1: naive.decide(request_for(session, 1)).action})
    assert session.state.paddles[1] == 144  # the position closest to a centred hit


def test_surround_space_player_beats_random() -> None:
    wins = 0
    for seed in range(20):
        seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[seat] = SurroundSpacePlayer()
        wins += play(GameSession("surround", seed=seed), players).returns[seat] == 1.0
    assert wins >= 19


def test_surround_space_players_fill_the_board() -> None:
    session = play(GameSession("surround", seed=0), [SurroundSpacePlayer(), SurroundSpacePlayer()])
    assert len(session.actions) > 150  # they last long in a 18x38 field


def test_equity_player_beats_random_over_200_seeded_hands() -> None:
    won = 0.0
    hands = 0
    seed = 0
    while hands < 200:
        seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[seat] = EquityPlayer(samples=100, seed=seed)
        session = play(GameSession("texas_holdem", seed=seed), players)
        won += session.returns[seat]
        hands += session.state.hand
        seed += 1
    assert won > 200  # more than a chip per hand on average


def test_equity_estimates() -> None:
    import random

    from langgraph_games.games.texas_holdem.cards import parse_card
    from langgraph_games.players.poker_equity import equity

    def eq(hole: str, board: str = "") -> float:
        return equity(
            [parse_card(c) for c in hole.split()],
            [parse_card(c) for c in board.split()],
            3000,
            random.Random(0),
        )

    assert abs(eq("As Ah") - 0.85) < 0.03
    assert abs(eq("7d 2c") - 0.35) < 0.03
    assert eq("As Ks", "Qs Js Ts") == 1.0  # a made royal flush cannot lose


def test_negotiator_beats_random_and_agrees_with_itself() -> None:
    strong = weak = 0.0
    for seed in range(40):
        seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[seat] = ConcessionNegotiator()
        returns = play(GameSession("negotiation", seed=seed), players).returns
        strong += returns[seat]
        weak += returns[1 - seat]
    assert strong > 1.5 * weak
    agreed = 0
    for seed in range(40):
        session = play(
            GameSession("negotiation", seed=seed), [ConcessionNegotiator(), ConcessionNegotiator()]
        )
        agreed += session.state.outcome == "agreed"
        if session.state.outcome == "agreed":
            assert min(session.returns) >= 15 or len(session.state.proposals) > 8
    assert agreed >= 32  # the rest ran into the chance ending after round 8


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("pong_tracker", "pong_tracker"),
        ("surround_space", "surround_space"),
        ("holdem_equity:samples=50", "holdem_equity"),
        ("negotiator:start=28:floor=20", "negotiator"),
    ],
)
def test_specs(spec: str, kind: str) -> None:
    assert make_player(spec, seed=3).describe()["kind"] == kind


def test_bad_specs_and_wrong_games() -> None:
    with pytest.raises(PlayerSpecError, match="has no setting 'depth'"):
        make_player("negotiator:depth=3")
    with pytest.raises(PlayerSpecError, match="late <= floor <= start"):
        make_player("negotiator:start=10:floor=20")
    with pytest.raises(PlayerSpecError, match="samples must be positive"):
        make_player("holdem_equity:samples=0")
    with pytest.raises(ValueError, match="only plays 'pong', not 'tictactoe'"):
        PongTracker().decide(request_for(GameSession("tictactoe")))
