"""Ground truth on hand-built positions, including every example worked in the GAMEBoT prompts."""

from __future__ import annotations

import pytest

from langgraph_games.games import make
from langgraph_games.games.checkers import CheckersState
from langgraph_games.games.connect4 import Connect4State
from langgraph_games.games.othello import OthelloState
from langgraph_games.games.othello.rules import index_of
from langgraph_games.games.tictactoe import TicTacToeState


def grid(rows: list[str]) -> str:
    return "".join(rows)


def checkers_board(pieces: dict[tuple[int, int], str]) -> str:
    cells = ["_"] * 64
    for (r, c), piece in pieces.items():
        cells[r * 8 + c] = piece
    return "".join(cells)


def checkers_state(pieces: dict[tuple[int, int], str], to_move: int) -> CheckersState:
    return CheckersState(
        seed=0,
        turn=10,
        board=checkers_board(pieces),
        to_move=to_move,
        chain_from=None,
        quiet_plies=0,
        seen=(),
    )


def othello_board(cells: dict[str, str]) -> str:
    board = ["O"] * 64
    for name, colour in cells.items():
        board[index_of(name[0], int(name[1]))] = colour
    return "".join(board)


# --- TicTacToe --------------------------------------------------------------------------


def test_tictactoe_prompt_example() -> None:
    # Appendix H.5: O to move; X threatens (2,2) down column 2; O has no win.
    board = grid(["_OX", "XOX", "OX_"])
    state = TicTacToeState(seed=0, turn=7, board=board, to_move=1, winner=None)
    truth = make("tictactoe").ground_truth(state, 1)
    assert truth == {1: frozenset(), 2: frozenset({"(2,2)"})}


def test_tictactoe_double_threat() -> None:
    board = grid(["XX_", "OO_", "X__"])
    state = TicTacToeState(seed=0, turn=5, board=board, to_move=1, winner=None)
    truth = make("tictactoe").ground_truth(state, 1)
    assert truth == {1: frozenset({"(1,2)"}), 2: frozenset({"(0,2)"})}


# --- Connect4 ---------------------------------------------------------------------------


def test_connect4_prompt_example() -> None:
    # Appendix H.6, rows listed top (5) to bottom (0); the board string is bottom first.
    top_down = [
        "___O___",
        "___X___",
        "_O_OOX_",
        "_OXXXO_",
        "XXXOXO_",
        "XOXXOO_",
    ]
    board = "".join(reversed(top_down))
    state = Connect4State(seed=0, turn=23, board=board, to_move=0, winner=None)
    game = make("connect4")
    assert set(game.playable_cells(state)) == {
        r * 7 + c for r, c in [(2, 0), (4, 1), (3, 2), (4, 4), (4, 5), (0, 6)]
    }
    # "the results should be [... 1: (3,2)], [... 2: (3,2)]"
    assert game.ground_truth(state, 0) == {1: frozenset({"(3,2)"}), 2: frozenset({"(3,2)"})}


def test_connect4_only_playable_cells_count() -> None:
    # O has three in a row on row 1, but (1,3) cannot be played yet: not a winning move now.
    board = "XXX_OO_" + "OOO____" + "_" * 28
    state = Connect4State(seed=0, turn=8, board=board, to_move=0, winner=None)
    truth = make("connect4").ground_truth(state, 0)
    assert truth[1] == frozenset({"(0,3)"})
    assert truth[2] == frozenset()


# --- Othello ----------------------------------------------------------------------------


def test_othello_prompt_wedge_example() -> None:
    # Appendix H.1: row 1 reads O O B O B O O O; D1 lies between two black discs.
    # D2 black and D3 white make D1 a legal move for White (it flips D2).
    board = othello_board({"C1": "B", "E1": "B", "D2": "B", "D3": "W", "E5": "W"})
    state = OthelloState(seed=0, turn=20, board=board, to_move=1)
    game = make("othello")
    assert "(D,1)" in game.legal_actions(state, 1)
    assert game.ground_truth(state, 1) == {1: False, 2: frozenset({"(D,1)"})}


def test_othello_wedges_need_odd_gaps_bordered_by_the_opponent() -> None:
    # Row 1: B at B1 and F1 with C1..E1 empty (gap of 3); D1 is legal via D2 (B) / D3 (W).
    three = othello_board({"B1": "B", "F1": "B", "D2": "B", "D3": "W"})
    # Gap of 2 (C1, D1 between B1 and E1): not a wedge even though D1 is legal.
    two = othello_board({"B1": "B", "E1": "B", "D2": "B", "D3": "W"})
    # Gap of 1 bordered by a white disc on one side: not a wedge for White.
    own = othello_board({"C1": "W", "E1": "B", "D2": "B", "D3": "W"})
    game = make("othello")
    for board, expected in [(three, {"(D,1)"}), (two, set()), (own, set())]:
        state = OthelloState(seed=0, turn=20, board=board, to_move=1)
        assert "(D,1)" in game.legal_actions(state, 1)
        assert game.ground_truth(state, 1)[2] == frozenset(expected)


def test_othello_corner_available() -> None:
    board = othello_board({"A1": "O", "B2": "W", "C3": "B"})
    state = OthelloState(seed=0, turn=20, board=board, to_move=0)
    game = make("othello")
    assert game.legal_actions(state, 0) == ("(A,1)",)
    assert game.ground_truth(state, 0)[1] is True
    assert make("othello").ground_truth(game.initial_state(), 0)[1] is False


# --- Checkers ---------------------------------------------------------------------------


def test_checkers_prompt_worthless_die_example() -> None:
    # Appendix H.4 (c): White (1,4)->(2,3) is captured by (3,2):b with no capture back.
    state = checkers_state({(1, 4): "w", (3, 2): "b"}, to_move=0)
    game = make("checkers")
    assert game.legal_actions(state, 0) == ("(1,4)->(2,3)", "(1,4)->(2,5)")
    assert game.ground_truth(state, 0)[2] == frozenset({"(1,4)->(2,3)"})


def test_checkers_recapture_makes_the_die_worthwhile() -> None:
    # With a white man on (0,5), White recaptures the black piece landing on (1,4).
    state = checkers_state({(1, 4): "w", (3, 2): "b", (0, 5): "w"}, to_move=0)
    assert make("checkers").ground_truth(state, 0)[2] == frozenset()


def test_checkers_prompt_two_for_one_example() -> None:
    # Appendix H.4 (f): Black (5,6)->(4,5) forces (3,4)x(4,5) and then (6,7) jumps twice.
    pieces = {(1, 4): "w", (3, 4): "w", (3, 6): "w", (5, 4): "b", (5, 6): "b", (6, 7): "b"}
    state = checkers_state(pieces, to_move=1)
    truth = make("checkers").ground_truth(state, 1)
    assert truth[3] == frozenset({"(5,6)->(4,5)"})
    # The other two advances of (5,4) hand White a free piece.
    assert truth[2] == frozenset({"(5,4)->(4,3)", "(5,4)->(4,5)"})
    assert truth[1] == frozenset()


def test_checkers_king_moves_for_both_colours() -> None:
    white = checkers_state({(6, 1): "w", (6, 5): "W", (2, 3): "b"}, to_move=0)
    game = make("checkers")
    # A king reaching row 7 again is not a new king.
    assert game.ground_truth(white, 0)[1] == frozenset({"(6,1)->(7,0)", "(6,1)->(7,2)"})
    black = checkers_state({(1, 2): "b", (5, 6): "w"}, to_move=1)
    assert game.ground_truth(black, 1)[1] == frozenset({"(1,2)->(0,1)", "(1,2)->(0,3)"})


def test_checkers_captures_are_forced_and_multi_jumps_continue() -> None:
    pieces = {(2, 1): "w", (3, 2): "b", (5, 4): "b", (2, 5): "w"}
    state = checkers_state(pieces, to_move=0)
    game = make("checkers")
    assert game.legal_actions(state, 0) == ("(2,1)->(4,3)",)
    state = game.step(state, "(2,1)->(4,3)")
    assert state.to_move == 0 and state.chain_from == 4 * 8 + 3
    assert game.legal_actions(state, 0) == ("(4,3)->(6,5)",)
    state = game.step(state, "(4,3)->(6,5)")
    assert state.to_move == 1 and state.board.count("b") == 0
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)


def test_checkers_crowning_ends_the_jump_sequence() -> None:
    pieces = {(5, 2): "w", (6, 3): "b", (6, 5): "b", (3, 0): "b"}
    state = checkers_state(pieces, to_move=0)
    game = make("checkers")
    state = game.step(state, "(5,2)->(7,4)")
    # A new king on (7,4) could jump (6,5) backwards, but crowning ends the turn.
    assert state.board[7 * 8 + 4] == "W" and state.to_move == 1


@pytest.mark.parametrize("plies", [39, 40])
def test_checkers_forty_quiet_moves_draw(plies: int) -> None:
    board = checkers_board({(0, 1): "W", (7, 6): "B"})
    state = CheckersState(
        seed=0, turn=plies, board=board, to_move=0, chain_from=None, quiet_plies=plies, seen=()
    )
    game = make("checkers")
    assert game.is_terminal(state) is (plies >= 40)
    if plies >= 40:
        assert game.returns(state) == (0.0, 0.0)
        assert game.draw_reason(state) == "40 moves without a capture"
    else:
        state = game.step(state, "(0,1)->(1,0)")
        assert game.draw_reason(state) == "40 moves without a capture"


def test_checkers_threefold_repetition_draws() -> None:
    game = make("checkers")
    state = checkers_state({(0, 1): "W", (7, 6): "B"}, to_move=0)
    shuffle = ["(0,1)->(1,0)", "(7,6)->(6,7)", "(1,0)->(0,1)", "(6,7)->(7,6)"]
    for _ in range(2):
        for move in shuffle:
            assert not game.is_terminal(state)
            state = game.step(state, move)
    # The start position has now occurred three times.
    assert game.is_terminal(state)
    assert game.draw_reason(state) == "threefold repetition"
