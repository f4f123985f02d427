"""Client CPU per model call over HTTP, against a fake OpenAI-compatible server.

Usage: python benchmarks/http_path.py [--latency 1.0] [--matches 64] [--moves 6]
       [--prompt-tokens 600] [--completion-tokens 40] [--workers 2] [--no-ray]
       [--profile] [--split] [--repeats 3] [--paired [--pairs K ...]]

Starts an OpenAI-compatible server on 127.0.0.1 in a process of its own (it dies with this
one): ``POST /v1/chat/completions`` answers after ``--latency`` seconds with the first
legal move listed in the prompt (a GAMEBoT Connect Four prompt) and reports
``--prompt-tokens`` and ``--completion-tokens`` as the usage; ``GET /v1/models`` answers
the model check. Then measures, in the same run, the client's CPU per model call (user +
system CPU of this process and every process under it but the server, from ``/proc``):

- the ``openai`` SDK alone (``AsyncOpenAI.chat.completions.create``), ``--matches``
  callers at once, each making ``--moves`` calls one after another with the same GAMEBoT
  prompt;
- LangChain's ``ChatOpenAI`` alone (``ainvoke``), the same way;
- a hand-written two-node LangGraph loop doing the arena's work (one node asks the seat
  to move for its GAMEBoT decision, the next reads, scores and plays it; no records,
  metrics, rate limiter or retries): the least LangGraph can do per call;
- with ``--split``, two rows between those two: the two-node loop asking our GAMEBoT
  player (its usage accounting, limiter and retry loop) instead of the model, and
  ``run_episode`` alone with those players (the episode loop, without the arena's jobs,
  records and results file), so the difference between the loop and ``run_arena`` is
  split into the player, the episode loop and the arena;
- ``run_arena`` in one process: Connect Four matches between two GAMEBoT players on the
  server's model, ``--moves`` moves each, ``--matches`` at once;
- the same matches on ``--workers`` worker processes, and on ``--workers`` Ray actors when
  Ray is installed (``--no-ray`` leaves them out): the executor's worker pool, which
  ``run_arena --workers`` uses, started once and warmed up (its start-up is printed
  apart), this process dispatching the matches and writing their records.

Every figure is the steady state. The server samples the client's CPU with its count of
completed calls every 50 ms, and a figure is the CPU between 20% and 80% of a run's calls
over the calls between them: imports, the first connections and the last records fall
outside. A run makes ``4 x --matches`` callers' or matches' worth of calls, so matches end
and new ones start inside the window. Every path is warmed up first. In each of
``--repeats`` rounds every row but Ray's is measured once, one after the other (the worker
pool is started before the first round and idles, costing nothing, while the others run);
Ray's rounds come last, as a local Ray cluster burns CPU while it is up. The table gives
each row's median and range, as a ratio to ChatOpenAI's median and, for the pools, to
the median of ``run_arena`` in one process; below it, the median and range of ratios
between rows of the same round. On a busy machine a single figure moves by tens of
percent. ``--profile`` runs the in-process arena once more under cProfile and prints where
its time goes.

``--paired`` measures pairs of rows at the same time instead: each side in a process of its
own with a server of its own, the two starting each of ``--repeats`` rounds together, so
that both see the machine as it is at that moment (a virtual machine's speed drifts from
minute to minute, and rows measured one after the other drift apart with it). It prints
the ratio of each round and their median: ``ChatOpenAI`` against itself (the spread of the
method), the two-node loop and ``run_arena`` against ``ChatOpenAI``, ``run_arena`` against
the two-node loop, and the worker pool (started and warmed up before the first round)
against ``run_arena`` in one process. ``--pairs K ...`` measures only those pairs (by their
place in that list, from 1).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import cProfile
import json
import multiprocessing
import multiprocessing.connection
import os
import pstats
import re
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table, tree_cpu
from _work import ask_play_loop, read_and_play
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.eval.running.workers_ray import have_ray
from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.graphs.gamebot.graph import build_gamebot_messages

_LEGAL = re.compile(r"moves: \[(.*?)\]")
SAMPLE_EVERY_S = 0.05
WINDOW = (0.2, 0.8)
"""The share of a run's calls between which its CPU is taken."""
WAVES = 4
"""A run plays this many times its concurrency: matches end and start inside the window."""
ONE = "run_arena, one process"
TWO_NODE = "two-node LangGraph loop"
TWO_NODE_PLAYER = "two-node loop asking our GAMEBoT player"
EPISODES = "run_episode alone"
POOL = "the worker pool (--workers)"


# the server ------------------------------------------------------------------------------
def _reply(body: dict[str, Any], completion_tokens: int, prompt_tokens: int) -> bytes:
    prompt = str(body["messages"][-1].get("content") or "")
    found = _LEGAL.findall(prompt)
    legal = re.findall(r"'([^']+)'", found[-1]) if found else ["1"]
    text = (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
    ).encode()


async def _serve(port_out: Any, latency: float, prompt_tokens: int, completion: int) -> None:
    served = 0  # completions answered
    samples: collections.deque[tuple[int, float]] = collections.deque(maxlen=100_000)
    client = os.getppid()

    async def sample() -> None:
        # the client's CPU, read here so that reading it costs the client nothing
        while True:
            samples.append((served, tree_cpu(client, os.getpid())))
            await asyncio.sleep(SAMPLE_EVERY_S)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal served
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                body = await reader.readexactly(length) if length else b""
                if method == "GET" and path.rstrip("/").endswith("/models"):
                    payload = b'{"object": "list", "data": [{"id": "fake", "object": "model"}]}'
                elif method == "GET" and path.endswith("/bench/samples"):
                    payload = json.dumps([served, list(samples)]).encode()
                else:
                    await asyncio.sleep(latency)
                    payload = _reply(json.loads(body), completion, prompt_tokens)
                    served += 1
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(payload)}\r\n\r\n".encode()
                    + payload
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=4096)
    sampler = asyncio.create_task(sample())
    port_out.send(server.sockets[0].getsockname()[1])
    parent = os.getppid()
    while os.getppid() == parent:  # the parent is gone: so is the server
        await asyncio.sleep(0.5)
    sampler.cancel()


def _die_with_parent() -> None:
    """Have the kernel kill this process when its parent ends, even when it is killed."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _server_main(port_out: Any, latency: float, prompt_tokens: int, completion: int) -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    run_loop(_serve(port_out, latency, prompt_tokens, completion))


def start_server(
    latency: float, prompt_tokens: int, completion: int
) -> tuple[multiprocessing.Process, int]:
    """The fake server's process and port."""
    here, there = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.get_context("spawn").Process(
        target=_server_main, args=(there, latency, prompt_tokens, completion), daemon=True
    )
    process.start()
    return process, int(here.recv())


# measuring ---------------------------------------------------------------------------------
def _samples(url: str) -> tuple[int, list[tuple[int, float]]]:
    """The server's completions so far and its samples of ``(completions, client CPU)``."""
    with urllib.request.urlopen(url.rsplit("/v1", 1)[0] + "/bench/samples") as answer:
        served, samples = json.loads(answer.read())
    return served, [(int(count), float(cpu)) for count, cpu in samples]


async def windowed(run: Callable[[], Awaitable[int]], url: str) -> float:
    """Client CPU ms per call over the middle of ``run()`` (which returns its calls).

    The server samples the client's CPU (this process and everything under it) and its
    own completions every ``SAMPLE_EVERY_S``; the figure is the CPU between the samples
    at ``WINDOW`` of the run's calls over the calls between them. Starting and ending
    (imports, graphs, the first connections, the last records) fall outside it.
    """
    before, _ = await asyncio.to_thread(_samples, url)
    calls = await run()
    _, samples = await asyncio.to_thread(_samples, url)
    low, high = (before + share * calls for share in WINDOW)
    inside = [(count, cpu) for count, cpu in samples if low <= count <= high]
    if len(inside) < 2 or inside[-1][0] == inside[0][0]:
        raise RuntimeError(f"too few samples inside the window ({len(inside)}): a longer run")
    (first, cpu_first), (last, cpu_last) = inside[0], inside[-1]
    return 1000 * (cpu_last - cpu_first) / (last - first)


def gamebot_prompt() -> list[dict[str, str]]:
    """A GAMEBoT Connect Four prompt as OpenAI messages (what the arena sends first)."""
    session = GameSession("connect4", seed=0)
    messages = build_gamebot_messages(session.game, session.observe(0))
    roles = {"system": "system", "human": "user", "ai": "assistant"}
    return [{"role": roles[m.type], "content": m.text} for m in messages]


async def callers(call: Callable[[], Awaitable[Any]], n: int, moves: int) -> int:
    """``n`` callers at once, each making ``moves`` calls one after another."""

    async def one() -> None:
        for _ in range(moves):
            await call()

    await asyncio.gather(*(one() for _ in range(n)))
    return n * moves


async def sdk_alone(url: str, n: int, moves: int) -> Callable[[], Awaitable[float]]:
    """A measurement of the ``openai`` SDK alone (warmed up: imports, connections)."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=url, api_key="unused", max_retries=0)
    messages: Any = gamebot_prompt()

    async def call() -> None:
        await client.chat.completions.create(model="fake", messages=messages, temperature=0)

    await callers(call, n, 1)  # warm-up: imports, connections
    return lambda: windowed(lambda: callers(call, n, WAVES * moves), url)


async def chatopenai_alone(url: str, n: int, moves: int) -> Callable[[], Awaitable[float]]:
    """A measurement of LangChain's ``ChatOpenAI`` alone (warmed up)."""
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="fake", base_url=url, api_key="unused", max_retries=0, temperature=0)
    messages = [(m["role"], m["content"]) for m in gamebot_prompt()]

    async def call() -> None:
        await model.ainvoke(messages)

    await callers(call, n, 1)
    return lambda: windowed(lambda: callers(call, n, WAVES * moves), url)


class _Loop(TypedDict, total=False):
    match: int
    done: bool


def _at_once(n: int, play: Callable[[int], Awaitable[int]]) -> Callable[[int], Awaitable[int]]:
    """``run(matches)``: ``play(match)`` for that many new matches, ``n`` at once."""
    runs = iter(range(0, 10**9, 10**6))

    async def run(matches: int) -> int:
        start, at_once = next(runs), asyncio.Semaphore(n)

        async def one(match: int) -> int:
            async with at_once:
                return await play(match)

        return sum(await asyncio.gather(*(one(start + i) for i in range(matches))))

    return run


def _gamebot_players(url: str) -> list[Any]:
    """The arena's two GAMEBoT players on the server's model, built as the arena builds them."""
    from langgraph_games.graphs import gamebot_player
    from langgraph_games.models import load_chat_model

    return [gamebot_player(load_chat_model(f"openai:{name}@{url}"), "connect4") for name in "ab"]


def two_node_runner(
    url: str, n: int, moves: int, *, player: bool = False
) -> Callable[[int], Awaitable[int]]:
    """``run(matches)``: the least LangGraph can do for the arena's work, ``n`` at once.

    A hand-written two-node graph per match: one node builds the GAMEBoT prompt of the
    seat to move and asks that seat's ``ChatOpenAI`` (passing the node's config on, as
    every model call of ours does), the next reads and scores the reply and plays the
    move; ``moves`` calls a match. No records, metrics, rate limiter or retries. With
    ``player``, the first node asks the arena's GAMEBoT player instead (the same prompt,
    reading and scoring, with its usage accounting, limiter and retry loop), and the
    second plays its move: the episode loop is then all that separates it from
    ``run_episode``.
    """
    from langchain_core.runnables import RunnableConfig
    from langchain_openai import ChatOpenAI

    from langgraph_games.players import request_for

    players = _gamebot_players(url) if player else []
    settings: dict[str, Any] = {"base_url": url, "api_key": "unused", "max_retries": 0}
    seats = [] if player else [ChatOpenAI(model=name, **settings) for name in "ab"]
    sessions: dict[int, GameSession] = {}
    replies: dict[int, Any] = {}

    async def ask(state: _Loop, config: RunnableConfig) -> dict[str, Any]:
        session = sessions[state["match"]]
        seat = session.current_players[0]
        if player:
            replies[state["match"]] = await players[seat].adecide(request_for(session, seat))
            return {}
        messages = build_gamebot_messages(session.game, session.observe(seat))
        reply = await seats[seat].ainvoke(messages, config)
        replies[state["match"]] = str(reply.text)
        return {}

    async def play(state: _Loop) -> dict[str, Any]:
        session = sessions[state["match"]]
        seat = session.current_players[0]
        reply = replies.pop(state["match"])
        if not player:
            read_and_play(session, seat, reply)
        else:
            action = reply.action
            if action is None or not session.game.is_legal(session.state, seat, action):
                action = session.legal_actions(seat)[0]
            session.step(action, seat)
        return {"done": session.done or len(session.actions) >= moves}

    graph = ask_play_loop(_Loop, ask, play)

    async def play_match(match: int) -> int:
        sessions[match] = GameSession("connect4", seed=match)
        await graph.ainvoke({"match": match}, {"recursion_limit": 4 * moves + 8})
        return len(sessions.pop(match).actions)

    return _at_once(n, play_match)


def episode_runner(url: str, n: int, moves: int) -> Callable[[int], Awaitable[int]]:
    """``run(matches)``: ``run_episode`` with the arena's players, ``n`` at once.

    The arena's episodes without the arena around them (no jobs, records or results file).
    """
    from langgraph_games.graphs import run_episode

    players = _gamebot_players(url)
    options = EpisodeOptions(max_retries=0, max_steps=moves)

    async def play_match(match: int) -> int:
        out = await run_episode("connect4", players, seed=match, options=options)
        return int(out["result"]["steps"])

    return _at_once(n, play_match)


def arena_runner(url: str, n: int, moves: int, folder: Path) -> Callable[[int], Awaitable[int]]:
    """``run(matches)``: one ``run_arena`` in this process, ``n`` matches in flight."""
    from langgraph_games.eval.running.arena import ArenaSpec, run_arena

    runs = iter(range(10**6))

    async def run(matches: int) -> int:
        spec = ArenaSpec(
            game="connect4",
            players=[f"gamebot:openai:a@{url}", f"gamebot:openai:b@{url}"],
            matches=matches,
            seed=(turn := next(runs)) * 10_000,
            baseline=False,
            concurrency=n,
            workers=1,
            episode=EpisodeOptions(max_retries=0, max_steps=moves),
        )
        report = await run_arena(spec, folder / f"arena-{turn}", progress=False)
        assert report.played == matches and not report.errors, report
        return matches * moves

    return run


@contextlib.asynccontextmanager
async def pool_runner(
    url: str, n: int, moves: int, workers: int, executor: str, folder: Path, warmup: int
) -> AsyncIterator[Callable[[int], Awaitable[int]]]:
    """The executor's worker pool (as ``run_arena --workers``), started once and warmed up.

    Yields ``run(matches)``: plays that many matches on it, ``n`` in flight (their records
    appended to a results file by this process, the one writer); returns the calls made.
    """
    from langgraph_games.eval.running.executor import Job
    from langgraph_games.eval.running.players import ModelPool, resolve
    from langgraph_games.eval.running.records import PlayedRecord
    from langgraph_games.eval.running.results import ResultsFile
    from langgraph_games.eval.running.workers import prepare
    from langgraph_games.eval.running.workers_dispatch import WorkerPool, make_backend
    from langgraph_games.games import make

    models = ModelPool()
    seats = [resolve(f"gamebot:openai:{name}@{url}", models) for name in "ab"]
    game = make("connect4")
    fields: dict[str, Any] = {"base": {"kind": "match", "spec_hash": "bench"}, "progress": False}
    fields["options"] = EpisodeOptions(max_retries=0, max_steps=moves)
    results = ResultsFile(folder / f"{executor}-{workers}.jsonl")
    first = iter(range(0, 10**9, 10**6))

    def jobs(n: int) -> list[Any]:
        start = next(first)
        return [
            Job(f"m{i}", seats, i, {"match_id": f"m{i}"}, game) for i in range(start, start + n)
        ]

    def deliver(came: list[tuple[int, PlayedRecord]]) -> None:
        records = [record for _, record in came]
        assert all(r["status"] != "error" for r in records), [r.get("error") for r in records]
        results.extend(records)

    # as many jobs as slots: prepare starts no more slots than it has jobs
    setup, _, count = prepare(jobs(workers), slots=workers, setup_fields=fields, pool=models)
    assert count == workers, f"the pool would start {count} of {workers} workers"
    backend = make_backend(executor)
    backend.cores()
    async with WorkerPool(backend, setup, count, concurrency=n) as pool:

        async def run(n: int) -> int:
            _, tasks, _ = prepare(jobs(n), slots=workers, setup_fields=fields, pool=models)
            await pool.run(tasks, deliver, lambda _: None)
            return n * moves

        await run(warmup * count)
        yield run


async def main_async(args: argparse.Namespace) -> None:
    server, port = start_server(args.latency, args.prompt_tokens, args.completion_tokens)
    url = f"http://127.0.0.1:{port}/v1"
    n, moves, rounds = args.matches, args.moves, args.repeats
    print(f"{machine()}, event loop: {loop_kind()}")
    print(
        f"fake server: {args.latency} s per call, {args.prompt_tokens} + "
        f"{args.completion_tokens} tokens; {n} callers or matches at once, {moves} calls each; "
        f"{rounds} round(s)\n"
    )
    figures: dict[str, list[float]] = {}
    notes: dict[str, str] = {}
    ratios: dict[str, list[float]] = {}  # each measured within one round

    def got(name: str, ms: float, note: str = "") -> float:
        figures.setdefault(name, []).append(ms)
        print(f"{name}: {ms:.2f} ms {note}".rstrip(), flush=True)
        return ms

    workers_row = f"{args.workers} worker processes"
    try:
        with tempfile.TemporaryDirectory() as folder:
            sdk = await sdk_alone(url, n, moves)
            chat = await chatopenai_alone(url, n, moves)
            loop = two_node_runner(url, n, moves)
            here = arena_runner(url, n, moves, Path(folder))
            split = (
                {
                    TWO_NODE_PLAYER: two_node_runner(url, n, moves, player=True),
                    EPISODES: episode_runner(url, n, moves),
                }
                if args.split
                else {}
            )
            for warm in (loop, here, *split.values()):
                await warm(n)  # warm-up: imports, connections
            async with contextlib.AsyncExitStack() as stack:
                started = time.perf_counter()
                local = await stack.enter_async_context(
                    pool_runner(url, n, moves, args.workers, "local", Path(folder), 4)
                )
                notes[workers_row] = f"start-up {time.perf_counter() - started:.1f} s, apart"
                for turn in range(rounds):
                    note = f"(round {turn + 1} of {rounds})"
                    got("openai SDK alone", await sdk(), note)
                    base = got("ChatOpenAI alone", await chat(), note)
                    two = got(TWO_NODE, await windowed(lambda: loop(WAVES * n), url), note)
                    for name, runner in split.items():
                        ms = got(name, await windowed(partial(runner, WAVES * n), url), note)
                        ratios.setdefault(f"{name} / {TWO_NODE}", []).append(ms / two)
                    one = got(ONE, await windowed(lambda: here(WAVES * n), url), note)
                    pool = got(workers_row, await windowed(lambda: local(WAVES * n), url), note)
                    ratios.setdefault(f"{ONE} / ChatOpenAI alone", []).append(one / base)
                    ratios.setdefault(f"{ONE} / {TWO_NODE}", []).append(one / two)
                    ratios.setdefault(f"{TWO_NODE} / ChatOpenAI alone", []).append(two / base)
                    ratios.setdefault(f"{workers_row} / {ONE}", []).append(pool / one)
            skipped = "left out (--no-ray)" if args.no_ray else None
            if not args.no_ray and not have_ray():
                skipped = "Ray is not installed"
            ray_row = f"{args.workers} Ray actors"
            if skipped is None:  # after the rest: a local Ray cluster burns CPU while it is up
                started = time.perf_counter()
                async with pool_runner(
                    url, n, moves, args.workers, "ray", Path(folder), 4
                ) as ray_pool:
                    notes[ray_row] = f"start-up {time.perf_counter() - started:.1f} s, apart"
                    for turn in range(rounds):
                        ms = await windowed(lambda: ray_pool(WAVES * n), url)
                        got(ray_row, ms, f"(round {turn + 1} of {rounds})")
            else:
                notes[ray_row] = skipped
            if args.profile:
                profiler = cProfile.Profile()
                profiler.enable()
                await here(n)
                profiler.disable()
                stats = pstats.Stats(profiler)
                stats.sort_stats("tottime").print_stats(30)
    finally:
        server.kill()
    medians = {name: statistics.median(values) for name, values in figures.items()}
    base, one = medians["ChatOpenAI alone"], medians[ONE]
    rows = []
    for name in [*figures, *(name for name in notes if name not in figures)]:
        values = figures.get(name)
        if not values:
            rows.append((name, "-", "-", "", "", notes.get(name, "")))
            continue
        spread = f"{min(values):.2f}-{max(values):.2f}" if len(values) > 1 else ""
        pool = "worker" in name or "Ray" in name
        rows.append(
            (
                name,
                f"{medians[name]:.2f}",
                spread,
                f"{medians[name] / base:.2f}x",
                f"{medians[name] / one:.2f}x" if pool else "",
                notes.get(name, ""),
            )
        )
    print()
    print(
        table(
            ["path", "client CPU ms/call (median)", "range", "vs ChatOpenAI", "vs one process", ""],
            rows,
        )
    )
    print(f"\nratios of two rows measured one after the other in the same round ({rounds}):")
    for name, values in ratios.items():
        print(
            f"  {name}: median {statistics.median(values):.2f}x "
            f"(range {min(values):.2f}-{max(values):.2f}x)"
        )


PAIRS = [
    ("ChatOpenAI alone", "ChatOpenAI alone"),
    ("ChatOpenAI alone", TWO_NODE),
    ("ChatOpenAI alone", ONE),
    (TWO_NODE, ONE),
    (ONE, POOL),
]
"""The ``--paired`` measurements: the first row is the baseline (the same row twice: the
spread of the method itself)."""


@contextlib.asynccontextmanager
async def _row_measure(
    row: str, url: str, args: argparse.Namespace, folder: Path
) -> AsyncIterator[Callable[[], Awaitable[float]]]:
    """One row's measurement (warmed up; a worker pool started), for a ``--paired`` child."""
    n, moves = args.matches, args.moves
    if row == "ChatOpenAI alone":
        yield await chatopenai_alone(url, n, moves)
        return
    if row == POOL:
        async with pool_runner(url, n, moves, args.workers, "local", folder, 4) as pool:
            yield lambda: windowed(lambda: pool(WAVES * n), url)
        return
    runners = {
        TWO_NODE: lambda: two_node_runner(url, n, moves),
        ONE: lambda: arena_runner(url, n, moves, folder),
        EPISODES: lambda: episode_runner(url, n, moves),
    }
    runner = runners[row]()
    await runner(n)
    yield lambda: windowed(lambda: runner(WAVES * n), url)


def _paired_child(row: str, args: argparse.Namespace, together: Any, out: Any) -> None:
    """A ``--paired`` side: its own server, then ``--repeats`` rounds in step with the other."""
    _die_with_parent()

    async def measure() -> list[float]:
        server, port = start_server(args.latency, args.prompt_tokens, args.completion_tokens)
        try:
            with tempfile.TemporaryDirectory() as folder:
                url = f"http://127.0.0.1:{port}/v1"
                figures = []
                async with _row_measure(row, url, args, Path(folder)) as run:
                    for _ in range(args.repeats):
                        await asyncio.to_thread(together.wait)  # both sides start the round
                        figures.append(await run())
                return figures
        finally:
            server.kill()

    with steady_gc():
        out.send(run_loop(measure()))


def _figures(pipe: Any, side: multiprocessing.process.BaseProcess) -> list[float]:
    """What a ``--paired`` side sends, or an error naming it when it ended without."""
    multiprocessing.connection.wait([pipe, side.sentinel])
    if not pipe.poll():
        raise RuntimeError(f"a --paired side ended with code {side.exitcode} (see above)")
    figures: list[float] = pipe.recv()
    return figures


def paired(args: argparse.Namespace) -> None:
    """Each pair of :data:`PAIRS` measured at the same time, in two processes."""
    print(f"{machine()}, event loop: {loop_kind()}")
    print(
        f"fake server per side: {args.latency} s per call; {args.matches} callers or matches "
        f"at once, {args.moves} calls each; {args.repeats} round(s) per pair, both sides at "
        "the same time\n"
    )
    spawn = multiprocessing.get_context("spawn")
    rows = []
    for base, other in [PAIRS[i - 1] for i in args.pairs] if args.pairs else PAIRS:
        together = spawn.Barrier(2)
        pipes = [spawn.Pipe(duplex=False) for _ in range(2)]
        # not daemons (each starts its server), but each dies with this process
        sides = [
            spawn.Process(target=_paired_child, args=(row, args, together, pipe[1]))
            for row, pipe in zip((base, other), pipes, strict=True)
        ]
        for side in sides:
            side.start()
        try:
            first, second = (
                _figures(pipe[0], side) for pipe, side in zip(pipes, sides, strict=True)
            )
        finally:
            for side in sides:
                side.kill()
                side.join()
        ratios = sorted(b / a for a, b in zip(first, second, strict=True))
        print(f"{other} / {base}: " + ", ".join(f"{r:.3f}" for r in ratios), flush=True)
        rows.append(
            (
                f"{other} / {base}",
                f"{statistics.median(ratios):.3f}x",
                f"{ratios[0]:.3f}-{ratios[-1]:.3f}x",
                f"{statistics.median(first):.2f} / {statistics.median(second):.2f}",
            )
        )
    print()
    print(table(["pair (measured at the same time)", "median", "range", "ms/call (medians)"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--prompt-tokens", type=int, default=600)
    parser.add_argument("--completion-tokens", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--split",
        action="store_true",
        help="also measure the two-node loop asking our player, and run_episode alone",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="rounds: each measures every in-process row, then each pool that many times",
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="measure pairs of rows at the same time, each in its own process with its "
        "own server, and print their ratios",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        nargs="+",
        metavar="K",
        help=f"with --paired, only these pairs (1-{len(PAIRS)}, in the order listed above)",
    )
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1; got {args.repeats}")
    if args.pairs and not all(1 <= k <= len(PAIRS) for k in args.pairs):
        parser.error(f"--pairs takes numbers from 1 to {len(PAIRS)}; got {args.pairs}")
    if args.paired:
        with contextlib.suppress(KeyboardInterrupt):
            paired(args)
        return
    with steady_gc(), contextlib.suppress(KeyboardInterrupt):
        run_loop(main_async(args))


if __name__ == "__main__":
    main()
