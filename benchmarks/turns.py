"""Episodes taking turns on one event loop, against the same episodes without turns.

Usage: python benchmarks/turns.py [--sizes 32 64] [--latency 0.1] [--moves 6]
       [--repeats 10] [--spacing 0.001]

N Connect Four matches run at once in this process (both seats the GAMEBoT agent on a
scripted model of fixed latency, starts spaced as the executor spaces them), in batches
that alternate between *with turns* (each episode inside
``langgraph_games.models.turns.taking_turns``, as the executor plays them) and *without*
(the loop interleaves the decisions whose replies came together), on one warm loop, so
that both see the same machine. For each it prints the efficiency against the ideal
(moves x latency for the batch) as median and range over the repeats, the CPU per model
call, and, measured in every batch, the median and 90th percentile of the *reply wait*:
from a reply landing to its episode's next question (a decision's own CPU plus waiting
for the others). ``--spacing 0`` starts every match at once: the bunching that the
executor's start spacing works around, and that turns undo by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from _common import machine, median, percentile, table
from concurrency import first_legal_move
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.eval.running.jobs import START_SPACING_S
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.turns import taking_turns

_MATCH: contextvars.ContextVar[int] = contextvars.ContextVar("match", default=-1)
LANDED: dict[int, float] = {}  # match -> when its last reply landed
WAITS: list[float] = []  # seconds from a reply landing to the match's next question


class Stamped(ScriptedChatModel):
    """The scripted model, noting when each match's replies land and its questions go out."""

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        match, now = _MATCH.get(), time.perf_counter()
        if match in LANDED:
            WAITS.append(now - LANDED[match])
        await asyncio.sleep(self.latency_s)
        LANDED[match] = time.perf_counter()
        return self._result(messages, self._next(messages))


async def measure(
    sizes: list[int], latency: float, moves: int, repeats: int, spacing: float
) -> dict[tuple[int, bool], dict[str, list[float]]]:
    model = Stamped(script=first_legal_move, latency_s=latency)
    player = gamebot_player(model, "connect4")
    options = EpisodeOptions(max_retries=0, max_steps=moves)

    async def one(i: int, turns: bool) -> Any:
        await asyncio.sleep(i * spacing)
        _MATCH.set(i)
        if not turns:
            return await run_episode("connect4", [player, player], seed=i, options=options)
        async with taking_turns():
            return await run_episode("connect4", [player, player], seed=i, options=options)

    out: dict[tuple[int, bool], dict[str, list[float]]] = {}
    for n in sizes:
        await asyncio.gather(*(one(i, False) for i in range(n)))  # warm up
        for rep in range(repeats):
            for turns in (True, False) if rep % 2 else (False, True):
                LANDED.clear()
                WAITS.clear()
                wall0, cpu0 = time.perf_counter(), time.process_time()
                await asyncio.gather(*(one(i, turns) for i in range(n)))
                wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
                cell = out.setdefault((n, turns), {"eff": [], "cpu": [], "wait": []})
                cell["eff"].append(100 * moves * latency / wall)
                cell["cpu"].append(cpu / (n * moves) * 1e3)
                cell["wait"].extend(w * 1e3 for w in WAITS)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--spacing", type=float, default=START_SPACING_S, help="seconds")
    args = parser.parse_args()
    if args.latency <= 0:
        parser.error(f"--latency must be above 0 (the ideal divides by it); got {args.latency}")
    with steady_gc():
        out = run_loop(measure(args.sizes, args.latency, args.moves, args.repeats, args.spacing))
    rows = []
    for n in args.sizes:
        for turns in (False, True):
            cell = out[(n, turns)]
            rows.append(
                [
                    n,
                    "with turns" if turns else "without",
                    f"{median(cell['eff']):.1f}%",
                    f"{min(cell['eff']):.1f}-{max(cell['eff']):.1f}%",
                    f"{median(cell['cpu']):.2f}",
                    f"{median(cell['wait']):.2f}",
                    f"{percentile(cell['wait'], 90):.2f}",
                ]
            )
    print(
        f"{args.moves}-move matches at {args.latency * 1e3:.0f} ms, starts "
        f"{args.spacing * 1e3:g} ms apart, {args.repeats} batches each way, alternating "
        f"({machine()}; event loop: {loop_kind()})\n"
    )
    headers = ["N", "episodes", "efficiency (median)", "range", "CPU ms/call"]
    headers += ["reply wait ms (median)", "p90"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
