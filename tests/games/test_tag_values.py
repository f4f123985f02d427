"""Intermediate answers read the value their subproblem declares, not their first digit run.

A percentage is the number written with ``%`` (``T9s: 52.4%`` is 52.4, not the 9 of the
hand's name), an equation's value its result (``2*2+5*1=9`` is 9, not 2), a coordinate the
number at its axis or place in a point, a label the one accepted label named. Where a tag
is answered twice, the GAMEBoT reader keeps the first answer that reads as a value, as
GAMEBoT's released checkers took the first match of each tag.
"""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.games.subproblems import extract_intermediate, parse_answer, score_answer
from langgraph_games.graphs.gamebot.graph import parse_gamebot_reply, score_intermediate

TEXAS_ODDS, TEXAS_RANK = make("texas_holdem").subproblems
PONG_DIRECTION, PONG_LANDING = make("pong").subproblems
NEGOTIATION_LATEST, NEGOTIATION_MINE = make("negotiation").subproblems
OPENING = "P1: (1,0,1), P2: (0,7,1)"


@pytest.mark.parametrize(
    ("sub", "text", "value"),
    [
        (TEXAS_ODDS, "T9s: 52.4%", 52.4),
        (TEXAS_ODDS, "52.4% (T9s)", 52.4),
        (TEXAS_ODDS, "T9s 52.4", 52.4),
        (TEXAS_ODDS, "AKs = 67.0 %", 67.0),
        (TEXAS_RANK, "9 (High Card)", 9.0),
        (TEXAS_RANK, "Rank: 2, a Straight Flush", 2.0),
        (NEGOTIATION_LATEST, "2*2+5*1=9", 9.0),
        (NEGOTIATION_LATEST, "2*2 + 5*1 = 4 + 5 = 9", 9.0),
        (NEGOTIATION_LATEST, "9 (= 2*2 + 5*1)", 9.0),
        (NEGOTIATION_MINE, "P1 gets 19", 19.0),
        (NEGOTIATION_MINE, "19.", 19.0),
        (PONG_LANDING, "136", 136.0),
        (PONG_LANDING, "y = 136", 136.0),
        (PONG_LANDING, "x=140, y=120+16=136", 136.0),
        (PONG_LANDING, "(140, 136)", 136.0),
        (PONG_LANDING, "96 + 40 = 136", 136.0),
    ],
)
def test_a_number_reads_as_its_declared_value(sub: object, text: str, value: float) -> None:
    assert parse_answer(sub, text) == pytest.approx(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("sub", "text"),
    [
        (TEXAS_ODDS, "XX.X%"),
        (TEXAS_ODDS, "T9s"),
        (NEGOTIATION_LATEST, "XXX"),
        (NEGOTIATION_LATEST, "P1"),
        (NEGOTIATION_LATEST, "9" * 5000),
    ],
)
def test_names_formats_and_huge_runs_are_no_value(sub: object, text: str) -> None:
    assert parse_answer(sub, text) is None  # type: ignore[arg-type]


def test_scores_use_the_value_not_the_first_digit_run() -> None:
    assert score_answer(TEXAS_ODDS, "T9s: 52.4%", 52.4).correct
    assert score_answer(NEGOTIATION_LATEST, "2*2+5*1=9", 9).correct
    assert not score_answer(NEGOTIATION_LATEST, "2*2+5*1=9", 2).correct


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Right Up", "right up"),
        ("The ball moves Left Down.", "left down"),
        ("right-up", None),  # not an accepted spelling
        ("Left Down/ Right Up/ Left Up/ Right Down", None),  # the format, restated
    ],
)
def test_a_label_reads_as_the_one_accepted_label_named(text: str, label: str | None) -> None:
    assert parse_answer(PONG_DIRECTION, text) == label


def test_the_first_answer_that_reads_is_kept_with_the_game_subproblems() -> None:
    text = (
        "Answer as [Intermediate Thinking Results 1: XXX].\n"
        "[Intermediate Thinking Results 1: 2*2+5*1=9]\n"
        "Rechecking... [Intermediate Thinking Results 1: 11]\n"
        "[Intermediate Thinking Results 2: XXX]"
    )
    subproblems = (NEGOTIATION_LATEST, NEGOTIATION_MINE)
    first = extract_intermediate(text, subproblems, keep="first")
    last = extract_intermediate(text, subproblems, keep="last")
    assert first == {1: "2*2+5*1=9", 2: "XXX"}  # 2 has no value: kept as written
    assert last == {1: "11", 2: "XXX"}
    assert extract_intermediate(text) == {1: "11", 2: "XXX"}  # the default: the last
    with pytest.raises(ValueError, match="'first' or 'last'"):
        extract_intermediate(text, keep="middle")  # type: ignore[arg-type]


def test_the_gamebot_reader_scores_the_first_answer_and_the_equations_result() -> None:
    session = GameSession("negotiation", seed=0, actions=[OPENING])
    game, state = session.game, session.state
    player = session.current_players[0]
    truth = game.ground_truth(state, player)[1]
    assert isinstance(truth, int) and truth > 1
    reply = (
        f"[Intermediate Thinking Results 1: {truth - 1}+1={truth}]\n"
        f"[Intermediate Thinking Results 1: {truth + 5}]\n"
        "Proposal: [Agree]"
    )
    for reader in ("rule", "released"):
        decision = parse_gamebot_reply(game, state, player, reply, label="Proposal", reader=reader)
        assert decision.intermediate == {1: f"{truth - 1}+1={truth}"}
        scores = score_intermediate(game, state, player, decision.intermediate, decision.action)
        assert [(s["index"], s["parsed"], s["correct"]) for s in scores] == [(1, truth, True)]
