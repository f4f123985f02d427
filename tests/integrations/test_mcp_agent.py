"""An agent plays a whole TicTacToe game through the MCP server launched over stdio."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

from langgraph_games.games import GameSession
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for
from langgraph_games.players.registry import make_player
from mcp_support import server_command, text_of

_ids = iter(range(10_000))


def _call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"id": f"mcp-{next(_ids)}", "name": name, "args": args}])


def first_legal_policy(messages: Sequence[BaseMessage]) -> AIMessage:
    """Start a game, then always play the first legal move; read the result at the end."""
    tools = [m for m in messages if isinstance(m, ToolMessage)]
    if not tools:
        return _call("new_game", game="tictactoe", opponent="minimax", seed=0)
    match = re.search(r"Session: (\S+)", text_of(tools[0].content))
    assert match is not None, tools[0].content
    session = match[1]
    last, text = tools[-1], text_of(tools[-1].content)
    if last.name == "result":
        return AIMessage("The game is over.")
    if last.name == "legal_moves" and text.startswith("Legal moves: "):
        return _call(
            "move", session=session, action=text.removeprefix("Legal moves: ").split(", ")[0]
        )
    if "Game over" in text:
        return _call("result", session=session)
    return _call("legal_moves", session=session)


def _expected_game() -> GameSession:
    """The same game played here: X's first legal move each turn, minimax (seed 0) as O."""
    session = GameSession("tictactoe", seed=0)
    minimax = make_player("minimax", seed=0)
    while not session.done:
        if session.current_players == (0,):
            session.step(session.legal_actions()[0])
        else:
            session.step(minimax.decide(request_for(session)).action)  # type: ignore[arg-type]
    return session


async def test_create_agent_plays_tictactoe_over_stdio_and_the_result_matches_the_engine() -> None:
    command, args, env = server_command()
    client = MultiServerMCPClient(
        {"games": {"transport": "stdio", "command": command, "args": args, "env": env}}
    )
    async with client.session("games") as mcp_session:
        tools = await load_mcp_tools(mcp_session)
        assert {t.name for t in tools} == {
            "list_games", "new_game", "observe", "legal_moves", "move", "result", "close_game",
        }  # fmt: skip
        model = ScriptedChatModel(script=first_legal_policy)
        agent = create_agent(model, tools)
        final = await agent.ainvoke(
            {"messages": [HumanMessage("Play TicTacToe to the end.")]}, {"recursion_limit": 100}
        )
    replies = [m for m in final["messages"] if isinstance(m, ToolMessage)]
    assert all(m.status == "success" for m in replies)
    assert final["messages"][-1].content == "The game is over."
    result = json.loads(text_of(replies[-1].content))
    # The outcome the engine gives for the recorded moves, replayed from scratch.
    replay = GameSession.from_dict(result["record"])
    assert result["done"] and replay.done
    assert result["returns"] == list(replay.returns)
    assert result["winners"] == replay.result()["winners"]
    # ... and the game is the one first-legal X plays against minimax: X loses.
    expected = _expected_game()
    assert result["record"] == expected.to_dict()
    assert (result["returns"], result["verdict"]) == ([-1.0, 1.0], "lost")
    sent = [
        c["args"]["action"]
        for m in final["messages"]
        for c in getattr(m, "tool_calls", [])
        if c["name"] == "move"
    ]
    assert sent == [joint[0] for joint in expected.actions if 0 in joint]
