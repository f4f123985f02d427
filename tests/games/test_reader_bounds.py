"""The bounded-number rule and linear-time readers: huge numbers and long runs are read.

Each case once raised (``int()`` of more than 4,300 digits), turned a number into
``inf``, or took minutes (a pattern whose adjacent quantifiers backtrack on a long run of
spaces, or a scan repeated from every tag or brace); the fuzz suite in ``tests/fuzz``
covers every reader at random, these pin the cases found.
"""

from __future__ import annotations

import pytest

from langgraph_games.games import UnknownGameError, extract_intermediate, make, parse_answer
from langgraph_games.games._numbers import canonical_int, read_int, read_number
from langgraph_games.games.match2.render import MAX_OBJECT_TRIES, parse_match2_answer
from langgraph_games.games.maze.parsing import parse_maze_answer
from langgraph_games.games.minesweeper.metrics import move_check
from langgraph_games.games.minesweeper.render import parse_triple
from langgraph_games.games.negotiation.rules import read_proposal

HUGE = "9" * 5000


def test_read_int_bounds_significant_digits() -> None:
    assert read_int("0" * 5000 + "7") == 7  # leading zeros are not significant
    assert read_int("-" + "0" * 5000) == 0
    assert read_int("9" * 18) == 10**18 - 1
    assert read_int("9" * 19) is None
    assert read_int(HUGE) is None
    assert read_int("١٢") == 12  # digits of any script, as int() reads them
    assert read_int("1e3") is None and read_int("") is None and read_int("-") is None


def test_canonical_int_takes_only_the_games_own_spelling() -> None:
    assert canonical_int("12") == 12 and canonical_int("0") == 0
    for text in ("07", "-1", "+1", "١", "²", "", HUGE, "1 "):
        assert canonical_int(text) is None, text


def test_read_number_is_never_infinite() -> None:
    assert read_number("9" * 400) is None
    assert read_number("-2", "5") == -2.5
    assert read_number("0", "3" * 5000) == pytest.approx(1 / 3)


def test_huge_numbers_in_answers_are_out_of_range_not_errors() -> None:
    assert parse_triple(f"r,{HUGE},1", 9, 9).reason == "invalid position, out of range."
    assert parse_maze_answer(f"Action: {HUGE}").action is None
    assert parse_maze_answer(f"I go with {HUGE}").action is None
    assert parse_maze_answer("0" * 5000 + "3.").action == "3"
    minesweeper = make("minesweeper")
    state = minesweeper.initial_state(0)
    assert minesweeper.parse_action(state, 0, f"r,{HUGE},0") == "invalid:position"
    assert move_check(state, f"r,{HUGE},0") is None
    match2 = make("match2")
    assert match2.parse_action(match2.initial_state(0), 0, f"eliminate,{HUGE},0") is None
    huge_json = '{"action": {"type": "row", "index": ' + HUGE + "}}"
    assert parse_match2_answer(huge_json).action is None
    with pytest.raises(UnknownGameError):
        make(f"tictactoe-v{HUGE}")


def test_number_and_mapping_answers_with_huge_numbers_are_unreadable() -> None:
    negotiation, surround = make("negotiation"), make("surround")
    number = negotiation.subproblems[0]
    mapping = next(s for s in surround.subproblems if s.kind.value == "mapping")
    assert parse_answer(number, "9" * 400) is None  # was float("9" * 400) = inf
    assert parse_answer(number, "about 12.50 points") == 12.5
    assert parse_answer(mapping, f"up: {HUGE}") is None
    assert parse_answer(mapping, "Up: 3, down=-1") == (("down", -1), ("up", 3))


def test_long_runs_of_spaces_are_read_in_linear_time() -> None:
    spaces = " " * 50_000
    assert extract_intermediate(f"{spaces}[Intermediate Thinking Results 1: x]") == {1: "x"}
    assert read_proposal(f"P1: (1,2,3){spaces}P2: (3,2,1)") == (1, 2, 3, 3, 2, 1)
    negotiation = make("negotiation")
    state = negotiation.initial_state(0)
    assert negotiation.read_action(state, 0, f"Proposal: P1: (1,2,3){spaces}").action is None
    assert parse_match2_answer(f"```json{spaces}").action is None
    mapping = next(s for s in make("surround").subproblems if s.kind.value == "mapping")
    assert parse_answer(mapping, f"up{spaces}") is None
    assert parse_answer(mapping, "a" * 50_000) is None
    tictactoe_set = make("tictactoe").subproblems[0]
    assert parse_answer(tictactoe_set, f"(0,1){spaces}, (2,2)") == frozenset({"(0,1)", "(2,2)"})


def test_an_intermediate_answer_ends_where_the_next_tag_starts() -> None:
    text = "[Intermediate Thinking Results 1: (0,1) [Intermediate Thinking Results 2: None]"
    assert extract_intermediate(text) == {1: "(0,1)", 2: "None"}
    tags = "[Intermediate Thinking Results 1: " * 30_000 + "(2,2)]"
    assert extract_intermediate(tags) == {1: "(2,2)"}


def test_a_bare_json_answer_is_sought_among_the_first_object_starts() -> None:
    answer = '{"action": {"type": "row", "index": 2}}'
    assert parse_match2_answer("{" * 100_000 + answer).action == "row,2"  # no key: no try
    broken = '{"a": [' * (MAX_OBJECT_TRIES + 1)
    assert parse_match2_answer(broken + answer).action is None
    assert parse_match2_answer(broken + answer, pick="last").action == "row,2"


def test_optional_parts_between_runs_of_spaces_keep_their_reading() -> None:
    """``\\s*(?:,\\s*)?`` reads what ``\\s*,?\\s*`` read, in linear time on long runs."""
    spaces = " " * 50_000
    othello, texas, checkers = make("othello"), make("texas_holdem"), make("checkers")
    board, table, draughts = (g.initial_state(0) for g in (othello, texas, checkers))
    assert othello.read_action(board, 0, f"Chosen Move: (c{spaces},{spaces}4)").action == "(C,4)"
    assert othello.read_action(board, 0, f"Chosen Move: (C{spaces}4{spaces})").action == "(C,4)"
    assert othello.read_action(board, 0, f"Chosen Move: (C{spaces}x").status.value == "none"
    player = texas.current_players(table)[0]
    for answer in (f"check{spaces}call", f"Check{spaces}and{spaces}Call", f"check/{spaces}call"):
        assert texas.read_action(table, player, f"Chosen Action: {answer}").action == (
            "Check and Call"
        )
    assert texas.read_action(table, player, f"Chosen Action: check{spaces}x").action == (
        "Check and Call"
    )
    move = f"(2,1){spaces}-{spaces}>{spaces}(3,0)"
    assert checkers.read_action(draughts, 0, f"Chosen Move: {move}").action == "(2,1)->(3,0)"
    assert checkers.read_action(draughts, 0, f"Chosen Move: (2,1)--{spaces}x").action is None
    wedges = checkers.subproblems[0]
    assert parse_answer(wedges, f"(2,1)-{spaces}(3,0), (1,1)-{spaces}x") == frozenset(
        {"(2,1)->(3,0)"}
    )
