"""The game contract's error paths: registry, options, illegal moves, state JSON, sessions."""

from __future__ import annotations

import json

import pytest

from langgraph_games.games import (
    GameError,
    GameOverError,
    GameSession,
    IllegalActionError,
    OptionError,
    StateFormatError,
    UnknownGameError,
    derive_rng,
    list_games,
    make,
)
from langgraph_games.games.base import GameOptions
from langgraph_games.games.tictactoe import TicTacToe


def test_list_games_has_the_four_board_games_with_versions() -> None:
    ids = {info.versioned_id for info in list_games()}
    assert {"tictactoe-v1", "connect4-v1", "othello-v1", "checkers-v1"} <= ids


def test_make_accepts_bare_and_versioned_ids() -> None:
    assert type(make("othello")) is type(make("othello-v1"))


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownGameError) as info:
        make("chess")
    assert "chess" in str(info.value)
    assert "othello" in str(info.value) and "tictactoe-v1" in str(info.value)
    with pytest.raises(UnknownGameError):
        make("othello-v9")


def test_register_refuses_a_class_that_is_not_a_game() -> None:
    from langgraph_games.games.registry import game_class, register

    class NotAGame:
        id = "not_a_game"

    with pytest.raises(TypeError, match=r"takes a Game subclass, got .*NotAGame"):
        register(NotAGame)
    with pytest.raises(UnknownGameError):
        make("not_a_game")
    assert register(TicTacToe) is TicTacToe  # a game registered again is kept as it is
    assert game_class("tictactoe-v1") is TicTacToe


def test_unknown_option_names_the_valid_ones() -> None:
    with pytest.raises(OptionError, match=r"'size' is not an option.*takes no options"):
        make("tictactoe", size=4)


def test_invalid_option_value_names_what_is_accepted() -> None:
    from pydantic import Field

    class RoundOptions(GameOptions):
        rounds: int = Field(3, ge=1, description="rounds to play")

    class Configurable(TicTacToe):
        id = "configurable"
        Options = RoundOptions

    assert Configurable(rounds=5).options_dict() == {"rounds": 5}
    with pytest.raises(OptionError, match=r"'rounds' has an invalid value 0.*rounds \(int"):
        Configurable(rounds=0)
    with pytest.raises(OptionError, match=r"'round' is not an option.*Valid options: rounds"):
        Configurable(round=2)


def test_illegal_action_lists_legal_moves() -> None:
    session = GameSession("tictactoe", actions=["(1,1)"])
    with pytest.raises(IllegalActionError) as info:
        session.step("(1,1)")
    message = str(info.value)
    assert "'(1,1)'" in message and "(0,0), (0,1), (0,2), (1,0), (1,2)" in message
    assert isinstance(info.value, ValueError)
    assert info.value.legal == session.legal_actions()


def test_out_of_turn_and_after_the_end() -> None:
    game = make("tictactoe")
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="not this player's turn"):
        game.apply(state, {1: "(0,0)"})
    session = GameSession(game, actions=["(0,0)", "(1,0)", "(0,1)", "(1,1)", "(0,2)"])
    assert session.done and session.result()["winners"] == [0]
    with pytest.raises(GameOverError, match="game is over"):
        session.step("(2,2)")


def test_session_rebuilds_exactly_from_its_record() -> None:
    session = GameSession("checkers", seed=11)
    for _ in range(30):
        session.step(session.legal_actions()[-1])
    record = json.loads(json.dumps(session.to_dict()))
    rebuilt = GameSession.from_dict(record)
    assert rebuilt.states == session.states
    assert rebuilt.to_dict() == record


def test_session_replay_with_a_bad_action_names_its_position() -> None:
    with pytest.raises(GameError, match=r"action #1 \('\(1,1\)'\)"):
        GameSession("tictactoe", actions=["(1,1)", "(1,1)"])


@pytest.mark.parametrize(
    ("mutate", "field", "problem"),
    [
        (lambda d: d.pop("board"), "board", "is missing"),
        (lambda d: d.update(board=123), "board", "must be a string, got int"),
        (lambda d: d.update(board="XX"), "board", "must be 9 characters"),
        (lambda d: d.update(winner="X"), "winner", "must be an integer"),
        (lambda d: d.update(turn=True), "turn", "must be an integer, got bool"),
        (lambda d: d.update(colour=1), "colour", "is not a field"),
        (lambda d: d.update(to_move=1), "to_move", "does not match"),
    ],
)
def test_malformed_state_json_names_the_field(mutate, field: str, problem: str) -> None:  # type: ignore[no-untyped-def]
    game = make("tictactoe")
    data = game.initial_state(seed=4).to_dict()
    mutate(data)
    with pytest.raises(StateFormatError) as info:
        game.state_from_json(json.dumps(data))
    assert info.value.field == field
    assert problem in str(info.value)


def test_state_json_that_is_not_json_or_not_an_object() -> None:
    game = make("othello")
    with pytest.raises(StateFormatError, match="not valid JSON"):
        game.state_from_json("{board:")
    with pytest.raises(StateFormatError, match="must be a JSON object, got list"):
        game.state_from_json("[1, 2]")


def test_checkers_state_checks_nested_fields() -> None:
    game = make("checkers")
    data = game.initial_state().to_dict()
    data["seen"] = ["abc", 3]
    with pytest.raises(StateFormatError) as info:
        game.state_from_dict(data)
    assert info.value.field == "seen[1]"


def test_derived_rng_is_stable_and_independent_of_hash_seed() -> None:
    assert derive_rng(3, 7, "deal").random() == derive_rng(3, 7, "deal").random()
    assert derive_rng(3, 7).random() != derive_rng(3, 8).random()
    # A fixed value: string seeding goes through SHA-512, not hash().
    assert derive_rng("x").randrange(10**6) == derive_rng("x").randrange(10**6)


def test_parse_action_reads_paper_notations() -> None:
    c4 = GameSession("connect4", actions=["(0,3)"])
    assert c4.parse_action("Chosen Move: (4, 3)") == "(1,3)"  # the column decides
    assert c4.parse_action("I drop in column 6") == "(0,6)"
    assert c4.parse_action("no idea") is None
    oth = GameSession("othello")
    assert oth.parse_action("Chosen Move: (e,3)") == "(E,3)"
    assert oth.parse_action("I like C5 best") == "(C,5)"
    assert oth.parse_action("Chosen Move: (A,1)") is None  # not legal
    ck = GameSession("checkers")
    assert ck.parse_action("Chosen Move: (2, 1)-(3, 0)") == "(2,1)->(3,0)"


@pytest.mark.parametrize("game_id", ["tictactoe", "connect4", "othello", "checkers"])
def test_a_search_heuristic_reads_its_own_state_and_refuses_another_games(game_id: str) -> None:
    from langgraph_games.games.parts import parts_of

    game = make(game_id)
    search = parts_of(game_id).search
    assert search is not None and search.heuristic is not None
    start = game.initial_state()
    assert search.heuristic(game, start, 0) == -search.heuristic(game, start, 1)  # symmetric
    other = make("pong").initial_state()
    with pytest.raises(TypeError, match=rf"{game_id}_eval reads a \w+State, got a PongState"):
        search.heuristic(game, other, 0)
