"""Typed move arguments for every game: same move as the text form, clear errors, valid schemas."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from langgraph_games.games import GameSession
from langgraph_games.games.registry import list_games, make
from langgraph_games.players import RandomPlayer
from langgraph_games.tools import MOVE_SCHEMAS, GameToolkit, create_game_tools, move_schema
from langgraph_games.tools.moves import MoveArgumentsError


def tool_call(tool: Any, **args: Any) -> ToolMessage:
    message = tool.invoke({"type": "tool_call", "id": "t1", "name": tool.name, "args": args})
    assert isinstance(message, ToolMessage)
    return message


def toolkit(game: str, seat: int = 0, seed: int = 3, **options: Any) -> GameToolkit:
    session = GameSession(game, seed=seed, **options)
    others = {p: RandomPlayer(seed=seed) for p in range(session.game.num_players) if p != seat}
    return GameToolkit(session, seat, others)


def agent_moves(kit: GameToolkit) -> list[str]:
    return [joint[kit.player] for joint in kit.session.actions if kit.player in joint]


# (game, options, agent seat, typed arguments, the canonical action they name)
CASES: list[tuple[str, dict[str, Any], int, dict[str, Any], str]] = [
    ("tictactoe", {}, 0, {"row": 1, "col": 2}, "(1,2)"),
    ("connect4", {}, 0, {"column": 3}, "(0,3)"),
    ("othello", {}, 0, {"column": "C", "row": 5}, "(C,5)"),
    ("checkers", {}, 0, {"from_row": 2, "from_col": 1, "to_row": 3, "to_col": 0}, "(2,1)->(3,0)"),
    ("pong", {}, 0, {"direction": "up"}, "Move Up"),
    ("pong", {}, 0, {"direction": "stay"}, "Stay Still"),
    ("surround", {}, 0, {"direction": "left"}, "Move Left"),
    ("texas_holdem", {}, 0, {"action": "Check and Call"}, "Check and Call"),
    ("negotiation", {}, 0, {"p1": [0, 0, 1], "p2": None}, ""),  # p2 filled in below
    ("negotiation", {}, 1, {"agree": True}, "Agree"),
    ("maze", {}, 0, {"direction": "right", "steps": 2}, "10"),
    ("maze", {}, 0, {"direction": "up"}, "0"),
    ("match2", {}, 0, {"action": "eliminate"}, ""),  # a cell of a real group, below
    ("minesweeper", {}, 0, {"action": "flag", "row": 0, "col": 1}, "f,0,1"),
    (
        "minesweeper",
        {"rows": 4, "cols": 5, "mines": 3},
        0,
        {"action": "reveal", "row": 3, "col": 4},
        "r,3,4",
    ),
    ("bandit", {}, 0, {"action": "Pull slot machine 2."}, "Pull slot machine 2."),
    (
        "hanoi",
        {},
        0,
        {"action": "Move the top disk of rod A to the top of rod C"},
        "Move the top disk of rod A to the top of rod C",
    ),
    ("messenger", {}, 0, {"action": "Move North"}, "Move North"),
    ("rock_paper_scissors", {}, 0, {"action": "Paper"}, "Paper"),
    ("crafter", {}, 0, {"action": "Move West"}, "Move West"),
]


def _complete(
    game: str, seat: int, args: dict[str, Any], action: str
) -> tuple[dict[str, Any], str]:
    """Fill in the cases that depend on the episode (the pool, the board)."""
    if game == "negotiation" and not args.get("agree"):
        legal = toolkit(game, seat).session.legal_actions(seat)
        chosen = next(a for a in legal if a.startswith("P1: (0,0,1)"))
        counts = [int(n) for n in re.findall(r"\d+", chosen)]
        return {"p1": counts[1:4], "p2": counts[5:8]}, chosen
    if game == "match2":
        legal = toolkit(game, seat).session.legal_actions(seat)
        chosen = next(a for a in legal if a.startswith("eliminate,"))
        _, row, col = chosen.split(",")
        return {"action": "eliminate", "row": int(row), "col": int(col)}, chosen
    return args, action


@pytest.mark.parametrize(("game", "options", "seat", "args", "action"), CASES)
def test_a_typed_move_plays_the_same_action_as_its_text(
    game: str, options: dict[str, Any], seat: int, args: dict[str, Any], action: str
) -> None:
    if game == "crafter":
        pytest.importorskip("crafter")
    args, action = _complete(game, seat, args, action)
    typed = toolkit(game, seat, **options)
    assert typed.schema.typed
    message = tool_call(typed.get_tools()[2], **args)
    assert message.status == "success", message.content
    text = toolkit(game, seat, **options)
    assert tool_call(text.get_tools()[2], action=action).status == "success"
    assert agent_moves(typed)[0] == agent_moves(text)[0] == action
    assert typed.session.actions == text.session.actions  # the same episode from there on


# (game, options, seat, bad typed arguments, what the error says besides the legal moves)
BAD: list[tuple[str, dict[str, Any], int, dict[str, Any], str]] = [
    ("tictactoe", {}, 0, {"row": "middle", "col": 1}, "row: Input should be a valid integer"),
    ("tictactoe", {}, 0, {"row": 1}, "col: Field required"),
    ("tictactoe", {}, 0, {"row": 1, "col": 1, "player": "X"}, "player: Extra inputs"),
    ("connect4", {}, 0, {"column": "left"}, "column: Input should be a valid integer"),
    ("othello", {}, 0, {"column": "Z", "row": 3}, "column: Input should be 'A'"),
    ("checkers", {}, 0, {"from_row": 2, "from_col": 1, "to_row": 3}, "to_col: Field required"),
    ("pong", {}, 0, {"direction": "sideways"}, "direction: Input should be 'up', 'down'"),
    ("surround", {}, 0, {"direction": "stay"}, "direction: Input should be 'up'"),
    ("maze", {}, 0, {"direction": "up", "steps": 4}, "steps: Input should be less than or"),
    ("negotiation", {}, 0, {"p1": [1, 2, 3]}, "a proposal needs p1 and p2"),
    ("negotiation", {}, 0, {"p1": [1, 2], "p2": [0, 0, 0]}, "p1: List should have at least 3"),
    (
        "negotiation",
        {},
        1,
        {"agree": True, "p1": [0, 0, 0], "p2": [1, 1, 1]},
        "give no shares with it",
    ),
    ("match2", {}, 0, {"action": "eliminate", "row": 2}, "eliminate takes row and col; col"),
    ("match2", {}, 0, {"action": "row", "row": 2, "col": 3}, "row takes row; col not used"),
    (
        "match2",
        {"props": False},
        0,
        {"action": "bomb", "row": 2, "col": 3},
        "action: Input should be 'eliminate'",
    ),
    ("minesweeper", {}, 0, {"action": "dig", "row": 0, "col": 0}, "action: Input should be"),
    ("texas_holdem", {}, 0, {"action": "Check", "amount": 5}, "amount: Extra inputs"),
    ("rock_paper_scissors", {}, 0, {"action": "Rock", "times": 2}, "times: Extra inputs"),
]


@pytest.mark.parametrize(("game", "options", "seat", "args", "problem"), BAD)
def test_a_bad_typed_move_names_the_problem_and_the_legal_moves(
    game: str, options: dict[str, Any], seat: int, args: dict[str, Any], problem: str
) -> None:
    kit = toolkit(game, seat, **options)
    move = kit.get_tools()[2]
    message = tool_call(move, **args)
    assert message.status == "error"
    content = str(message.content)
    assert content.startswith("The move arguments are malformed (")
    assert problem in content
    legal = kit.session.legal_actions(seat)
    assert f"Legal moves: {', '.join(legal)}." in content
    assert agent_moves(kit) == []  # nothing was played


@pytest.mark.parametrize(
    ("game", "args", "shown"),
    [
        ("tictactoe", {"row": 3, "col": 0}, "Illegal move '(3,0)'"),  # off the board
        ("othello", {"column": "A", "row": 1}, "Illegal move '(A,1)'"),
        ("texas_holdem", {"action": "Bet"}, "Illegal move 'Bet'"),  # read as text: no such bet
        ("bandit", {"action": "Pull slot machine 3."}, "Illegal move 'Pull slot machine 3.'"),
        ("minesweeper", {"action": "reveal", "row": 9, "col": 0}, "Illegal move 'r,9,0'"),
    ],
)
def test_well_formed_moves_that_are_not_legal_are_refused_as_illegal(
    game: str, args: dict[str, Any], shown: str
) -> None:
    kit = toolkit(game)
    message = tool_call(kit.get_tools()[2], **args)
    assert message.status == "error" and str(message.content).startswith(shown)
    assert "Legal moves: " + ", ".join(kit.session.legal_actions(0)) in str(message.content)


def test_the_text_form_still_reads_what_the_game_parser_reads() -> None:
    move = toolkit("tictactoe").get_tools()[2]
    assert tool_call(move, action="(1,1)").status == "success"
    texas = toolkit("texas_holdem")
    assert tool_call(texas.get_tools()[2], action="fold").status == "success"
    assert agent_moves(texas) == ["Fold"]
    othello = toolkit("othello")  # a lower-case column letter is read too
    assert tool_call(othello.get_tools()[2], column="d", row=6).status == "success"
    assert agent_moves(othello) == ["(D,6)"]
    maze = toolkit("maze")
    assert tool_call(maze.get_tools()[2], action="I will move right two steps").status == "success"
    assert agent_moves(maze) == ["10"]


def test_every_game_has_a_typed_schema_valid_for_openai_tool_calling() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    ids = [info.id for info in list_games()]
    assert sorted(MOVE_SCHEMAS) == sorted(ids)
    for game_id in ids:
        if game_id == "crafter" and not _has_crafter():
            continue
        tool = create_game_tools(game_id)[2]
        function = convert_to_openai_tool(tool)["function"]
        parameters = function["parameters"]
        jsonschema.Draft202012Validator.check_schema(parameters)
        assert parameters["type"] == "object" and parameters["properties"], game_id
        assert "action" not in parameters["properties"] or game_id in _ACTION_FIELD, game_id
        assert function["description"].startswith(make(game_id).name), game_id
    # What the cases send is what the schemas accept.
    for game, options, seat, args, action in CASES:
        if game == "crafter" and not _has_crafter():
            continue
        args, _ = _complete(game, seat, args, action)
        schema = move_schema(make(game, **options)).tool_schema()
        jsonschema.validate({k: v for k, v in args.items() if v is not None}, schema)


_ACTION_FIELD = {
    "texas_holdem",
    "match2",
    "minesweeper",
    "bandit",
    "hanoi",
    "messenger",
    "rock_paper_scissors",
    "crafter",
}


def _has_crafter() -> bool:
    try:
        import crafter  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_generic_schema_and_builders_on_their_own() -> None:
    assert set(create_game_tools("maze", typed=False)[2].args) == {"action"}
    schema = move_schema(make("match2"))
    session = GameSession("match2", seed=0)
    read = schema.read
    assert read(session.game, session.state, 0, {"action": "row", "row": 4}) == "row,4"
    assert read(session.game, session.state, 0, {"action": "col", "col": 0}) == "col,0"
    assert read(session.game, session.state, 0, {"action": "hammer", "row": 1, "col": 2}) == (
        "hammer,1,2"
    )
    with pytest.raises(MoveArgumentsError, match="col takes col; col missing"):
        read(session.game, session.state, 0, {"action": "col"})
    negotiation = GameSession("negotiation", seed=0)
    assert (
        move_schema(negotiation.game).read(
            negotiation.game, negotiation.state, 0, {"p1": [1, 2, 3], "p2": [0, 0, 0]}
        )
        == "P1: (1,2,3), P2: (0,0,0)"
    )
    small = make("minesweeper", rows=3, cols=4, mines=2)
    rows = move_schema(small).tool_schema()["properties"]["row"]
    assert (rows["minimum"], rows["maximum"]) == (0, 2)
