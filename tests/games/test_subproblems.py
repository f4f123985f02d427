"""Extraction of [Intermediate Thinking Results k: ...] answers and their F1/accuracy scores."""

from __future__ import annotations

import pytest

from langgraph_games.games import (
    AnswerKind,
    Metric,
    Subproblem,
    aggregate_scores,
    extract_intermediate,
    make,
    score_answer,
)

TTT = make("tictactoe").subproblems[0]
OTHELLO_CORNER = make("othello").subproblems[0]
CHECKERS_KINGS = make("checkers").subproblems[0]


def test_extracts_every_tagged_answer_last_one_wins() -> None:
    text = (
        'Format: "[Intermediate Thinking Results 1: (X,X), (X,X), ...]"\n'
        "Checking rows...\n"
        "[Intermediate Thinking Results 1: (0,2), (1, 1)]\n"
        "**Intermediate Thinking Results 2:** None\n"
        "[Intermediate Thinking Result 3: [(2,2)]] trailing"
    )
    assert extract_intermediate(text) == {1: "(0,2), (1, 1)", 2: "None", 3: "[(2,2)]"}


def test_extraction_of_nothing() -> None:
    assert extract_intermediate("Chosen Move: (1,1)") == {}
    assert extract_intermediate("") == {}


def test_set_answers_exact_f1() -> None:
    truth = frozenset({"(0,2)", "(2,2)"})
    exact = score_answer(TTT, "(2, 2), (0,2)", truth)
    assert (exact.correct, exact.value, exact.tp, exact.fp, exact.fn) == (True, 1.0, 2, 0, 0)
    partial = score_answer(TTT, "(0,2), (1,1), (2,0)", truth)
    # tp=1, fp=2, fn=1 -> F1 = 2/(2+2+1) = 0.4
    assert (partial.tp, partial.fp, partial.fn) == (1, 2, 1)
    assert partial.value == pytest.approx(0.4)
    none_said = score_answer(TTT, "None", truth)
    assert (none_said.value, none_said.fn, none_said.answered) == (0.0, 2, True)


def test_empty_truth_and_empty_answer_is_a_true_negative() -> None:
    score = score_answer(TTT, "None", frozenset())
    assert (score.correct, score.value, score.tn, score.fp) == (True, 1.0, 1, 0)
    wrong = score_answer(TTT, "(1,1)", frozenset())
    assert (wrong.correct, wrong.value, wrong.fp) == (False, 0.0, 1)


def test_missing_answer_scores_zero_and_counts_as_a_miss() -> None:
    missing = score_answer(TTT, None, frozenset({"(0,0)"}))
    assert (missing.answered, missing.value, missing.fn, missing.fp) == (False, 0.0, 1, 0)
    garbage = score_answer(TTT, "I think so", frozenset())
    assert (garbage.answered, garbage.value, garbage.fp) == (False, 0.0, 1)


def test_checkers_moves_normalise_arrows_and_spaces() -> None:
    truth = frozenset({"(6,1)->(7,0)"})
    score = score_answer(CHECKERS_KINGS, "(6, 1) - (7, 0)", truth)
    assert score.correct and score.value == 1.0


def test_bool_answers_are_scored_as_f1_counts() -> None:
    yes = score_answer(OTHELLO_CORNER, "True", True)
    no = score_answer(OTHELLO_CORNER, "false.", True)
    fp = score_answer(OTHELLO_CORNER, "Yes, (A,1)", False)
    assert (yes.tp, no.fn, fp.fp) == (1, 1, 1)
    assert aggregate_scores(OTHELLO_CORNER, [yes, no, fp]) == pytest.approx(2 / 4)


def test_numbers_within_tolerance_and_labels() -> None:
    pct = Subproblem(1, "p", AnswerKind.NUMBER, Metric.ACCURACY, "q", "x%", tolerance=0.1)
    assert score_answer(pct, "35.7%", 35.7).correct
    assert score_answer(pct, "35.75", 35.7).correct
    assert not score_answer(pct, "35.9", 35.7).correct
    assert not score_answer(pct, "35.5", 35.7).correct  # two-sided, unlike the released check
    label = Subproblem(2, "d", AnswerKind.LABEL, Metric.ACCURACY, "q", "Left Down")
    assert score_answer(label, " left  DOWN ", "left down").correct
    mapping = Subproblem(3, "m", AnswerKind.MAPPING, Metric.ACCURACY, "q", "Up X, ...")
    truth = (("down", 1), ("left", 0), ("right", -1), ("up", 0))
    assert score_answer(mapping, "Up 0, Down 1, Left 0, Right -1", truth).correct


def test_micro_f1_over_a_game() -> None:
    truths = [frozenset({"(0,0)"}), frozenset(), frozenset({"(1,1)", "(2,2)"})]
    answers = ["(0,0)", "None", "(1,1), (0,1)"]
    scores = [score_answer(TTT, a, t) for a, t in zip(answers, truths, strict=False)]
    # tp = 1 + 0 + 1, fp = 0 + 0 + 1, fn = 0 + 0 + 1 -> 4 / (4 + 1 + 1)
    assert aggregate_scores(TTT, scores) == pytest.approx(4 / 6)
    assert aggregate_scores(TTT, [s.to_dict() for s in scores]) == pytest.approx(4 / 6)
    assert aggregate_scores(TTT, [scores[1]]) == 1.0
    assert aggregate_scores(TTT, []) is None
