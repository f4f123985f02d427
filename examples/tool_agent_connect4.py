"""Give an existing tool-calling agent a game: it plays Connect Four against minimax.

What it shows:

- ``create_session_tools("connect4", opponents={1: "minimax:depth=2"})`` gives any LangChain
  agent three tools for seat 0: ``observe``, ``legal_moves`` and ``make_move(column: int)``.
  Minimax answers every move inside the same tool call.
- The agent is LangChain's own ``create_agent``; nothing in it knows about games.
- An illegal move (column 9) comes back as an error message listing the legal moves, the
  agent retries, and the run goes on; the final move's reply reports the game over.

Offline by default: a scripted tool-calling model stands in for the LLM (it asks for the
legal moves, tries column 9 once, then plays the legal column nearest the centre).
``--model openai:<model>[@<base_url>]`` runs a real tool-calling model (the embedded
SmolLM2 cannot call tools).

Run: ``python examples/tool_agent_connect4.py [--depth 2] [--model openai:gpt-4o-mini]``
"""

from __future__ import annotations

import argparse
import itertools
import re
from collections.abc import Sequence

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_games.games import GameSession
from langgraph_games.models import ScriptedChatModel, load_chat_model
from langgraph_games.tools import create_session_tools

SYSTEM = (
    "You play Connect Four as X with the tools you have. Look at the legal moves, then "
    "play one move at a time until the game is over. If a move is refused, read why and "
    "choose again."
)


def scripted_tool_caller() -> ScriptedChatModel:
    """A stand-in for a tool-calling LLM: legal moves, one bad move, then centre-first."""
    ids = itertools.count()
    tried_bad_move = False

    def call(name: str, **args: int) -> AIMessage:
        return AIMessage("", tool_calls=[{"id": f"call-{next(ids)}", "name": name, "args": args}])

    def reply(messages: Sequence[BaseMessage]) -> AIMessage:
        nonlocal tried_bad_move
        last = messages[-1]
        if not isinstance(last, ToolMessage):
            return call("legal_moves")
        text = str(last.content)
        if "Game over" in text or text.startswith("The game is over"):
            return AIMessage("The game is over. " + text.splitlines()[-1])
        if not tried_bad_move:
            tried_bad_move = True
            return call("make_move", column=9)  # out of range: the tool says why
        columns = {int(c) for c in re.findall(r"\(\d+,(\d+)\)", text.split("moves")[-1])}
        return call("make_move", column=min(columns, key=lambda c: (abs(c - 3), c)))

    return ScriptedChatModel(script=reply)


def main(argv: Sequence[str] | None = None) -> None:
    """Play one game and print the conversation's tool traffic and the final board."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=2, help="minimax search depth")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default=None, help="a tool-calling model spec")
    args = parser.parse_args(argv)

    session = GameSession("connect4", seed=args.seed)
    tools = create_session_tools(session, opponents={1: f"minimax:depth={args.depth}"})
    model: BaseChatModel = (
        scripted_tool_caller() if args.model is None else load_chat_model(args.model)
    )
    agent = create_agent(model, tools, system_prompt=SYSTEM)
    result = agent.invoke(
        {"messages": [HumanMessage("Play a whole game of Connect Four.")]},
        {"recursion_limit": 200},
    )
    for message in result["messages"]:
        if isinstance(message, AIMessage):
            for tool_call in message.tool_calls:
                print(f"agent -> {tool_call['name']}({tool_call['args']})")
        if isinstance(message, ToolMessage):
            lines = str(message.content).splitlines()
            moves = [line for line in lines[1:] if " played " in line]  # minimax's replies
            print(f"  tool [{message.status}]: {' '.join([lines[0], *moves])}")
    print(f"\nagent: {result['messages'][-1].content}")
    print(session.render())
    outcome = {1.0: "won", -1.0: "lost", 0.0: "drew"}.get(session.returns[0], "?")
    print(f"X (the agent) {outcome} after {len(session.actions)} moves.")


if __name__ == "__main__":
    main()
