"""Known truths about the search players."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.players import (
    MinimaxPlayer,
    Player,
    PlayerSpecError,
    RandomPlayer,
    make_player,
    request_for,
)


def play(game_id: str, players: list[Player], seed: int) -> GameSession:
    session = GameSession(game_id, seed=seed)
    while not session.done:
        seat = session.current_players[0]
        decision = players[seat].decide(request_for(session, seat))
        assert decision.action in session.legal_actions()
        session.step(decision.action)
    return session


@pytest.mark.parametrize("seed", range(8))
def test_perfect_tictactoe_is_a_draw(seed: int) -> None:
    # Different seeds break ties between equally good moves differently.
    session = play("tictactoe", [MinimaxPlayer(seed=seed), MinimaxPlayer(seed=seed + 100)], seed)
    assert session.returns == (0.0, 0.0)


def test_minimax_never_loses_tictactoe_to_random() -> None:
    outcomes = []
    for seed in range(200):
        minimax_seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[minimax_seat] = MinimaxPlayer(seed=seed)
        outcomes.append(play("tictactoe", players, seed).returns[minimax_seat])
    assert min(outcomes) >= 0.0
    assert outcomes.count(1.0) > 150  # random blunders a lot


def test_minimax_beats_random_at_connect4() -> None:
    games = 100
    wins = 0
    for seed in range(games):
        minimax_seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[minimax_seat] = MinimaxPlayer(seed=seed)
        wins += play("connect4", players, seed).returns[minimax_seat] == 1.0
    assert wins / games >= 0.95


@pytest.mark.parametrize("game_id", ["othello", "checkers"])
def test_minimax_beats_random_at_othello_and_checkers(game_id: str) -> None:
    wins = 0
    for seed in range(6):
        seat = seed % 2
        players: list[Player] = [RandomPlayer(seed=seed), RandomPlayer(seed=seed)]
        players[seat] = MinimaxPlayer(depth=2, seed=seed)
        wins += play(game_id, players, seed).returns[seat] == 1.0
    assert wins >= 5


def test_minimax_takes_a_win_and_blocks_a_loss() -> None:
    # X to move with a win on (0,2); O also threatens (2,2)... X must win, not block.
    session = GameSession("tictactoe", actions=["(0,0)", "(1,0)", "(0,1)", "(1,1)"])
    assert MinimaxPlayer().decide(request_for(session)).action == "(0,2)"
    # Connect4: O must block X's three in the bottom row.
    session = GameSession("connect4", actions=["(0,0)", "(1,0)", "(0,1)", "(2,0)", "(0,2)"])
    assert MinimaxPlayer().decide(request_for(session)).action == "(0,3)"


def test_random_player_is_deterministic_per_seed_and_state() -> None:
    session = GameSession("othello", seed=5)
    picks = {RandomPlayer(seed=1).decide(request_for(session)).action for _ in range(5)}
    assert len(picks) == 1
    many = {RandomPlayer(seed=s).decide(request_for(session)).action for s in range(40)}
    assert many == set(session.legal_actions())


def test_minimax_rejects_games_it_cannot_search() -> None:
    with pytest.raises(ValueError, match="positive number of plies"):
        MinimaxPlayer(depth=0)


def test_player_specs() -> None:
    player = make_player("minimax:depth=2:seed=4")
    assert isinstance(player, MinimaxPlayer) and (player.depth, player.seed) == (2, 4)
    assert make_player("random", seed=9).describe() == {"kind": "random", "seed": 9}
    with pytest.raises(PlayerSpecError, match=r"Unknown player 'gpt'.*minimax"):
        make_player("gpt")
    with pytest.raises(PlayerSpecError, match="no setting 'width'"):
        make_player("minimax:width=3")
    with pytest.raises(PlayerSpecError, match="depth='x' must be int"):
        make_player("minimax:depth=x")
    with pytest.raises(PlayerSpecError, match="not key=value"):
        make_player("minimax:3")


def test_decision_records_search_statistics() -> None:
    decision = MinimaxPlayer(depth=3).decide(request_for(GameSession("checkers")))
    assert decision.info["nodes"] > 7 and decision.info["depth"] == 3
    assert decision.to_dict()["status"] == "ok"
    assert make("checkers").is_legal(make("checkers").initial_state(), 0, decision.action or "")
