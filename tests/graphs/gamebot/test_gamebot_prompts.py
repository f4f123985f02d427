"""The worked examples in our GAMEBoT prompts agree with the rules' ground truth."""

from __future__ import annotations

import re

import pytest

from langgraph_games.games import make
from langgraph_games.games.connect4 import Connect4State
from langgraph_games.games.othello import OthelloState
from langgraph_games.games.othello.rules import index_of
from langgraph_games.games.othello.truth import WEDGE_GAPS
from langgraph_games.games.surround.truth import SAFE_CELLS
from langgraph_games.games.texas_holdem.truth import PREFLOP_WIN_PERCENT
from langgraph_games.games.tictactoe import TicTacToeState
from langgraph_games.graphs.gamebot.graph import VARIANTS, build_gamebot_messages, load_prompt

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


GAMES = [
    "tictactoe",
    "connect4",
    "othello",
    "checkers",
    "pong",
    "surround",
    "texas_holdem",
    "negotiation",
]


def _facts(game_id: str) -> list[str]:
    """Text the ground truth of ``game_id`` depends on, which a scored prompt must carry."""
    if game_id == "texas_holdem":
        table = [f"{key}:{value:.1f}%" for key, value in PREFLOP_WIN_PERCENT.items()]
        ranks = [f"Rank {n} - {name}" for n, name in ((1, "Royal Flush"), (10, "High Card"))]
        return [*table, *ranks, "T for 10", '"s" means both cards share a suit']
    if game_id == "othello":
        assert WEDGE_GAPS == (1, 3, 5)
        return ["1, 3 or 5 squares long", "(A,1), (H,1), (A,8) or (H,8)"]
    if game_id == "surround":
        assert SAFE_CELLS == 10
        return ["at least 10 empty cells, the cell you move to included", "counts as -1"]
    if game_id == "pong":
        return ["your paddle's x (140)", "y = 16 and y = 176", "Right if its x grew"]
    if game_id == "checkers":
        return ["row 7 for White, row 0 for Black", "no capture at all", "more pieces"]
    if game_id == "connect4":
        return ["lowest empty cell of a column", "four of that player's discs"]
    if game_id == "tictactoe":
        return ["row, column or diagonal has its two other cells"]
    return ["by your value for one item of that type"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("game_id", GAMES)
def test_each_scored_subproblem_is_defined_in_the_prompt(game_id: str, variant: str) -> None:
    game, prompt = make(game_id), load_prompt(game_id)
    system = build_gamebot_messages(game, "OBS", variant=variant)[0].text
    if variant in ("action_only", "cot"):  # nothing is asked, nothing is scored
        assert "Intermediate Thinking Results" not in system
        return
    for sub in game.subproblems:
        if sub.scored:
            assert prompt.DEFINITIONS[sub.index] in system, (game_id, sub.index)
            assert f"[Intermediate Thinking Results {sub.index}:" in system
    for fact in _facts(game_id):
        assert fact in system, (game_id, fact)
