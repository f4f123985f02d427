"""The worked examples in our GAMEBoT prompts agree with the rules' ground truth."""

from __future__ import annotations

import re

import pytest

from langgraph_games.games import make
from langgraph_games.games.connect4 import Connect4State
from langgraph_games.games.othello import OthelloState
from langgraph_games.games.othello.rules import index_of
from langgraph_games.games.tictactoe import TicTacToeState
from langgraph_games.graphs.gamebot import load_prompt

CELL = re.compile(r"\((\d),(\d)\):([XO_])")


def example_block(game_id: str) -> str:
    text = load_prompt(game_id).OUTPUT
    return text[text.index("Example.") :]


def test_tictactoe_example() -> None:
    block = example_block("tictactoe")
    cells = {(int(r), int(c)): m for r, c, m in CELL.findall(block)[:9]}
    board = "".join(cells[(r, c)] for r in range(3) for c in range(3))
    state = TicTacToeState(seed=0, turn=4, board=board, to_move=0, winner=None)
    assert state.validate() is None
    truth = make("tictactoe").ground_truth(state, 0)
    assert truth == {1: frozenset({"(2,1)"}), 2: frozenset()}
    assert "[Intermediate Thinking Results 1: (2,1)]" in block
    assert "[Intermediate Thinking Results 2: None]" in block


def test_connect4_example() -> None:
    block = example_block("connect4")
    cells = {(int(r), int(c)): m for r, c, m in CELL.findall(block)[:42]}
    board = "".join(cells[(r, c)] for r in range(6) for c in range(7))
    state = Connect4State(seed=0, turn=11, board=board, to_move=1, winner=None)
    assert state.validate() is None
    game = make("connect4")
    stated = re.findall(r"\((\d),(\d)\)", block.split("The valid moves are")[1].split(".")[0])
    assert set(game.legal_actions(state, 1)) == {f"({r},{c})" for r, c in stated}
    assert game.ground_truth(state, 1) == {1: frozenset({"(1,3)"}), 2: frozenset()}


def test_othello_wedge_example() -> None:
    block = load_prompt("othello").OUTPUT
    row = re.search(r"row 1 reads (.*?) and you play Black", block, re.S)
    assert row is not None
    cells = dict(re.findall(r"\(([A-H]),1\):([OBW])", row.group(1)))
    board = ["O"] * 64
    for column, content in cells.items():
        board[index_of(column, 1)] = content
    # Make (D,1) legal for Black: it encloses a white disc on (D,2) against (D,3).
    board[index_of("D", 2)], board[index_of("D", 3)] = "W", "B"
    state = OthelloState(seed=0, turn=20, board="".join(board), to_move=0)
    game = make("othello")
    assert "(D,1)" in game.legal_actions(state, 0)
    assert game.ground_truth(state, 0)[2] == frozenset({"(D,1)"})


@pytest.mark.parametrize(
    "game_id",
    [
        "tictactoe",
        "connect4",
        "othello",
        "checkers",
        "pong",
        "surround",
        "texas_holdem",
        "negotiation",
    ],
)
def test_every_subproblem_is_asked_in_the_prompt(game_id: str) -> None:
    prompt = load_prompt(game_id)
    for sub in make(game_id).subproblems:
        assert f"[Intermediate Thinking Results {sub.index}:" in prompt.OUTPUT
    assert prompt.ANSWER_FORMAT.startswith(prompt.FINAL_LABEL)
