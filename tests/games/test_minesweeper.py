"""Minesweeper: the paper's feedback strings, win rules, caps, flood reveal, views, parsing."""

from __future__ import annotations

import dataclasses
import random

import pytest

from langgraph_games.games import GameSession, IllegalActionError, OptionError, make
from langgraph_games.games.minesweeper import Minesweeper, MinesweeperState
from langgraph_games.games.minesweeper.render import parse_triple
from langgraph_games.games.minesweeper.rules import (
    ADD_FLAG,
    ALREADY_REVEALED,
    FLAG_LIMIT,
    GAME_OVER,
    INVALID_ACTION,
    INVALID_ANSWER,
    INVALID_ANSWER_LEGACY,
    INVALID_POSITION,
    REMOVE_FLAG,
    SAFE,
    WIN,
)


def board(game: Minesweeper, mines: list[tuple[int, int]], seed: int = 0) -> MinesweeperState:
    """The game's initial state with the mines moved to ``mines``."""
    state = game.initial_state(seed)
    cols = state.cols
    return dataclasses.replace(state, mines=tuple(sorted(r * cols + c for r, c in mines)))


def play(game: Minesweeper, state: MinesweeperState, *actions: str) -> MinesweeperState:
    for action in actions:
        state, _ = game.apply(state, {0: action})
    return state


def test_table2_feedback_strings() -> None:
    game = Minesweeper(rows=4, cols=4, mines=2)
    state = board(game, [(0, 0), (3, 3)])
    state = play(game, state, "r,0,1")
    assert state.feedback == SAFE == "safe"
    state = play(game, state, "f,0,0")
    assert state.feedback == ADD_FLAG == "add flag"
    state = play(game, state, "f,0,0")
    assert state.feedback == REMOVE_FLAG == "remove flag"
    state = play(game, state, "r,0,1")
    assert state.feedback == ALREADY_REVEALED
    state = play(game, state, "f,1,1", "f,2,2", "f,1,2")
    assert state.feedback == FLAG_LIMIT
    state = play(game, state, "invalid:answer")
    assert state.feedback == INVALID_ANSWER
    state = play(game, state, "invalid:position")
    assert state.feedback == INVALID_POSITION == "invalid position, out of range."
    state = play(game, state, "invalid:action")
    assert state.feedback == INVALID_ACTION == "invalid action, action should be r or f."
    # already revealed, flag limit and the three unplaceable answers; the last four in a row
    assert state.invalid_steps == 5 and state.consecutive_invalid == 4
    lost = play(game, state, "r,3,3")
    assert lost.feedback == GAME_OVER == "game over" and lost.status == "lost"
    assert lost.view[15] == "X"


def test_win_needs_every_mine_flagged_and_every_safe_cell_revealed() -> None:
    game = Minesweeper(rows=3, cols=3, mines=1)
    state = board(game, [(2, 2)])
    state = play(game, state, "r,0,0")  # floods everything but the mine
    assert state.view == "000011" + "01?"
    assert state.status == "playing"  # the mine is not flagged yet
    state, events = game.apply(state, {0: "f,2,2"})
    assert state.status == "won" and state.feedback == WIN == "win"
    assert {"type": "win"} in events and game.returns(state) == (1.0,)


def test_released_flag_only_win_rule() -> None:
    game = Minesweeper(rows=3, cols=3, mines=1, win_rule="flags")
    state = play(game, board(game, [(2, 2)]), "f,2,2")
    assert state.status == "won"
    paper = Minesweeper(rows=3, cols=3, mines=1)
    assert play(paper, board(paper, [(2, 2)]), "f,2,2").status == "playing"


def test_a_win_on_the_last_allowed_step_counts() -> None:
    game = Minesweeper(rows=3, cols=3, mines=1, max_steps=2)
    state = play(game, board(game, [(2, 2)]), "r,0,0", "f,2,2")
    assert state.turn == 2 and state.status == "won"  # the released loop called this a loss


def test_step_cap_and_consecutive_invalid_cap() -> None:
    game = Minesweeper(rows=3, cols=3, mines=1, max_steps=3)
    state = play(game, board(game, [(2, 2)]), "f,0,0", "f,0,0", "f,0,0")
    assert state.status == "step_limit" and game.is_terminal(state)
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "r,0,0"})
    capped = Minesweeper(rows=3, cols=3, mines=1, max_steps=None)
    state = play(capped, board(capped, [(2, 2)]), *["invalid:answer"] * 4, "f,0,0")
    assert state.consecutive_invalid == 0 and state.invalid_steps == 4
    state = play(capped, state, *["invalid:position"] * 5)
    assert state.status == "invalid_limit" and state.invalid_steps == 9
    uncapped = Minesweeper(rows=3, cols=3, mines=1, max_steps=None, max_consecutive_invalid=None)
    state = play(uncapped, board(uncapped, [(2, 2)]), *["invalid:answer"] * 30)
    assert state.status == "playing"


def test_flood_reveal_replaces_flags_and_flags_can_be_revealed() -> None:
    game = Minesweeper(rows=4, cols=4, mines=1)
    state = board(game, [(3, 3)])
    state = play(game, state, "f,0,1")  # a wrong flag next to the corner
    state = play(game, state, "r,0,0")
    assert state.view[1] != "F" and state.flags == 0  # the flood went over the flag
    fresh = play(game, board(game, [(3, 3)]), "f,2,2", "r,2,2")
    assert fresh.view[10] == "1"  # revealing a flagged cell opens it


def test_safe_first_click_moves_the_mine_away() -> None:
    game = Minesweeper(rows=4, cols=4, mines=3, safe_first_click=True)
    state = board(game, [(0, 0), (1, 1), (2, 2)])
    after = play(game, state, "r,0,0")
    assert after.status == "playing" and 0 not in after.mines and len(after.mines) == 3
    assert play(game, state, "r,0,0") == after  # deterministic
    later = play(game, play(game, state, "r,3,0"), "r,0,0")
    assert later.status == "lost"  # only the first reveal is protected
    unsafe = Minesweeper(rows=4, cols=4, mines=3)
    assert play(unsafe, board(unsafe, [(0, 0), (1, 1), (2, 2)]), "r,0,0").status == "lost"


def test_mines_come_from_the_seed() -> None:
    game = make("minesweeper")
    assert game.initial_state(4).mines == game.initial_state(4).mines
    assert len({game.initial_state(s).mines for s in range(20)}) > 15


def test_reject_mode_refuses_with_the_paper_feedback() -> None:
    game = Minesweeper(rows=3, cols=3, mines=1, invalid_moves="reject")
    state = play(game, board(game, [(2, 2)]), "r,0,0")
    with pytest.raises(IllegalActionError, match="the area is already revealed"):
        game.apply(state, {0: "r,0,1"})
    assert "invalid:answer" not in game.legal_actions(state, 0)
    assert "r,0,1" not in game.legal_actions(state, 0)
    assert game.parse_action(state, 0, "r,0,1") is None
    assert game.parse_action(state, 0, "f,2,2") == "f,2,2"


def test_legacy_invalid_answer_string() -> None:
    game = Minesweeper(legacy_feedback=True)
    state = play(game, game.initial_state(0), "invalid:answer")
    assert state.feedback == INVALID_ANSWER_LEGACY
    assert "(action,x,y)" in state.feedback and "(action,row,col)" in INVALID_ANSWER


def test_observation_layout() -> None:
    game = Minesweeper(rows=3, cols=3, mines=2)
    state = play(game, board(game, [(0, 0), (2, 2)]), "r,0,2", "f,2,2")
    assert game.observation(state, 0) == (
        "    0 1 2\n"
        "  + - - -\n"
        "0 | ? 1 0\n"
        "1 | ? 2 1\n"
        "2 | ? ? F\n"
        "Mines rest: 1\n"
        "Revealed areas: (0,1): 1, (0,2): 0, (1,1): 2, (1,2): 1,\n"
        "Unrevealed areas: (0,0), (1,0), (2,0), (2,1), (2,2),\n"
        "Flagged areas: (2,2),"
    )


def test_wide_boards_keep_the_columns_aligned() -> None:
    game = Minesweeper(rows=12, cols=12, mines=5)
    lines = game.observation(game.initial_state(0), 0).splitlines()
    assert lines[0].index("11") == lines[2].rindex("?")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # Bad Case 3: the same flag again (the engine toggles it; the paper calls it invalid)
        (
            "The only two unrevealed cells adjacent to (6,2) are (7,1) and (7,2). Answer: f,7,2",
            "f,7,2",
        ),
        # Bad Case 1: names (7,5) as a mine but reveals it
        ("So (7,5) must be a mine. Answer: r,7,5", "r,7,5"),
        ("r, 1, 2", "r,1,2"),  # spaces after commas are allowed
        ("(r,1,2)", "r,1,2"),
        ("Either r,1,2 or f,3,4; I choose f,3,4", "f,3,4"),  # the last triple wins
        ("bar,1,2", "r,1,2"),  # the released regex has no word boundary
    ],
)
def test_parser_cases(text: str, action: str) -> None:
    assert parse_triple(text, 9, 9).action == action


@pytest.mark.parametrize("text", ["R,1,2", "r ,1,2", "r;1;2", "reveal (1,2)", ""])
def test_parser_rejects_other_forms(text: str) -> None:
    parsed = parse_triple(text, 9, 9)
    assert parsed.action is None and parsed.reason == "no (action,row,col) triple found"


def test_engine_parse_maps_bad_input_to_the_paper_feedback() -> None:
    game = Minesweeper()
    state = game.initial_state(0)
    assert game.parse_action(state, 0, "Answer: r,9,0") == "invalid:position"
    assert game.parse_action(state, 0, "Answer: r,12,30") == "invalid:position"
    assert game.parse_action(state, 0, "I give up") is None
    assert game.fallback_action(state, 0, random.Random(0)) == "invalid:answer"
    after = play(game, state, "invalid:position")
    assert after.feedback == INVALID_POSITION and after.turn == 1
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "r,9,0"})


def test_repeated_flag_toggles_as_released() -> None:
    game = Minesweeper()
    state = game.initial_state(0)
    once = play(game, state, "f,7,2")
    twice = play(game, once, "f,7,2")
    assert once.view.count("F") == 1 and twice.view.count("F") == 0
    assert twice.feedback == REMOVE_FLAG


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="'mines'"):
        make("minesweeper", rows=3, cols=3, mines=9)
    with pytest.raises(OptionError, match="win_rule"):
        make("minesweeper", win_rule="fast")
    with pytest.raises(OptionError, match="rows"):
        make("minesweeper", rows=0)


def test_ground_truth_on_a_hand_built_board() -> None:
    game = Minesweeper(rows=3, cols=3, mines=2)
    # Mines at (0,0) and (2,2); after opening (0,2) the view is  ? 1 0 / ? 2 1 / ? ? ?
    # The top 1 puts one mine in {(0,0), (1,0)}, the right 1 one in {(2,1), (2,2)}; with
    # two mines in all, (2,0) is safe and nothing else is certain.
    state = play(game, board(game, [(0, 0), (2, 2)]), "r,0,2")
    assert game.ground_truth(state, 0) == {1: frozenset({"(2,0)"}), 2: frozenset()}
    assert game.analyse(state).probability[0] == pytest.approx(0.5)


def test_session_replays_exactly() -> None:
    session = GameSession("minesweeper", seed=3, actions=["r,0,0", "f,1,1", "invalid:answer"])
    again = GameSession.from_dict(session.to_dict())
    assert again.states == session.states


def test_rejected_answer_feedback_lists_only_the_boards_real_moves() -> None:
    game = make("minesweeper")
    state = game.initial_state(0)
    # Step mode's legal actions: every on-board triple and the three invalid:* answers.
    assert len(game.legal_actions(state, 0)) == 165 and "invalid:answer" in game.legal_actions(
        state, 0
    )
    listed = game.legal_moves_text(state, 0).split("; ")
    assert len(listed) == 162 and listed[:2] == ["r,0,0", "r,0,1"] and listed[-1] == "f,8,8"
    assert set(listed) == set(game.valid_actions(state))
    # A 2x2 board with one mine at (1,1): a flag at the mine count leaves the reveals (the
    # flagged cell too) and the unflag; a revealed cell drops out.
    small = make("minesweeper", rows=2, cols=2, mines=1)
    state = play(small, board(small, [(1, 1)]), "f,0,0")
    assert small.legal_moves_text(state, 0) == "r,0,0; r,0,1; r,1,0; r,1,1; f,0,0"
    state = play(small, state, "r,0,1")
    assert small.legal_moves_text(state, 0) == "r,0,0; r,1,0; r,1,1; f,0,0"
    assert len(small.legal_actions(state, 0)) == 11  # 8 triples and 3 invalid:* answers
    rejecting = make("minesweeper", rows=2, cols=2, mines=1, invalid_moves="reject")
    state = play(rejecting, board(rejecting, [(1, 1)]), "r,0,1")
    assert rejecting.legal_moves_text(state, 0) == "r,0,0; r,1,0; r,1,1; f,0,0; f,1,0; f,1,1"
