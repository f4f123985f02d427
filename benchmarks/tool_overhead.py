"""Tool-call overhead per move, against a direct ``GameSession.step`` in the same run.

Usage: python benchmarks/tool_overhead.py [--seconds 1]

Each row makes the same moves four ways and reports moves per second and the ratio to
the direct step (how many times slower):

- ``step``: ``session.step(action)``;
- ``step+observe``: the same plus the observation text the tool returns;
- ``tool``: ``make_move`` invoked with a tool call (validation, the move, the reply
  message, ``ToolMessage`` wrapping);
- ``ToolNode``: the tool call run by LangGraph's ``ToolNode`` inside a compiled graph,
  as an agent loop does.

Single-player games isolate the tool layer (no opponent search). Moves are taken from a
fixed script; a finished game is replaced by a new one outside the timed section.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.messages import AIMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from _common import machine, table
from langgraph_games.games import GameSession
from langgraph_games.tools import GameToolkit

CASES: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("bandit", {}, [{"action": "Pull slot machine 1."}, {"action": "Pull slot machine 2."}]),
    (
        "hanoi",
        {"steps": 10_000},
        [
            {"action": "Move the top disk of rod A to the top of rod B"},
            {"action": "Move the top disk of rod B to the top of rod A"},
        ],
    ),
    ("messenger", {"level": 2}, [{"action": "Do Nothing"}]),
]


def timed(runner: Runner, act: Callable[[int], None], seconds: float) -> float:
    """Moves per second of ``act(i)``; restarting a finished game is not timed."""
    done, spent = 0, 0.0
    while spent < seconds or done < 50:
        runner.ensure()
        start = time.perf_counter()
        act(done)
        spent += time.perf_counter() - start
        done += 1
    return done / spent


class Runner:
    """One toolkit (and one compiled ToolNode graph) whose session is replaced, with a
    new seed, when a game ends; the tools read the toolkit's session at call time.
    """

    def __init__(self, game_id: str, options: dict[str, Any]) -> None:
        self.game_id, self.options, self.seed = game_id, options, 0
        self.session = GameSession(game_id, seed=0, **options)
        self.kit = GameToolkit(self.session)
        self.tool = self.kit.get_tools()[2]
        graph = StateGraph(MessagesState)
        graph.add_node("tools", ToolNode([self.tool]))
        graph.add_edge(START, "tools")
        self.graph = graph.compile()

    def ensure(self) -> None:
        if self.session.done:
            self.seed += 1
            self.session = GameSession(self.game_id, seed=self.seed, **self.options)
            self.kit.session = self.session


def measure(game_id: str, options: dict[str, Any], script: list[dict[str, Any]], seconds: float):
    r = Runner(game_id, options)

    def step(i: int, observe: bool = False) -> None:
        r.session.step(script[i % len(script)]["action"])
        if observe:
            r.session.observe()

    def tool(i: int) -> None:
        call = {"type": "tool_call", "id": str(i), "name": "make_move"}
        r.tool.invoke({**call, "args": script[i % len(script)]})

    def node(i: int) -> None:
        call = {"id": str(i), "name": "make_move", "args": script[i % len(script)]}
        r.graph.invoke({"messages": [AIMessage("", tool_calls=[call])]})

    return (
        timed(r, step, seconds),
        timed(r, lambda i: step(i, observe=True), seconds),
        timed(r, tool, seconds),
        timed(r, node, seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    rows = []
    for game_id, options, script in CASES:
        base, observed, via_tool, via_node = measure(game_id, options, script, args.seconds)
        rows.append(
            [
                game_id,
                f"{base:,.0f}",
                f"{observed:,.0f}",
                f"{via_tool:,.0f}",
                f"{via_node:,.0f}",
                f"{base / via_tool:.1f}x",
                f"{base / via_node:.1f}x",
            ]
        )
    print(f"Moves per second ({machine()}, {args.seconds:g} s per cell)\n")
    headers = ["game", "step", "step+observe", "tool", "ToolNode", "tool/step", "ToolNode/step"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
