"""The game tools on their own: schemas, moves, opponents and every kind of bad input."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from langgraph_games.games import GameSession
from langgraph_games.players import MinimaxPlayer, RandomPlayer, request_for
from langgraph_games.tools import GameToolkit, create_game_manager_tools, create_game_tools
from support import Pennies


def tool_call(tool, **args):  # type: ignore[no-untyped-def]
    """Invoke a tool the way an agent does, returning the ToolMessage."""
    message = tool.invoke({"type": "tool_call", "id": "t1", "name": tool.name, "args": args})
    assert isinstance(message, ToolMessage)
    return message


def test_schemas_show_only_the_move() -> None:
    ttt = create_game_tools("tictactoe", opponents={1: "random"})
    assert [t.name for t in ttt] == ["observe", "legal_moves", "make_move"]
    assert ttt[0].args == {} and ttt[1].args == {}
    assert set(ttt[2].args) == {"row", "col"}
    assert ttt[2].tool_call_schema["required"] == ["row", "col"]  # type: ignore[index]
    assert set(create_game_tools("connect4")[2].args) == {"column"}
    assert set(create_game_tools("othello")[2].args) == {"column", "row"}
    assert set(create_game_tools("tictactoe", typed=False)[2].args) == {"action"}
    assert create_game_tools("bandit", prefix="bandit_")[2].name == "bandit_make_move"


def test_a_legal_move_is_applied_and_the_opponent_answers() -> None:
    session = GameSession("tictactoe", seed=0)
    kit = GameToolkit(session, player=0, opponents={1: MinimaxPlayer(seed=0)})
    message = tool_call(kit.get_tools()[2], row=1, col=1)
    assert message.status == "success"
    assert session.actions[0] == {0: "(1,1)"} and len(session.actions) == 2
    reply = MinimaxPlayer(seed=0).decide(request_for(GameSession("tictactoe", actions=["(1,1)"])))
    assert message.content.splitlines()[:2] == [  # type: ignore[union-attr]
        "You played (1,1).",
        f"O (seat 1) played {reply.action}.",
    ]
    assert message.content.endswith("It is your turn; you play X (seat 0).")  # type: ignore[union-attr]


def test_an_illegal_move_comes_back_as_a_message_and_changes_nothing() -> None:
    session = GameSession("tictactoe", actions=["(1,1)", "(0,0)"])
    kit = GameToolkit(session, player=0)
    move = kit.get_tools()[2]
    for args, reason in (
        ({"row": 1, "col": 1}, "Illegal move '(1,1)'"),  # occupied
        ({"row": 7, "col": 0}, "Illegal move '(7,0)'"),  # off the board
    ):
        message = tool_call(move, **args)
        assert message.status == "error"
        assert message.content.startswith(reason)  # type: ignore[union-attr]
        assert "Legal moves: (0,1), (0,2), (1,0)" in message.content  # type: ignore[operator]
    assert len(session.actions) == 2
    bad = tool_call(move, row="middle", col=1)
    assert bad.status == "error" and "malformed" in bad.content  # type: ignore[operator]
    assert "row" in bad.content  # type: ignore[operator]
    assert tool_call(move, row=0, col=1).status == "success"


def test_unknown_actions_in_text_form() -> None:
    move = create_game_tools("othello")[2]
    message = tool_call(move, action="the best square")
    assert message.status == "error"
    assert "Illegal move 'the best square'" in message.content  # type: ignore[operator]
    assert "Legal moves: (C,5), (D,6), (E,3), (F,4)." in message.content  # type: ignore[operator]
    # Anything the game's own parser reads is accepted: "C5" is Othello's (C,5).
    assert tool_call(move, action="I play C5").status == "success"


def test_connect4_full_and_missing_columns() -> None:
    session = GameSession(
        "connect4", actions=["(0,0)", "(1,0)", "(2,0)", "(3,0)", "(4,0)", "(5,0)"]
    )
    move = GameToolkit(session, player=0).get_tools()[2]
    for column in (0, 7, -1):
        message = tool_call(move, column=column)
        assert message.status == "error" and "Legal moves:" in message.content  # type: ignore[operator]
    assert tool_call(move, column=6).status == "success"
    assert session.actions[-1] == {0: "(0,6)"}


def test_moves_out_of_turn_with_two_agents_on_one_session() -> None:
    session = GameSession("tictactoe")
    x_tools = GameToolkit(session, player=0).get_tools()
    o_tools = GameToolkit(session, player=1).get_tools()
    early = tool_call(o_tools[2], row=0, col=0)
    assert early.status == "error"
    assert early.content.startswith("It is not your turn: X (seat 0) must move first")  # type: ignore[union-attr]
    assert tool_call(o_tools[1]).content == (
        "No moves now. It is not your turn; waiting for X (seat 0)."
    )
    assert tool_call(x_tools[2], row=0, col=0).status == "success"
    assert tool_call(x_tools[2], row=0, col=1).status == "error"
    assert tool_call(o_tools[2], row=1, col=1).status == "success"
    assert [a for joint in session.actions for a in joint.values()] == ["(0,0)", "(1,1)"]


def test_moves_after_the_game_ended() -> None:
    session = GameSession("tictactoe", actions=["(0,0)", "(1,0)", "(0,1)", "(1,1)"])
    kit = GameToolkit(session, player=0, opponents={1: "random"})
    final = tool_call(kit.get_tools()[2], row=0, col=2)
    assert final.status == "success"
    assert "Game over after 5 moves. You won." in final.content  # type: ignore[operator]
    late = tool_call(kit.get_tools()[2], row=2, col=2)
    assert late.status == "error"
    assert late.content.startswith("The game is over; no more moves can be made.")  # type: ignore[union-attr]
    assert tool_call(kit.get_tools()[1]).content.startswith("No moves: Game over")  # type: ignore[union-attr]
    assert len(session.actions) == 5


def test_an_opponent_who_moves_first_has_moved_before_the_agent_looks() -> None:
    session = GameSession("connect4")
    kit = GameToolkit(session, player=1, opponents={0: "minimax:depth=2"})
    view = tool_call(kit.get_tools()[0]).content
    assert view.startswith("X (seat 0) played (0,")  # type: ignore[union-attr]
    assert view.endswith("It is your turn; you play O (seat 1).")  # type: ignore[union-attr]
    assert len(session.actions) == 1


def test_single_player_smartplay_game_through_tools() -> None:
    session = GameSession("bandit", seed=4)
    tools = GameToolkit(session).get_tools()
    assert tool_call(tools[1]).content == "Legal moves: Pull slot machine 1., Pull slot machine 2."
    message = tool_call(tools[2], action="pull slot machine 2.")
    assert message.status == "success"
    assert "You pulled slot machine 2, you received reward" in message.content  # type: ignore[operator]
    assert message.content.endswith("It is your turn.")  # type: ignore[union-attr]
    assert session.actions == [{0: "Pull slot machine 2."}]


async def test_async_tools_drive_the_opponent() -> None:
    session = GameSession("connect4")
    kit = GameToolkit(session, player=0, opponents={1: MinimaxPlayer(depth=2)})
    obs, legal, move = kit.get_tools()
    reply = await move.ainvoke(
        {"type": "tool_call", "id": "a", "name": "make_move", "args": {"column": 3}}
    )
    assert reply.status == "success" and len(session.actions) == 2
    bad = await move.ainvoke(
        {"type": "tool_call", "id": "b", "name": "make_move", "args": {"column": 12}}
    )
    assert bad.status == "error" and len(session.actions) == 2
    assert (await legal.ainvoke({})).startswith("Legal moves: (0,0)")
    assert "It is your turn" in await obs.ainvoke({})


def test_bad_toolkit_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        GameToolkit(GameSession("tictactoe"), player=2)
    with pytest.raises(ValueError, match="another seat"):
        GameToolkit(GameSession("tictactoe"), player=0, opponents={0: "random"})


def test_lobby_tools() -> None:
    list_games, start, observe, _legal, move = create_game_manager_tools()
    assert tool_call(observe).content.startswith("No game is running")
    assert tool_call(move, action="Rock").status == "error"
    listing = tool_call(list_games).content
    assert "- messenger (1 player, SmartPlay)" in listing and "Options: level=1" in listing
    for args, expected in (
        ({"game": "chess"}, "Unknown game 'chess'"),
        ({"game": "hanoi", "options": {"disks": 0}}, "option 'disks'"),
        ({"game": "tictactoe", "opponent": "alphazero"}, "Unknown player 'alphazero'"),
        ({"game": "tictactoe", "seat": 5}, "seat"),
    ):
        message = tool_call(start, **args)
        assert message.status == "error" and expected in message.content, message.content  # type: ignore[operator]
    started = tool_call(start, game="connect4", seat=1, opponent="minimax:depth=2", seed=3)
    assert started.content.startswith("Started Connect Four (seed 3, options defaults).")  # type: ignore[union-attr]
    assert "X (seat 0) played" in started.content  # type: ignore[operator]
    assert tool_call(move, action="3").status == "success"  # Connect4's parser reads a column
    assert tool_call(move, action="(9,9)").status == "error"
    restarted = tool_call(start, game="messenger", options={"level": 2}, seed=1)
    assert 'options {"level": 2}' in restarted.content  # type: ignore[operator]
    assert tool_call(move, action="Do Nothing").status == "success"


async def test_simultaneous_moves_join_the_opponents_choice() -> None:
    session = GameSession(Pennies())
    move = GameToolkit(session, player=0, opponents={1: RandomPlayer(seed=1)}).get_tools()[2]
    first = tool_call(move, action="heads")
    assert first.status == "success"
    assert first.content.splitlines()[:2] == [  # type: ignore[union-attr]
        "You played heads.",
        f"Odd (seat 1) played {session.actions[0][1]}.",
    ]
    second = await move.ainvoke(
        {"type": "tool_call", "id": "s", "name": "make_move", "args": {"action": "tails"}}
    )
    assert second.status == "success" and session.actions[1][0] == "tails"
    lonely = GameToolkit(GameSession(Pennies()), player=0).get_tools()[2]
    refused = tool_call(lonely, action="heads")
    assert refused.status == "error"
    assert "Odd (seat 1) must move at the same time as you" in refused.content  # type: ignore[operator]
