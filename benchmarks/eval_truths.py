"""What a truth store costs an evaluation run, per episode, against the same run without one.

Usage: python benchmarks/eval_truths.py [--episodes 40] [--truths 20] [--repeats 3]

Plays ``--episodes`` TicTacToe episodes between two random players through ``run_eval``
(the executor, results file and metrics of a real evaluation, one episode at a time), once
without truths and once with a ChromaStore directory of ``--truths`` lessons given to the
agent's seat (``EvalSpec.truths``: ``eval --truths DIR``). Random players take no time, so
the figures are the framework's: the ratio row is what the truth path adds (1.0: nothing).
Each configuration runs ``--repeats`` times into fresh folders (no resume); the best run
counts.

The script uses only ``run_eval`` and ``EvalSpec``, so it runs unchanged on an earlier
tree's sources (``PYTHONPATH=<tree>/src python benchmarks/eval_truths.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.embeddings import DeterministicFakeEmbedding

from _common import machine, table
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.memory import Candidate, ChromaStore, TruthWeaver


def make_store(path: Path, count: int) -> None:
    """A truth store directory with ``count`` active lessons for TicTacToe."""
    with ChromaStore(path) as store:
        weaver = TruthWeaver(
            store, "tictactoe", mode="append", embeddings=DeterministicFakeEmbedding(size=16)
        )
        weaver.insert_many(
            [
                Candidate(id=f"c{i}", text=f"Lesson {i}: take cell {i % 9}.", round=1)
                for i in range(count)
            ],
        )


def run(episodes: int, truths: Path | None) -> float:
    """Seconds per episode of one evaluation run into a fresh folder."""
    spec = EvalSpec(
        game="tictactoe",
        agent="random",
        opponents=["random"],
        repeats=episodes,
        concurrency=1,
        episode=EpisodeOptions(max_retries=0),
        truths=str(truths) if truths is not None else None,
    )
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        report = asyncio.run(run_eval(spec, out, progress=False))
        spent = time.perf_counter() - started
    if report.played != episodes or report.errors:
        raise SystemExit(
            f"expected {episodes} clean episodes, got {report.played} ({report.errors} errors)"
        )
    return spent / episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--truths", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "store"
        make_store(store, args.truths)
        run(2, None)  # warm up imports and caches
        plain, learned = [], []
        for _ in range(args.repeats):
            plain.append(run(args.episodes, None))
            learned.append(run(args.episodes, store))
    base, with_truths = min(plain), min(learned)
    print(f"eval_truths: {machine()}; {args.episodes} TicTacToe episodes, random vs random")
    print(
        table(
            ["run", "ms / episode"],
            [
                ["no truths", f"{1000 * base:.2f}"],
                [f"{args.truths} truths (store dir)", f"{1000 * with_truths:.2f}"],
                ["ratio truths / none", f"{with_truths / base:.2f}"],
            ],
        )
    )


if __name__ == "__main__":
    main()
