"""Concurrent matches against a model with a fixed latency: in-process vs workers vs Ray.

Usage: python benchmarks/concurrency.py [--latencies 0.1 1] [--sizes 1 8 64 256]
       [--modes inprocess workers ray] [--workers 2] [--warmup 4] [--moves 6]
       [--baseline-calls 300] [--repeats 1]

N Connect Four matches run at once, both seats played by the GAMEBoT agent on a scripted
model that takes ``latency`` seconds per call. Every match stops after ``--moves`` moves
(default 6; at most 22, where the scripted play wins, and no Connect Four game ends before
move 7), so each makes exactly that many calls one after another and the ideal run takes
moves x latency: an ideal throughput of N / latency calls per second. The efficiency is
achieved / ideal. Aim: at N = 64 with a 100 ms model, at least 0.95x the efficiency of
the minimal two-node loop doing the same work in the same run ("efficiency vs it", below;
on two cores that loop itself stays under 90%). Short matches weigh the
start of a batch most: the matches' first decisions queue for the CPU together, so the
last of a process's M matches asks its first question about M x (CPU per call) late, and
with 6 moves that delay is a tenth of the run.

Modes: ``inprocess`` (``run_episode`` under ``asyncio.gather`` on this process's loop inside
``steady_gc``, starts spaced by ``START_SPACING_S``, one engine and one player for every
match, warmed up with four matches first: as the executor with one worker),
``workers`` (``--workers`` worker processes) and ``ray`` (``--workers`` Ray actors on a
local ``ray.init()`` cluster). Workers and Ray are measured in the *steady state*: the
executor's worker pool (:class:`~langgraph_games.eval.running.workers_dispatch.WorkerPool`,
the one ``run_jobs`` uses) is started once per latency and warmed up with ``--warmup``
episodes per worker (each worker imports the package and builds its players), then every
size is one timed batch on it, its records appended to a scratch results file by this
process, the one writer. The start-up (starting the workers and the warm-up batch; for Ray
also starting the local cluster) is printed apart.

Framework CPU per call is the CPU time (user + system) of this process and every process
under it (worker processes; Ray's workers and daemons) over the batch, read from
``/proc``, divided by the model calls (Linux only). Measured in the same run with an
instant model, as baselines: a plain Python loop calling the model, and a minimal
two-node LangGraph loop (a prompt node and a model node, looping). And under each row's
load, the least a LangGraph program playing these matches does: the same GAMEBoT work
(prompt, model call, reading and scoring the reply against the ground truth, the move)
in a minimal hand-written two-node loop (:func:`same_work_loop`), as many matches at once,
at the same latency and start spacing, in one process or in ``--workers`` processes each
on its own loop (warmed up, collector tuned, as the workers), the size split evenly; Ray
rows use the processes' figures. Its efficiency is what that program reaches on this
machine at that moment: "efficiency vs it" is the row's efficiency as a ratio to that
loop's, and "CPU vs it" compares CPU per call under the same load.
Everything runs on the event loop the command line uses (uvloop where installed; set
``LANGGRAPH_GAMES_EVENT_LOOP=asyncio`` for asyncio's own, see
``langgraph_games.eval.running.event_loop``); the header names it.
Default: a quick subset (100 ms; N = 1, 8, 64; every mode Ray included when installed).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import operator
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Annotated, Any, TypedDict

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from _common import machine, table, tree_cpu
from _work import read_and_play
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.executor import Job
from langgraph_games.eval.running.gc_tuning import steady_gc, tune_worker_process
from langgraph_games.eval.running.jobs import START_SPACING_S
from langgraph_games.eval.running.records import PlayedRecord
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.workers import prepare
from langgraph_games.eval.running.workers_dispatch import WorkerPool, make_backend
from langgraph_games.eval.running.workers_ray import have_ray
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.gamebot.graph import build_gamebot_messages
from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.usage import ainvoke_measured
from langgraph_games.players import registry

_LEGAL = re.compile(r"moves: \[(.*?)\]")
MOVES = 6  # moves per match unless --moves says otherwise
MAX_MOVES = 22  # the scripted play (first legal move on both seats) wins at move 22


def reported(messages: list[Any], text: str) -> AIMessage:
    """``text`` as a reply whose usage the model reports, as a provider's does.

    Without it the scripted model would count the prompt's words on every call, work a
    model server does, not the framework. Tokens are estimated at four characters each.
    """
    prompt = sum(len(m.text) for m in messages) // 4
    usage = {"input_tokens": prompt, "output_tokens": len(text) // 4}
    usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
    return AIMessage(content=text, usage_metadata=usage)


def first_legal_move(messages: list[Any]) -> AIMessage:
    """Answer both subproblems with None and play the first legal move listed."""
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(messages[-1].text)[-1])
    return reported(
        messages,
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}",
    )


def move_one(messages: list[Any]) -> AIMessage:
    """The two-node loop's model: always move 1."""
    return reported(messages, "Chosen Move: 1")


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and every live process under it."""
    return tree_cpu(os.getpid())


_PLAYERS: dict[float, tuple[ScriptedChatModel, Any, Any]] = {}


async def inprocess(n: int, latency: float, moves: int) -> int:
    """``n`` matches at once on this loop, as the executor plays a batch with one worker.

    As the executor does, one engine and one player serve every match (built once per
    latency), and the starts are spaced.

    Returns:
        The model calls made.
    """
    if latency not in _PLAYERS:
        model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
        game = make("connect4")
        _PLAYERS[latency] = model, gamebot_player(model, game), game
    model, player, game = _PLAYERS[latency]
    options = EpisodeOptions(max_retries=0, max_steps=moves)
    before = len(model.calls)

    async def started(i: int) -> Any:
        await asyncio.sleep(i * START_SPACING_S)
        return await run_episode(game, [player, player], seed=i, options=options)

    await asyncio.gather(*(started(i) for i in range(n)))
    return len(model.calls) - before


def _jobs(model: ScriptedChatModel, n: int, first: int = 0) -> list[Job]:
    recipe = registry.resolve_player("gamebot", model=model)
    game = make("connect4")
    return [
        Job(f"m{i}", [recipe, recipe], i, {"match_id": f"m{i}"}, game)
        for i in range(first, first + n)
    ]


async def steady(
    mode: str,
    latency: float,
    sizes: list[int],
    workers: int,
    warmup: int,
    folder: Path,
    moves: int,
) -> tuple[float, list[tuple[int, float, float]]]:
    """Start a pool once, warm it up, then time one batch per size.

    Returns:
        The start-up seconds, and per size ``(calls, seconds, cpu_seconds)``.
    """
    model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
    fields = {"base": {"kind": "match", "spec_hash": "bench"}, "progress": False}
    fields["options"] = EpisodeOptions(max_retries=0, max_steps=moves)
    setup, _, count = prepare(
        _jobs(model, max(sizes)), slots=workers, setup_fields=fields, pool=None
    )
    results = ResultsFile(folder / f"{mode}-{latency}.jsonl")
    finished: list[str] = []

    def deliver(came: list[tuple[int, PlayedRecord]]) -> None:
        records = [record for _, record in came]
        assert all(r["status"] != "error" for r in records), [r.get("error") for r in records]
        results.extend(records)  # as the executor writes them: one fsync for those together
        finished.extend(record["match_id"] for record in records)

    started = time.perf_counter()
    backend = make_backend("ray" if mode == "ray" else "local")
    backend.cores()  # Ray: join (or start) the cluster here, on the main thread
    rows = []
    async with WorkerPool(backend, setup, count, concurrency=max(sizes)) as pool:
        _, tasks, _ = prepare(
            _jobs(model, warmup * count, first=10**6), slots=workers, setup_fields=fields, pool=None
        )
        await pool.run(tasks, deliver, lambda _: None)
        startup = time.perf_counter() - started
        for n in sizes:
            _, tasks, _ = prepare(_jobs(model, n), slots=workers, setup_fields=fields, pool=None)
            finished.clear()
            cpu0, wall0 = cpu_seconds(), time.perf_counter()
            await pool.run(tasks, deliver, lambda _: None)
            elapsed, cpu = time.perf_counter() - wall0, cpu_seconds() - cpu0
            assert len(finished) == n, (len(finished), n)
            rows.append((n * moves, elapsed, cpu))  # each match makes exactly `moves` calls
    return startup, rows


class _Loop(TypedDict):
    messages: Annotated[list[Any], operator.add]
    turns: int
    limit: int


def two_node_loop(model: ScriptedChatModel) -> Any:
    """The minimal hand-written loop: a prompt node and a model node, ``limit`` times."""

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
        "call", lambda s: END if s["turns"] >= s["limit"] else "prompt", ["prompt", END]
    )
    return graph.compile()


async def baselines(calls: int) -> tuple[float, float]:
    """CPU ms per call: a plain loop calling the model, and a two-node LangGraph loop."""
    model = ScriptedChatModel(script=move_one)
    start = cpu_seconds()
    for i in range(calls):
        await model.ainvoke([HumanMessage(f"move {i}?")])
    plain = (cpu_seconds() - start) / calls * 1e3
    app = two_node_loop(model)
    start = cpu_seconds()
    await app.ainvoke({"messages": [], "turns": 0, "limit": calls}, {"recursion_limit": 3 * calls})
    two_node = (cpu_seconds() - start) / calls * 1e3
    return plain, two_node


class _Match(TypedDict):
    match: int
    moves: int
    done: bool


def same_work_loop(model: ScriptedChatModel) -> tuple[Any, dict[int, GameSession]]:
    """The matches' GAMEBoT work in a minimal hand-written two-node LangGraph loop.

    ``ask`` builds the seat's GAMEBoT prompt and calls the model; ``play`` reads and
    scores the reply against the ground truth and plays its move (the first legal one if
    it has none), until the match is over or has made its ``moves``. No records, retries,
    fallbacks or usage roll-ups: the least a LangGraph program playing these matches does.

    Returns:
        The compiled loop, and the sessions it plays (one per ``match`` in its input).
    """
    sessions: dict[int, GameSession] = {}
    replies: dict[int, str] = {}

    async def ask(state: _Match, config: RunnableConfig) -> dict[str, Any]:
        session = sessions[state["match"]]
        seat = session.current_players[0]
        messages = build_gamebot_messages(session.game, session.observe(seat))
        reply, _ = await ainvoke_measured(model, messages, config)
        replies[state["match"]] = str(reply.text)
        return {}

    async def play(state: _Match) -> dict[str, Any]:
        session = sessions[state["match"]]
        read_and_play(session, session.current_players[0], replies.pop(state["match"]))
        return {"done": session.done or len(session.actions) >= state["moves"]}

    async def route(state: _Match) -> str:
        return END if state["done"] else "ask"

    builder = StateGraph(_Match)
    builder.add_node("ask", ask)
    builder.add_node("play", play)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", "play")
    builder.add_conditional_edges("play", route, ["ask", END])
    return builder.compile(), sessions


_LOOPS: dict[float, tuple[ScriptedChatModel, Any, dict[int, GameSession], Any]] = {}


async def same_work_batch(n: int, latency: float, moves: int) -> int:
    """``n`` matches at once in :func:`same_work_loop`, started as the executor starts a batch.

    The loop is compiled and the engine made once per latency, in each process, as
    :func:`inprocess` builds its player and engine.

    Returns:
        The model calls made.
    """
    if latency not in _LOOPS:
        model = ScriptedChatModel(script=first_legal_move, latency_s=latency)
        _LOOPS[latency] = model, *same_work_loop(model), make("connect4")
    model, app, sessions, game = _LOOPS[latency]
    before = len(model.calls)

    async def started(i: int) -> None:
        await asyncio.sleep(i * START_SPACING_S)
        sessions[i] = GameSession(game, seed=i)
        state: _Match = {"match": i, "moves": moves, "done": False}
        await app.ainvoke(state, {"recursion_limit": 2 * moves + 5})
        del sessions[i]

    await asyncio.gather(*(started(i) for i in range(n)))
    return len(model.calls) - before


def same_work_process(conn: Connection) -> None:
    """Play the same-work batches ``conn`` sends on one loop, as a worker process plays episodes.

    Each order is ``(n, latency, moves)``, answered with the calls made; ``None`` ends it.
    The collector is tuned after the first batch, the warm-up.
    """

    async def serve() -> None:
        loop, tuned = asyncio.get_running_loop(), False
        while (order := await loop.run_in_executor(None, conn.recv)) is not None:
            calls = await same_work_batch(*order)
            if not tuned:
                tune_worker_process()
                tuned = True
            conn.send(calls)

    run_loop(serve())


def in_this_process(
    batch: Callable[[int], Coroutine[Any, Any, int]], sizes: list[int]
) -> list[tuple[int, float, float]]:
    """Time ``batch(n)`` for each size on this process's loop, as the executor runs episodes.

    Inside ``steady_gc``, after a warm-up batch of four, as the workers are warmed up.

    Returns:
        Per size ``(calls, seconds, cpu_seconds)``.
    """
    rows = []
    with steady_gc():
        run_loop(batch(4))
        for n in sizes:
            cpu0, wall0 = cpu_seconds(), time.perf_counter()
            calls = run_loop(batch(n))
            rows.append((calls, time.perf_counter() - wall0, cpu_seconds() - cpu0))
    return rows


def same_work_under_load(
    latency: float, sizes: list[int], processes: int, moves: int
) -> list[tuple[int, float, float]]:
    """:func:`same_work_loop` under the load of each size: as many matches, the same latency.

    With one process the loops run here (inside ``steady_gc``, as the in-process mode);
    with more, in as many spawned processes, started and warmed up once, each size split
    evenly among them.

    Returns:
        Per size ``(calls, seconds, cpu_seconds)``.
    """
    if processes == 1:
        return in_this_process(partial(same_work_batch, latency=latency, moves=moves), sizes)
    rows = []
    context = multiprocessing.get_context("spawn")
    links = [context.Pipe() for _ in range(processes)]
    started = [context.Process(target=same_work_process, args=(child,)) for _, child in links]
    for process in started:
        process.start()
    try:
        for conn, _ in links:
            conn.send((4, latency, moves))
        for conn, _ in links:
            conn.recv()
        for n in sizes:
            shares = [n // processes + (i < n % processes) for i in range(processes)]
            cpu0, wall0 = cpu_seconds(), time.perf_counter()
            for (conn, _), share in zip(links, shares, strict=True):
                conn.send((share, latency, moves))
            calls = sum(conn.recv() for conn, _ in links)
            rows.append((calls, time.perf_counter() - wall0, cpu_seconds() - cpu0))
    finally:
        for conn, _ in links:
            conn.send(None)
        for process in started:
            process.join()
    return rows


def _row(
    latency: float,
    n: int,
    label: str,
    measured: tuple[int, float, float],
    two_node: float,
    loaded: tuple[int, float, float],
) -> list[object]:
    calls, elapsed, cpu = measured
    ideal = n / latency
    cpu_ms = cpu / calls * 1e3
    loaded_calls, loaded_elapsed, loaded_cpu = loaded
    return [
        f"{latency * 1e3:.0f} ms",
        n,
        label,
        calls,
        f"{elapsed:.2f}",
        f"{calls / elapsed:,.1f}",
        f"{ideal:,.1f}",
        f"{100 * calls / elapsed / ideal:.1f}%",
        f"{cpu_ms:.2f}",
        f"{cpu_ms / two_node:.2f}x",
        f"{100 * loaded_calls / loaded_elapsed / ideal:.1f}%",
        f"{(calls / elapsed) / (loaded_calls / loaded_elapsed):.3f}x",
        f"{loaded_cpu / loaded_calls * 1e3:.2f}",
        f"{cpu / calls / (loaded_cpu / loaded_calls):.2f}x",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latencies", type=float, nargs="+", default=[0.1])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64])
    modes = ["inprocess", "workers", "ray"]
    parser.add_argument("--modes", nargs="+", choices=modes, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=4, help="warm-up episodes per worker")
    parser.add_argument("--moves", type=int, default=MOVES, help=f"moves per match (1-{MAX_MOVES})")
    parser.add_argument("--baseline-calls", type=int, default=300)
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="runs of every row, each after its own run of the two-node loop (a median too)",
    )
    args = parser.parse_args()
    if not 1 <= args.moves <= MAX_MOVES:
        parser.error(f"--moves must be 1 to {MAX_MOVES}; got {args.moves}")
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1; got {args.repeats}")
    chosen = args.modes or [m for m in modes if m != "ray" or have_ray()]
    plain, two_node = run_loop(baselines(args.baseline_calls))
    rows, startups = [], []
    loaded: dict[tuple[float, int], list[tuple[int, float, float]]] = {}
    ratios: dict[tuple[float, int, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for latency, _ in itertools.product(args.latencies, range(args.repeats)):
            for processes in sorted({1 if m == "inprocess" else args.workers for m in chosen}):
                loaded[latency, processes] = same_work_under_load(
                    latency, args.sizes, processes, args.moves
                )
            for mode in chosen:
                if mode == "inprocess":
                    measured = in_this_process(
                        partial(inprocess, latency=latency, moves=args.moves), args.sizes
                    )
                    assert [m[0] for m in measured] == [n * args.moves for n in args.sizes]
                    label, processes = mode, 1
                else:
                    startup, measured = run_loop(
                        steady(
                            mode,
                            latency,
                            args.sizes,
                            args.workers,
                            args.warmup,
                            Path(scratch),
                            args.moves,
                        )
                    )
                    label, processes = f"{mode}={args.workers}", args.workers
                    startups.append(f"{label} at {latency * 1e3:.0f} ms: {startup:.2f} s")
                for n, row, load in zip(
                    args.sizes, measured, loaded[latency, processes], strict=True
                ):
                    rows.append(_row(latency, n, label, row, two_node, load))
                    ratios.setdefault((latency, n, label), []).append(
                        (row[0] / row[1]) / (load[0] / load[1])
                    )
    rows.sort(key=lambda r: (float(str(r[0]).split()[0]), int(str(r[1]))))
    print(
        f"Concurrent matches of {args.moves} moves against a fixed-latency scripted model "
        f"({machine()}; event loop: {loop_kind()})\n"
    )
    print(
        f"Baselines, CPU per call with an instant model: plain Python loop {plain:.2f} ms, "
        f"two-node LangGraph loop {two_node:.2f} ms\n"
    )
    if startups:
        print(
            f"Start-up, not in the rows (start the workers, warm up with {args.warmup} "
            "episodes per worker): " + "; ".join(startups) + "\n"
        )
    headers = ["latency", "N", "mode", "calls", "seconds", "calls/s", "ideal N/latency"]
    headers += ["efficiency", "CPU ms/call", "vs two-node (instant)"]
    headers += ["same work in a two-node loop: efficiency", "efficiency vs it"]
    headers += ["its CPU ms/call", "CPU vs it"]
    print(table(headers, rows))
    if args.repeats > 1:
        print(f"\nEfficiency vs the same work in a two-node loop, {args.repeats} runs alternating:")
        for (latency, n, label), got in ratios.items():
            print(
                f"  {latency * 1e3:.0f} ms, N = {n}, {label}: median "
                f"{statistics.median(got):.3f}x (range {min(got):.3f}-{max(got):.3f}x)"
            )


if __name__ == "__main__":
    main()
