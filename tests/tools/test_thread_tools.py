"""Game tools whose games live in the graph state: one compiled agent, many threads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Literal

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from conversation_model import ConversationModel, Step
from langgraph_games.games import GameSession
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.players import MinimaxPlayer
from langgraph_games.players.errors import UnknownPlayerError
from langgraph_games.tools import GameThreadState, create_thread_game_tools


def replies(messages: list[Any]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def thread(name: str) -> RunnableConfig:
    return {"configurable": {"thread_id": name}}


def session_of(state: dict[str, Any], name: str = "game") -> GameSession:
    return GameSession.from_dict(state["games"][name]["session"])


# Alice plays TicTacToe against minimax; Bob plays Connect4 against a random player.
ALICE: list[Step] = [
    [("start_game", {"game": "tictactoe", "opponent": "minimax"})],
    [("make_move", {"action": "(1,1)"})],
    "Your move.",
    [("observe", {})],
    [("make_move", {"action": "(0,0)"})],
    "Done.",
]
BOB: list[Step] = [
    [("start_game", {"game": "connect4", "opponent": "random", "seed": 2})],
    [("make_move", {"action": "3"})],
    "Your move.",
    [("observe", {})],
    "Done.",
]


def lobby_agent(checkpointer: Any) -> Any:
    model = ConversationModel(scripts={"alice": ALICE, "bob": BOB})
    return create_agent(
        model,
        create_thread_game_tools(),
        state_schema=GameThreadState,
        checkpointer=checkpointer,
    )


def _check_alice_and_bob(alice: dict[str, Any], bob: dict[str, Any]) -> None:
    alice_view = replies(alice["messages"])[2].content
    bob_view = replies(bob["messages"])[2].content
    assert isinstance(alice_view, str) and isinstance(bob_view, str)
    # Each sees only their own game: X in the middle and one O; a Connect4 board.
    assert "(1,1):X" in alice_view and alice_view.count(":O") == 1
    assert "(0,6)" not in alice_view and "(5,6):_" in bob_view  # 3x3 and 6x7 boards
    assert bob_view.count(":X") == bob_view.count(":O") == 1
    tictactoe, connect4 = session_of(alice), session_of(bob)
    assert tictactoe.game.id == "tictactoe" and len(tictactoe.actions) == 4
    assert connect4.game.id == "connect4" and len(connect4.actions) == 2
    assert connect4.actions[0][0].endswith(",3)")  # the agent's column


def test_two_threads_interleaved_on_one_compiled_agent_keep_their_own_games() -> None:
    agent = lobby_agent(InMemorySaver())
    agent.invoke({"messages": [HumanMessage("alice")]}, thread("a"))
    agent.invoke({"messages": [HumanMessage("bob")]}, thread("b"))
    alice = agent.invoke({"messages": [HumanMessage("go on")]}, thread("a"))
    bob = agent.invoke({"messages": [HumanMessage("go on")]}, thread("b"))
    assert [m.status for m in replies(alice["messages"])] == ["success"] * 4
    _check_alice_and_bob(alice, bob)


async def test_two_threads_at_once_on_one_compiled_agent() -> None:
    agent = lobby_agent(InMemorySaver())
    await asyncio.gather(
        agent.ainvoke({"messages": [HumanMessage("alice")]}, thread("a")),
        agent.ainvoke({"messages": [HumanMessage("bob")]}, thread("b")),
    )
    alice, bob = await asyncio.gather(
        agent.ainvoke({"messages": [HumanMessage("go on")]}, thread("a")),
        agent.ainvoke({"messages": [HumanMessage("go on")]}, thread("b")),
    )
    _check_alice_and_bob(alice, bob)


def test_a_checkpointed_thread_gets_its_game_back_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "agent.sqlite")
    with SqliteSaver.from_conn_string(db) as saver:
        first = lobby_agent(saver).invoke({"messages": [HumanMessage("alice")]}, thread("a"))
    before = session_of(first).actions
    assert len(before) == 2
    # A new process: new tools, a new compiled agent, the same checkpoint file.
    with SqliteSaver.from_conn_string(db) as saver:
        again = lobby_agent(saver).invoke({"messages": [HumanMessage("go on")]}, thread("a"))
    observed, moved = replies(again["messages"])[2:]
    assert "(1,1):X" in str(observed.content) and moved.status == "success"
    assert session_of(again).actions[:2] == before and len(session_of(again).actions) == 4


def test_bad_input_comes_back_as_clear_tool_errors() -> None:
    script: list[Step] = [
        [("make_move", {"action": "(1,1)"})],
        [("observe", {})],
        [("start_game", {"game": "chess"})],
        [("start_game", {"game": "tictactoe", "opponent": "nobody"})],
        [("start_game", {"game": "tictactoe", "seat": "first"})],
        [("start_game", {"game": "tictactoe", "seat": 0})],
        [("make_move", {"action": "(9,9)"})],
        "Stop.",
    ]
    agent = create_agent(
        ConversationModel(scripts={"carol": script}),
        create_thread_game_tools(),
        state_schema=GameThreadState,
    )
    out = replies(agent.invoke({"messages": [HumanMessage("carol")]})["messages"])
    assert [m.status for m in out] == ["error"] * 5 + ["success", "error"]
    no_game = "No game is running in this conversation. Call start_game first"
    assert str(out[0].content).startswith(no_game) and str(out[1].content).startswith(no_game)
    assert str(out[2].content).startswith("Could not start 'chess': Unknown game 'chess'.")
    assert "Registered games: bandit" in str(out[2].content)
    assert str(out[3].content).startswith("Could not start 'tictactoe':")
    assert "'nobody'" in str(out[3].content)
    assert str(out[4].content).startswith("The start_game arguments are malformed (seat:")
    assert str(out[6].content).startswith("Illegal move '(9,9)'")


def test_a_bad_toolkit_is_refused_when_it_is_made() -> None:
    with pytest.raises(UnknownGameError, match="Unknown game 'chess'"):
        create_thread_game_tools("chess")
    with pytest.raises(UnknownPlayerError, match="nobody"):
        create_thread_game_tools("tictactoe", opponent="nobody")
    with pytest.raises(TypeError, match="game options need a fixed game"):
        create_thread_game_tools(level=2)


def tool_loop(tools: list[Any], model: Any, state: Any = GameThreadState) -> Any:
    """A hand-built agent: a model node and a ToolNode, looping until no tool calls."""
    bound = model.bind_tools(tools)

    async def agent(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"], config)]}

    def route(state: dict[str, Any]) -> Literal["tools", "__end__"]:
        return tools_condition(state)  # type: ignore[return-value]

    graph = StateGraph(state)
    graph.add_node("agent", RunnableLambda(agent))
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=InMemorySaver())


async def test_a_fixed_game_in_a_toolnode_loop_plays_one_move_per_message() -> None:
    two_moves = [("make_move", {"column": 3}), ("make_move", {"column": 4})]
    script: list[Step] = [
        [("start_game", {"seat": 1}), ("make_move", {"column": 2})],
        two_moves,
        [("make_move", {"column": 4})],  # a later message moves again
        "Done.",
    ]
    tools = create_thread_game_tools("connect4", opponent=MinimaxPlayer(depth=2, seed=0))
    assert set(tools[3].args) == {"column"}
    graph = tool_loop(tools, ConversationModel(scripts={"dave": script}))
    state = await graph.ainvoke({"messages": [HumanMessage("dave")]}, thread("d"))
    out = replies(state["messages"])
    assert [m.status for m in out] == ["success", "error", "success", "error", "success"]
    assert str(out[0].content).startswith("Started Connect Four (seed 0")
    assert "played" in str(out[0].content)  # minimax (seat 0) moved first
    refusal = "Not played: start_game was called earlier in the same message"
    assert str(out[1].content).startswith(refusal)
    assert str(out[3].content).startswith("Not played: make_move was called earlier")
    session = session_of(state)
    mine = [joint[1] for joint in session.actions if 1 in joint]
    assert [int(cell[3]) for cell in mine] == [3, 4]
    assert len(session.actions) == 5  # minimax first, then one answer to each move


async def test_a_state_without_the_games_key_is_named_as_the_graphs_mistake() -> None:
    script: list[Step] = [[("start_game", {"game": "tictactoe"})], [("observe", {})], "?"]
    tools = create_thread_game_tools()
    graph = tool_loop(tools, ConversationModel(scripts={"erin": script}), MessagesState)
    with pytest.raises(ValueError, match="the graph state has no 'games' key"):
        await graph.ainvoke({"messages": [HumanMessage("erin")]}, thread("e"))


def test_two_toolkits_keep_their_games_under_their_own_names() -> None:
    script: list[Step] = [
        [("ttt_start_game", {}), ("c4_start_game", {"seed": 1})],
        [("ttt_make_move", {"row": 1, "col": 1}), ("c4_make_move", {"column": 0})],
        "Done.",
    ]
    tools = create_thread_game_tools("tictactoe", prefix="ttt_") + create_thread_game_tools(
        "connect4", prefix="c4_"
    )
    agent = create_agent(
        ConversationModel(scripts={"fay": script}), tools, state_schema=GameThreadState
    )
    state = agent.invoke({"messages": [HumanMessage("fay")]})
    assert [m.status for m in replies(state["messages"])] == ["success"] * 4
    assert set(state["games"]) == {"ttt", "c4"}
    assert session_of(state, "ttt").actions[0] == {0: "(1,1)"}
    assert session_of(state, "c4").actions[0][0].endswith(",0)")


def test_threads_at_the_same_position_go_their_own_ways() -> None:
    """Two threads reach the very same game record, then move differently."""

    def script(move: str) -> list[Step]:
        start = ("start_game", {"game": "tictactoe", "opponent": "minimax"})
        return [[start], [("make_move", {"action": move})], "Done."]

    model = ConversationModel(scripts={"gil": script("(0,0)"), "hal": script("(2,2)")})
    agent = create_agent(
        model,
        create_thread_game_tools(),
        state_schema=GameThreadState,
        checkpointer=InMemorySaver(),
    )
    gil = agent.invoke({"messages": [HumanMessage("gil")]}, thread("g"))
    hal = agent.invoke({"messages": [HumanMessage("hal")]}, thread("h"))
    assert session_of(gil).actions[0] == {0: "(0,0)"} and len(session_of(gil).actions) == 2
    assert session_of(hal).actions[0] == {0: "(2,2)"} and len(session_of(hal).actions) == 2
