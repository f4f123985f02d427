"""Concurrent matches against a model with a fixed latency: in-process vs worker processes.

Usage: python benchmarks/concurrency.py [--latencies 0.1 1] [--sizes 1 8 64 256]
       [--modes inprocess workers] [--workers 2] [--baseline-calls 300]

N Connect Four matches run at once, both seats played by the GAMEBoT agent on a scripted
model that takes ``latency`` seconds per call. Every match stops after 6 moves (no Connect
Four game ends sooner), so each makes exactly 6 calls one after another and the ideal run
takes 6 x latency: an ideal throughput of N / latency calls per second. The efficiency is
achieved / ideal. Aim: at least 90% at N = 64 with a 100 ms model.

Modes: ``inprocess`` (``run_episode`` under ``asyncio.gather`` on this process's loop, as the
executor with one worker) and ``workers`` (the executor's ``run_jobs`` with ``--workers``
worker processes, records written to a scratch results file by this process). The workers'
wall time includes starting them (each imports the package: about 2-4 s), and their CPU
(``RUSAGE_CHILDREN``) includes those imports, so both figures are upper bounds at small N.

Framework CPU per call is process CPU time (user + system, all processes) / model calls.
Measured in the same run with an instant model, as baselines: a plain Python loop calling
the model, and a minimal two-node LangGraph loop (a prompt node and a model node, looping).
Default: a quick subset (100 ms; N = 1, 8, 64; both modes).
"""

from __future__ import annotations

import argparse
import asyncio
import operator
import re
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, TypedDict

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph

from _common import machine, table
from langgraph_games.eval.running.executor import Job, run_jobs
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import registry

_LEGAL = re.compile(r"moves: \[(.*?)\]")
MOVES = 6


def first_legal_move(messages) -> str:
    """Answer both subproblems with None and play the first legal move listed."""
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(messages[-1].text)[-1])
    return (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


async def inprocess(n: int, latency: float) -> int:
    model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
    player = gamebot_player(model, "connect4")
    options = EpisodeOptions(max_retries=0, max_steps=MOVES)
    await asyncio.gather(
        *(run_episode("connect4", [player, player], seed=i, options=options) for i in range(n))
    )
    return len(model.calls)


async def on_workers(n: int, latency: float, workers: int) -> int:
    model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
    recipe = registry.resolve_player("gamebot", model=model)
    game = make("connect4")
    jobs = [Job(f"m{i}", [recipe, recipe], i, {"match_id": f"m{i}"}, game) for i in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        played, errors = await run_jobs(
            jobs,
            base={"kind": "match", "spec_hash": "bench"},
            results=ResultsFile(Path(folder) / "r.jsonl"),
            options=EpisodeOptions(max_retries=0, max_steps=MOVES),
            concurrency=n,
            progress=False,
            total=n,
            workers=workers,
        )
    assert errors == 0 and played == n, (played, errors)
    return n * MOVES  # the model's call list lives in the workers; each match makes 6


class _Loop(TypedDict):
    messages: Annotated[list[Any], operator.add]
    turns: int


async def baselines(calls: int) -> tuple[float, float]:
    """CPU ms per call: a plain loop calling the model, and a two-node LangGraph loop."""
    model = ScriptedChatModel(script=lambda _: "Chosen Move: 1")
    start = cpu_seconds()
    for i in range(calls):
        await model.ainvoke([HumanMessage(f"move {i}?")])
    plain = (cpu_seconds() - start) / calls * 1e3

    async def prompt(state: _Loop) -> dict[str, Any]:
        return {"messages": [HumanMessage(f"move {state['turns']}?")]}

    async def call(state: _Loop) -> dict[str, Any]:
        reply = await model.ainvoke(state["messages"][-1:])
        return {"messages": [reply], "turns": state["turns"] + 1}

    graph = StateGraph(_Loop)
    graph.add_node("prompt", prompt)
    graph.add_node("call", call)
    graph.add_edge(START, "prompt")
    graph.add_edge("prompt", "call")
    graph.add_conditional_edges(
        "call", lambda s: END if s["turns"] >= calls else "prompt", ["prompt", END]
    )
    app = graph.compile()
    start = cpu_seconds()
    await app.ainvoke({"messages": [], "turns": 0}, {"recursion_limit": 3 * calls + 10})
    two_node = (cpu_seconds() - start) / calls * 1e3
    return plain, two_node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latencies", type=float, nargs="+", default=[0.1])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument(
        "--modes", nargs="+", choices=["inprocess", "workers"], default=["inprocess", "workers"]
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline-calls", type=int, default=300)
    args = parser.parse_args()
    plain, two_node = asyncio.run(baselines(args.baseline_calls))
    rows = []
    for latency in args.latencies:
        for n in args.sizes:
            for mode in args.modes:
                cpu0, wall0 = cpu_seconds(), time.perf_counter()
                if mode == "inprocess":
                    calls = asyncio.run(inprocess(n, latency))
                else:
                    calls = asyncio.run(on_workers(n, latency, args.workers))
                elapsed = time.perf_counter() - wall0
                cpu_ms = (cpu_seconds() - cpu0) / calls * 1e3
                achieved, ideal = calls / elapsed, n / latency
                label = mode if mode == "inprocess" else f"workers={args.workers}"
                rows.append(
                    [
                        f"{latency * 1e3:.0f} ms",
                        n,
                        label,
                        calls,
                        f"{elapsed:.2f}",
                        f"{achieved:,.1f}",
                        f"{ideal:,.1f}",
                        f"{100 * achieved / ideal:.1f}%",
                        f"{cpu_ms:.2f}",
                        f"{cpu_ms / two_node:.2f}x",
                    ]
                )
    print(f"Concurrent matches against a fixed-latency scripted model ({machine()})\n")
    print(
        f"Baselines, CPU per call with an instant model: plain Python loop {plain:.2f} ms, "
        f"two-node LangGraph loop {two_node:.2f} ms\n"
    )
    headers = ["latency", "N", "mode", "calls", "seconds", "calls/s", "ideal N/latency"]
    headers += ["efficiency", "CPU ms/call", "vs two-node"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
