"""Client CPU per model call over HTTP, against a fake OpenAI-compatible server.

Usage: python benchmarks/http_path.py [--latency 1.0] [--matches 64] [--moves 6]
       [--prompt-tokens 600] [--completion-tokens 40] [--workers 2] [--no-ray]
       [--profile] [--repeats 1]

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
- ``run_arena`` in one process: ``--matches`` Connect Four matches between two GAMEBoT
  players on the server's model, ``--moves`` moves each, all at once;
- the same matches on ``--workers`` worker processes, and on ``--workers`` Ray actors when
  Ray is installed (``--no-ray`` leaves them out): the executor's worker pool, which
  ``run_arena --workers`` uses, started once and warmed up (its start-up is printed
  apart), this process dispatching the matches and writing their records.

Every figure is the steady state: a batch of ``--matches`` and one of twice as many are
run, and the CPU and calls of the first are taken from the second's, so what a batch or a
run costs once (imports, the model check, opening connections) cancels out. The SDK and
ChatOpenAI rows come after a warm-up batch. The table gives each row as a ratio to
ChatOpenAI's (the median of its runs). ``--repeats R`` measures ChatOpenAI alone and
``run_arena`` in one process R times, one right after the other, and prints the median
of their ratios: on a busy machine a single pair moves by tens of percent. ``--profile``
runs the in-process arena once more under cProfile and prints where its time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import multiprocessing
import os
import pstats
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from concurrency import cpu_seconds
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.eval.running.workers_ray import have_ray
from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.graphs.gamebot.graph import build_gamebot_messages

_LEGAL = re.compile(r"moves: \[(.*?)\]")


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
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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
                else:
                    await asyncio.sleep(latency)
                    payload = _reply(json.loads(body), completion, prompt_tokens)
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
    port_out.send(server.sockets[0].getsockname()[1])
    parent = os.getppid()
    while os.getppid() == parent:  # the parent is gone: so is the server
        await asyncio.sleep(0.5)


def _server_main(port_out: Any, latency: float, prompt_tokens: int, completion: int) -> None:
    if sys.platform == "linux":  # killed with the parent, even when it is killed
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
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
def client_cpu(server_pid: int) -> float:
    """CPU seconds of this process and every live process under it, except the server."""
    with open(f"/proc/{server_pid}/stat", encoding="ascii", errors="replace") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    server = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return cpu_seconds() - server


async def steady(run: Callable[[int], Awaitable[int]], n: int, server_pid: int) -> float:
    """CPU ms per call of ``run(2n)`` beyond ``run(n)`` (``run`` returns its calls)."""
    figures = []
    for size in (n, 2 * n):
        cpu = client_cpu(server_pid)
        calls = await run(size)
        figures.append((client_cpu(server_pid) - cpu, calls))
    (cpu_n, calls_n), (cpu_2n, calls_2n) = figures
    return 1000 * (cpu_2n - cpu_n) / (calls_2n - calls_n)


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


async def sdk_alone(url: str, n: int, moves: int, pid: int) -> float:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=url, api_key="unused", max_retries=0)
    messages: Any = gamebot_prompt()

    async def call() -> None:
        await client.chat.completions.create(model="fake", messages=messages, temperature=0)

    await callers(call, n, 1)  # warm-up: connections, imports
    return await steady(lambda size: callers(call, size, moves), n, pid)


async def chatopenai_alone(url: str, n: int, moves: int, pid: int) -> float:
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="fake", base_url=url, api_key="unused", max_retries=0, temperature=0)
    messages = [(m["role"], m["content"]) for m in gamebot_prompt()]

    async def call() -> None:
        await model.ainvoke(messages)

    await callers(call, n, 1)
    return await steady(lambda size: callers(call, size, moves), n, pid)


def arena_runner(
    url: str, moves: int, workers: int, executor: str, folder: Path
) -> Callable[[int], Awaitable[int]]:
    from langgraph_games.eval.running.arena import ArenaSpec, run_arena

    runs = iter(range(10**6))

    async def run(size: int) -> int:
        spec = ArenaSpec(
            game="connect4",
            players=[f"gamebot:openai:a@{url}", f"gamebot:openai:b@{url}"],
            matches=size,
            seed=next(runs) * 10_000,
            baseline=False,
            concurrency=size,
            workers=workers,
            executor=executor,  # type: ignore[arg-type]
            episode=EpisodeOptions(max_retries=0, max_steps=moves),
        )
        report = await run_arena(spec, folder / f"{executor}-{workers}-{size}", progress=False)
        assert report.played == size and not report.errors, report
        return size * moves

    return run


@contextlib.asynccontextmanager
async def pool_runner(
    url: str, moves: int, workers: int, executor: str, folder: Path, warmup: int
) -> AsyncIterator[Callable[[int], Awaitable[int]]]:
    """The executor's worker pool (as ``run_arena --workers``), started once and warmed up.

    Yields a function that plays a batch of matches on it (their records appended to a
    results file by this process, the one writer) and returns the calls made.
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

    setup, _, count = prepare(jobs(1), slots=workers, setup_fields=fields, pool=models)
    backend = make_backend(executor)
    backend.cores()
    async with WorkerPool(backend, setup, count, concurrency=10**4) as pool:

        async def run(n: int) -> int:
            _, tasks, _ = prepare(jobs(n), slots=workers, setup_fields=fields, pool=models)
            await pool.run(tasks, deliver, lambda _: None)
            return n * moves

        await run(warmup * count)
        yield run


async def main_async(args: argparse.Namespace) -> None:
    server, port = start_server(args.latency, args.prompt_tokens, args.completion_tokens)
    url = f"http://127.0.0.1:{port}/v1"
    n, moves = args.matches, args.moves
    print(f"{machine()}, event loop: {loop_kind()}")
    print(
        f"fake server: {args.latency} s per call, {args.prompt_tokens} + "
        f"{args.completion_tokens} tokens; {n} callers or matches at once, {moves} calls each\n"
    )
    rows: list[tuple[str, float | None, str]] = []
    pairs: list[float] = []  # run_arena / ChatOpenAI, each pair measured one after the other

    def row(name: str, ms: float | None, note: str = "") -> None:
        rows.append((name, ms, note))
        print(name, "-" if ms is None else f"{ms:.2f} ms", note, flush=True)

    try:
        with tempfile.TemporaryDirectory() as folder:
            row("openai SDK alone", await sdk_alone(url, n, moves, server.pid or 0))
            here = arena_runner(url, moves, 1, "local", Path(folder))
            for run in range(args.repeats):
                note = f"run {run + 1} of {args.repeats}" if args.repeats > 1 else ""
                chat = await chatopenai_alone(url, n, moves, server.pid or 0)
                row("ChatOpenAI alone", chat, note)
                arena = await steady(here, n, server.pid or 0)
                row("run_arena, one process", arena, note)
                pairs.append(arena / chat)
            pid = server.pid or 0
            kinds = [("local", f"{args.workers} worker processes")]
            skipped = "left out (--no-ray)" if args.no_ray else None
            if not args.no_ray and not have_ray():
                skipped = "Ray is not installed"
            if skipped is None:
                kinds.append(("ray", f"{args.workers} Ray actors"))
            for kind, name in kinds:
                started = time.perf_counter()
                async with pool_runner(url, moves, args.workers, kind, Path(folder), 4) as pool:
                    note = f"start-up {time.perf_counter() - started:.1f} s, apart"
                    row(name, await steady(pool, n, pid), note)
            if skipped is not None:
                row(f"{args.workers} Ray actors", None, skipped)
            if args.profile:
                profiler = cProfile.Profile()
                profiler.enable()
                await here(n)
                profiler.disable()
                stats = pstats.Stats(profiler)
                stats.sort_stats("tottime").print_stats(30)
    finally:
        server.kill()
    base = statistics.median(ms for name, ms, _ in rows if name == "ChatOpenAI alone" and ms)
    print()
    print(
        table(
            ["path", "client CPU ms/call", "vs ChatOpenAI", ""],
            [
                (
                    name,
                    "-" if ms is None else f"{ms:.2f}",
                    "" if ms is None else f"{ms / base:.2f}x",
                    note,
                )
                for name, ms, note in rows
            ],
        )
    )
    if len(pairs) > 1:
        print(
            f"\nrun_arena in one process / ChatOpenAI alone, {len(pairs)} pairs: median "
            f"{statistics.median(pairs):.2f}x (range {min(pairs):.2f}-{max(pairs):.2f}x)"
        )


def _ms(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:.2f}"


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
        "--repeats",
        type=int,
        default=1,
        help="pairs of ChatOpenAI alone and run_arena in one process, one after the other",
    )
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1; got {args.repeats}")
    with steady_gc(), contextlib.suppress(KeyboardInterrupt):
        run_loop(main_async(args))


if __name__ == "__main__":
    main()
