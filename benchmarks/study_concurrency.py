"""The study graph against a rate-limited endpoint: calls at once, attempts, wall time.

Usage: python benchmarks/study_concurrency.py [--paragraphs 30 120] [--capacity 16]
       [--latency 0.05] [--bounds 0 4 8 16]

A scripted endpoint takes ``latency`` seconds per call and refuses (a transient
``RateLimitError``, as an OpenAI-compatible server answers 429) every call that arrives
while ``capacity`` calls are already in flight. Each document has ``paragraphs``
paragraphs, all relevant, so a study makes ``paragraphs x 6`` requests (2 relevance and
4 game questions each). For each study bound (``0``: unbounded, the graph's fan-out as
is) the script prints the most calls in flight at once, the attempts the endpoint saw
against the requests (extra attempts are retries of refused calls), the refusals and the
wall time, with the ratio of attempts to requests. With a bound at or under the
endpoint's capacity nothing is refused: attempts equal requests.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from _common import machine, table
from langgraph_games.graphs.study.graph import create_study_graph
from langgraph_games.models import ModelCallError, ScriptedChatModel


class RateLimitError(Exception):
    """Named like the OpenAI client's 429 error, so the package retries it."""


class Endpoint(ScriptedChatModel):
    """Answers after ``latency_s``; refuses calls beyond ``capacity`` in flight."""

    capacity: int = 16
    counts: Any = None

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        self.counts = {"now": 0, "peak": 0, "attempts": 0, "refused": 0}
        self._guard = threading.Lock()

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        counts = self.counts
        with self._guard:
            counts["attempts"] += 1
            counts["now"] += 1
            counts["peak"] = max(counts["peak"], counts["now"])
            refused = counts["now"] > self.capacity
            counts["refused"] += refused
        await asyncio.sleep(self.latency_s)
        with self._guard:
            counts["now"] -= 1
        if refused:
            raise RateLimitError("429 Too Many Requests")
        question = str(messages[-1].content)
        text = "Yes." if question.endswith("Answer yes or no.") else "1. Trees give wood."
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])


def document(paragraphs: int) -> str:
    return "\n\n".join(
        f"Note {i}: trees give wood, and wood makes a table." for i in range(paragraphs)
    )


def run(paragraphs: int, bound: int, capacity: int, latency: float) -> list[Any]:
    model = Endpoint(capacity=capacity, latency_s=latency, name_=f"bench-{paragraphs}-{bound}")
    graph = create_study_graph(
        model, concurrency=bound or None, call_attempts=6, retry_delay_s=latency
    )
    requests = paragraphs * 6
    started = time.perf_counter()
    try:
        asyncio.run(graph.ainvoke({"document": document(paragraphs), "format": "text"}))
        outcome = "ok"
    except ModelCallError:
        outcome = "failed (a call refused 6 times)"
    wall = time.perf_counter() - started
    counts = model.counts
    return [
        paragraphs,
        bound or "none",
        counts["peak"],
        requests,
        counts["attempts"],
        f"{counts['attempts'] / requests:.2f}",
        counts["refused"],
        f"{wall:.2f}",
        outcome,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paragraphs", type=int, nargs="+", default=[30, 120])
    parser.add_argument("--capacity", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--bounds", type=int, nargs="+", default=[0, 4, 8, 16])
    args = parser.parse_args()
    print(
        f"# study against an endpoint of capacity {args.capacity}, {args.latency * 1000:.0f} ms "
        f"per call ({machine()})\n"
    )
    rows = [
        run(paragraphs, bound, args.capacity, args.latency)
        for paragraphs in args.paragraphs
        for bound in args.bounds
    ]
    headers = [
        "paragraphs", "bound", "peak in flight", "requests", "attempts",
        "attempts/requests", "refused", "wall s", "outcome",
    ]  # fmt: skip
    print(table(headers, rows))


if __name__ == "__main__":
    main()
