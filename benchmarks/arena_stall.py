"""The longest event-loop stall while arena matches play against a faulty model.

Usage: python benchmarks/arena_stall.py [--matches 8] [--games connect4 othello texas_holdem]
       [--runs 5] [--sizes-kb 1000 5000]

N matches run at once through the arena's executor (``run_jobs``: players built from
specs, episodes, records appended to a results file), every seat played by the GAMEBoT
agent on a model that misbehaves: of its calls, 30% time out (after a short wait), 10%
fail with a server error, 10% return nothing, 15% return a hostile reply and the rest
play the first legal move. Hostile replies are made before the run: enormous ones (1 to
5 MB of digits, brackets, tags and words: over the reply cap, so never read) and the
worst shapes of the reader fuzz suite cut just under the cap (200,000 characters:
read whole). A heartbeat task on the same loop sleeps 5 ms at a time and times each
sleep: what it oversleeps is a stall, time during which no other match could make
progress. Each game is run ``--runs`` times with different seeds; the figures are the
longest stall, the 99th percentile and how many stalls exceeded 100 ms, per run and the
worst over the runs, next to the baseline of the same runs with the hostile replies
replaced by valid ones.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from _common import machine, percentile, table
from fuzz.replies import LARGE
from langgraph_games.eval.running.executor import Job, run_jobs
from langgraph_games.eval.running.players import ModelPool, resolve
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.models.messages import MAX_REPLY_CHARS

_LEGAL = re.compile(r"moves: \[(.*?)\]")
_PIECES = (
    "9" * 997,
    "[" * 64,
    "]" * 16,
    "[Intermediate Thinking Results 1: ",
    "Chosen Move: ",
    "(3,3) ",
    "the quick brown fox ",
    "\n",
)


def enormous_reply(rng: random.Random, size: int) -> str:
    """``size`` characters of pieces that readers must scan: digit runs, brackets, tags."""
    parts: list[str] = []
    total = 0
    while total < size:
        piece = rng.choice(_PIECES)
        parts.append(piece)
        total += len(piece)
    return "".join(parts)[:size]


def legal_answer(messages: Sequence[BaseMessage]) -> str:
    """Both subproblems answered None and the first legal move listed in the prompt."""
    found = _LEGAL.findall(messages[-1].text)
    legal = re.findall(r"'([^']+)'", found[-1]) if found else ["(0,0)"]
    return (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )


class InternalServerError(Exception):
    """What an endpoint's client raises on a 500 (a transient error: the call is retried)."""


class FaultyModel(BaseChatModel):
    """A chat model that times out, fails, answers nothing or floods, by a seeded draw."""

    seed: int = 0
    latency_s: float = 0.02
    calls: int = 0
    # Private: LangChain serialises a model's fields on every call (for tracing).
    _enormous: list[str] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "faulty"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        raise NotImplementedError("async only")

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        self.calls += 1
        rng = random.Random(f"{self.seed}-{self.calls}")
        draw = rng.random()
        await asyncio.sleep(self.latency_s)
        if draw < 0.30:
            await asyncio.sleep(self.latency_s)
            raise TimeoutError("the endpoint did not answer in time")
        if draw < 0.40:
            raise InternalServerError("500 internal server error")
        if draw < 0.50:
            text = ""
        elif draw < 0.65 and self._enormous:
            text = rng.choice(self._enormous)
        else:
            text = legal_answer(messages)
        usage = {"input_tokens": 100, "output_tokens": len(text) // 4, "total_tokens": 0}
        message = AIMessage(content=text, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])


async def heartbeat(stalls: list[float], stop: asyncio.Event, tick_s: float = 0.005) -> None:
    """Sleep ``tick_s`` at a time and record how much longer each sleep took."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(tick_s)
        stalls.append(time.perf_counter() - start - tick_s)


async def run(game_id: str, matches: int, seed: int, enormous: list[str]) -> dict[str, float]:
    """Play ``matches`` matches at once and return the stall figures."""
    models = ModelPool()
    model = FaultyModel(seed=seed)
    model._enormous = enormous
    models.models["faulty"] = model
    game = make(game_id)
    seat = resolve("gamebot:faulty", models)
    jobs = [
        Job(job_id=str(m), seats=[seat, seat], seed=m, extra={}, game=game) for m in range(matches)
    ]
    stalls: list[float] = []
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory() as tmp:
        beat = asyncio.ensure_future(heartbeat(stalls, stop))
        start = time.perf_counter()
        played, errors = await run_jobs(
            jobs,
            base={"kind": "match"},
            results=ResultsFile(Path(tmp) / "results.jsonl"),
            options=EpisodeOptions(max_retries=1, max_steps=12),
            concurrency=matches,
            progress=False,
            total=matches,
        )
        elapsed = time.perf_counter() - start
        stop.set()
        await beat
    return {
        "played": played,
        "errors": errors,
        "seconds": elapsed,
        "max": max(stalls, default=0.0),
        "p99": percentile(stalls, 99),
        "over100": sum(s > 0.1 for s in stalls),
        "calls": models.models["faulty"].calls,  # type: ignore[attr-defined]
    }


def hostile_pool(seed: int, sizes_kb: Sequence[int]) -> list[str]:
    """The hostile replies of a run: enormous ones and the fuzz shapes just under the cap."""
    rng = random.Random(seed)
    pool = [enormous_reply(rng, kb * 1000) for kb in sizes_kb]
    return pool + [text[: MAX_REPLY_CHARS - 1] for text in LARGE.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--games", nargs="+", default=["connect4", "othello", "texas_holdem"])
    parser.add_argument("--runs", type=int, default=5, help="runs per game (seeds seed..)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sizes-kb",
        type=int,
        nargs="+",
        default=[1000, 5000],
        help="sizes of the enormous replies, in kB (default 1 and 5 MB)",
    )
    args = parser.parse_args()
    pool = hostile_pool(args.seed, args.sizes_kb)
    rows = []
    worst = {"baseline": 0.0, "hostile": 0.0}
    for game in args.games:
        for run_number in range(args.runs):
            seed = args.seed + run_number
            for label, hostile in (("baseline", []), ("hostile", pool)):
                figures = asyncio.run(run(game, args.matches, seed, hostile))
                worst[label] = max(worst[label], figures["max"])
                rows.append(
                    [
                        game,
                        seed,
                        label,
                        f"{figures['played']:.0f} ({figures['errors']:.0f} errors)",
                        f"{figures['calls']:.0f}",
                        f"{figures['seconds']:.1f}",
                        f"{1000 * figures['max']:.0f}",
                        f"{1000 * figures['p99']:.1f}",
                        f"{figures['over100']:.0f}",
                    ]
                )
    print(
        f"Event-loop stalls, {args.matches} matches at once, {args.runs} runs per game; "
        f"hostile replies: {len(pool)} ({machine()})\n"
    )
    headers = ["game", "seed", "model", "matches", "calls", "seconds", "max stall ms"]
    print(table([*headers, "p99 ms", "stalls>100ms"], rows))
    print(
        f"\nworst stall over every run: {1000 * worst['hostile']:.0f} ms with hostile replies, "
        f"{1000 * worst['baseline']:.0f} ms without"
    )


if __name__ == "__main__":
    main()
