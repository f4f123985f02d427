"""SPRING step latency with a 100 ms fake model: levelled DAG against sequential traversal.

Usage: python benchmarks/spring_dag.py [--latency 0.1] [--steps 5]

Every model call sleeps ``--latency`` seconds (``asyncio.sleep``, as a remote endpoint
would keep a request open) and answers "Move West". A step is one ``ainvoke`` of the
compiled graph. The levelled graph runs the questions of one topological level
concurrently (SPRING's DAG has 7 levels for 9 questions); the sequential graph asks them
one by one, as SPRING's notebook did. The ratio is sequential / levelled (> 1: the levelled
graph is faster); the ideal is questions / levels. "Overhead" is the step time minus the
time the model calls must take (levels x latency, or questions x latency).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from _common import machine, median, table
from langgraph_games.games import make
from langgraph_games.graphs.question_dag.graph import plan_question_dag
from langgraph_games.graphs.spring.graph import SpringVariant, create_spring_agent, spring_questions


class SlowModel(BaseChatModel):
    """Answers "Move West" after ``latency`` seconds."""

    latency: float = 0.1

    @property
    def _llm_type(self) -> str:
        return "slow-fake"

    def _result(self) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage("Move West"))])

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        time.sleep(self.latency)
        return self._result()

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        await asyncio.sleep(self.latency)
        return self._result()


async def step_times(agent: Any, steps: int) -> list[float]:
    times = []
    for step in range(steps):
        started = time.perf_counter()
        out = await agent.ainvoke(
            {"observation": "You see a tree.", "recent_observations": ["x"], "step": step}
        )
        times.append(time.perf_counter() - started)
        assert out["action"] == "Move West"
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per model call")
    parser.add_argument("--steps", type=int, default=5, help="steps per measurement")
    args = parser.parse_args()
    game = make("crafter")
    model = SlowModel(latency=args.latency)
    rows = []
    for variant in (SpringVariant.FULL, SpringVariant.NO_DAG, SpringVariant.STEP_BY_STEP):
        questions, edges = spring_questions(variant)
        plan = plan_question_dag(questions, edges)
        results = {}
        for execution in ("levelled", "sequential"):
            agent = create_spring_agent(model, game, variant=variant, execution=execution)
            results[execution] = median(asyncio.run(step_times(agent, args.steps)))
        level_floor = plan.depth * args.latency
        chain_floor = len(questions) * args.latency
        rows.append(
            [
                variant.value,
                f"{len(questions)} / {plan.depth}",
                f"{results['levelled']:.3f}",
                f"{results['sequential']:.3f}",
                f"{results['sequential'] / results['levelled']:.2f}",
                f"{len(questions) / plan.depth:.2f}",
                f"{(results['levelled'] - level_floor) * 1000:.1f}",
                f"{(results['sequential'] - chain_floor) * 1000:.1f}",
            ]
        )
    print(
        f"SPRING step latency, median of {args.steps} steps, model latency "
        f"{args.latency * 1000:.0f} ms ({machine()})\n"
    )
    print(
        table(
            [
                "variant",
                "questions / levels",
                "levelled s",
                "sequential s",
                "ratio",
                "ideal",
                "overhead lev. ms",
                "overhead seq. ms",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
