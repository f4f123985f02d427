"""The game tools inside agents: LangChain's create_agent and a hand-built ToolNode loop."""

from __future__ import annotations

from typing import Any, Literal

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from langgraph_games.games import GameSession
from langgraph_games.games.smartplay.metrics import episode_metrics
from langgraph_games.players import MinimaxPlayer, request_for
from langgraph_games.tools import GameToolkit
from scripted_model import call, scripted


def tool_messages(messages: list[Any]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def test_create_agent_plays_connect4_against_minimax_and_recovers_from_an_illegal_move() -> None:
    session = GameSession("connect4", seed=0)
    kit = GameToolkit(session, player=0, opponents={1: MinimaxPlayer(depth=3, seed=0)})
    model = scripted(
        call("observe"),
        call("make_move", column=3),
        call("make_move", column=9),  # no such column
        call("make_move", column=3),  # the retry
        AIMessage("I have made my moves."),
    )
    agent = create_agent(model, kit.get_tools(), system_prompt="Play Connect Four well.")
    result = agent.invoke({"messages": [HumanMessage("Play two moves.")]})
    replies = tool_messages(result["messages"])
    assert [m.status for m in replies] == ["success", "success", "error", "success"]
    assert replies[0].content.startswith("Current Game Board:")  # type: ignore[union-attr]
    assert "Illegal move 'column 9'" in replies[2].content  # type: ignore[operator]
    assert replies[3].content.startswith("You played (")  # type: ignore[union-attr]
    # Two agent moves in column 3, each answered by minimax.
    agent_moves = [joint[0] for joint in session.actions if 0 in joint]
    assert [int(cell[3]) for cell in agent_moves] == [3, 3]
    assert len(session.actions) == 4
    assert result["messages"][-1].content == "I have made my moves."


def _scripted_tictactoe_game() -> list[str]:
    """X plays the first legal cell each turn against minimax (seed 0): X's moves."""
    session = GameSession("tictactoe")
    minimax = MinimaxPlayer(seed=0)
    moves = []
    while not session.done:
        if session.current_players == (0,):
            moves.append(session.legal_actions()[0])
            session.step(moves[-1])
        else:
            session.step(minimax.decide(request_for(session)).action)  # type: ignore[arg-type]
    return moves


def test_create_agent_game_over_is_reported_and_later_moves_are_refused() -> None:
    moves = _scripted_tictactoe_game()
    session = GameSession("tictactoe")
    kit = GameToolkit(session, player=0, opponents={1: MinimaxPlayer(seed=0)})
    script = [call("make_move", row=int(m[1]), col=int(m[3])) for m in moves]
    script += [call("make_move", row=2, col=2), AIMessage("The game has ended.")]
    agent = create_agent(scripted(*script), kit.get_tools())
    result = agent.invoke({"messages": [HumanMessage("Play to the end.")]})
    replies = tool_messages(result["messages"])
    assert [m.status for m in replies] == ["success"] * len(moves) + ["error"]
    assert "Game over after" in replies[-2].content and "You lost." in replies[-2].content  # type: ignore[operator]
    assert replies[-1].content.startswith("The game is over")  # type: ignore[union-attr]
    assert session.done and session.returns == (-1.0, 1.0)


def build_tool_loop(model: Any, tools: list[Any]) -> Any:
    """The classic hand-built agent: a model node and a ToolNode, looping until no calls."""
    bound = model.bind_tools(tools)

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [bound.invoke(state["messages"])]}

    async def aagent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    def route(state: MessagesState) -> Literal["tools", "__end__"]:
        return tools_condition(state)  # type: ignore[return-value]

    graph = StateGraph(MessagesState)
    graph.add_node("agent", RunnableLambda(agent, afunc=aagent))
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route)
    graph.add_edge("tools", "agent")
    return graph.compile()


HANOI = [
    "Move the top disk of rod A to the top of rod C",
    "Move the top disk of rod A to the top of rod B",
    "Move the top disk of rod C to the top of rod B",
    "Move the top disk of rod A to the top of rod C",
    "Move the top disk of rod B to the top of rod A",
    "Move the top disk of rod B to the top of rod C",
    "Move the top disk of rod A to the top of rod C",
]


def _hanoi_script() -> list[AIMessage]:
    script = [call("legal_moves"), call("make_move", action="Move rod A onto rod C")]
    script += [call("make_move", action=m) for m in HANOI]
    return [*script, call("make_move", action=HANOI[0]), AIMessage("Solved.")]


def _check_hanoi(session: GameSession, messages: list[Any]) -> None:
    replies = tool_messages(messages)
    assert [m.status for m in replies] == ["success", "error"] + ["success"] * 7 + ["error"]
    assert replies[0].content.startswith("Legal moves: Move the top disk of rod A")  # type: ignore[union-attr]
    assert "Game over after 7 steps. Your total reward: 100." in replies[-2].content  # type: ignore[operator]
    metrics = episode_metrics(session)
    assert (metrics["score"], metrics["completed"], metrics["normalized_score"]) == (3.0, True, 1.0)


def test_toolnode_loop_solves_hanoi() -> None:
    session = GameSession("hanoi")
    graph = build_tool_loop(scripted(*_hanoi_script()), GameToolkit(session).get_tools())
    result = graph.invoke({"messages": [HumanMessage("Solve it.")]})
    _check_hanoi(session, result["messages"])


async def test_toolnode_loop_async() -> None:
    session = GameSession("hanoi")
    graph = build_tool_loop(scripted(*_hanoi_script()), GameToolkit(session).get_tools())
    result = await graph.ainvoke({"messages": [HumanMessage("Solve it.")]})
    _check_hanoi(session, result["messages"])


def test_several_calls_in_one_message() -> None:
    """A model may call several tools at once; ToolNode runs them together."""
    session = GameSession("connect4")
    kit = GameToolkit(session, player=0, opponents={1: "random"})
    both = AIMessage(
        "",
        tool_calls=[
            {"id": "m1", "name": "make_move", "args": {"column": 0}},
            {"id": "m2", "name": "make_move", "args": {"column": 6}},
        ],
    )
    graph = build_tool_loop(scripted(both, AIMessage("ok")), kit.get_tools())
    replies = tool_messages(graph.invoke({"messages": [HumanMessage("go")]})["messages"])
    statuses = sorted(m.status for m in replies)
    # Each call either moved (then random answered) or found it was not the agent's turn.
    agent_moves = [joint[0] for joint in session.actions if 0 in joint]
    assert statuses.count("success") == len(agent_moves) >= 1
    assert len(session.actions) == 2 * len(agent_moves)
