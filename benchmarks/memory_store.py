"""ChromaStore against LangGraph's InMemoryStore: put, get and search latency by store size.

Usage: python benchmarks/memory_store.py [--sizes 1000,10000] [--ops 200] [--dir PATH]
       python benchmarks/memory_store.py --sizes 1000,10000,100000   # the 100k row (minutes)

Both stores hold the same N items (384-dim vectors from the same seeded fake embedding,
so the figures measure the stores, not a model; see memory_embeddings.py for the model)
spread over 20 namespaces, and then time single operations: a put of a new key, a get,
a semantic search (top 10 in one namespace prefix), the same search with a filter, and a
plain search (no query: newest 10 of one namespace). ChromaStore is a persistent
directory (default: a temporary one; a write waits for the disk, which --dir can move,
e.g. to /dev/shm, to see the cost without fsync). Ratios are Chroma / InMemory latency.

A second table times opening the persistent store again: the whole open, and within it
the check that the vector index answers for its records (``_chroma_check.check_store``),
run once more on the open store; the ratio is check / open.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.embeddings import DeterministicFakeEmbedding
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from _common import machine, median, percentile, table
from langgraph_games.memory import ChromaStore
from langgraph_games.memory._chroma_check import check_store

WORDS = [
    "avoid", "walls", "monsters", "coins", "key", "goal", "shovel", "sword", "magnet", "night",
    "corner", "edge", "tile", "match", "clear", "cascade", "bomb", "row", "column", "step",
    "explore", "north", "south", "east", "west",
]  # fmt: skip


def text(rng: random.Random) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(4, 10)))


def value(rng: random.Random, i: int) -> dict[str, object]:
    # Texts are unique: InMemoryStore fails on a batch holding the same indexed text twice.
    return {"text": f"{text(rng)} {i}", "kind": rng.choice(["truth", "exp"]), "n": i % 100}


def populate(store: BaseStore, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for first in range(0, n, 500):
        store.batch(
            [
                PutOp(("bench", f"g{i % 20}"), f"k{i}", value(rng, i))
                for i in range(first, min(n, first + 500))
            ]
        )
    return time.perf_counter() - start


def timed(fn: Callable[[int], object], ops: int) -> list[float]:
    out = []
    for i in range(ops):
        start = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - start)
    return out


def measure(store: BaseStore, n: int, ops: int) -> dict[str, list[float]]:
    rng = random.Random(1)
    queries = [text(rng) for _ in range(ops)]
    store.search(("bench",), query="warm up")  # Chroma loads its index on the first query
    return {
        "put": timed(lambda i: store.put(("bench", f"g{i % 20}"), f"new{i}", value(rng, i)), ops),
        "get": timed(lambda i: store.get(("bench", f"g{i % 20}"), f"k{rng.randrange(n)}"), ops),
        "search": timed(lambda i: store.search(("bench", f"g{i % 20}"), query=queries[i]), ops),
        "search+filter": timed(
            lambda i: store.search(("bench",), query=queries[i], filter={"kind": "truth"}), ops
        ),
        "plain search": timed(lambda i: store.search(("bench", f"g{i % 20}")), max(10, ops // 10)),
    }


def reopen(path: Path, index: object, times: int = 5) -> tuple[list[float], list[float]]:
    """Open times of a persistent store, and the index check's times on the open store."""
    opens, checks = [], []
    for _ in range(times):
        start = time.perf_counter()
        with ChromaStore(path, index=index) as store:  # type: ignore[arg-type]
            opens.append(time.perf_counter() - start)
            start = time.perf_counter()
            check_store(store, path)
            checks.append(time.perf_counter() - start)
    return opens, checks


def ratio(value: float) -> str:
    return f"{value:.0f}x" if value >= 10 else f"{value:.2g}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated store sizes")
    parser.add_argument("--ops", type=int, default=200, help="timed operations per kind")
    parser.add_argument("--dir", default=None, help="parent directory for the Chroma store")
    args = parser.parse_args()
    index = {"dims": 384, "embed": DeterministicFakeEmbedding(size=384), "fields": ["text"]}
    print(f"Store latency, ms ({machine()}); Chroma = persistent directory\n")
    rows = []
    opening = []
    for n in (int(s) for s in args.sizes.split(",")):
        memory = InMemoryStore(index=index)  # type: ignore[arg-type]
        fill_memory = populate(memory, n, seed=n)
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            with ChromaStore(Path(tmp) / "store", index=index) as chroma:  # type: ignore[arg-type]
                fill_chroma = populate(chroma, n, seed=n)
                ours = measure(chroma, n, args.ops)
            opens, checks = reopen(Path(tmp) / "store", index)
            theirs = measure(memory, n, args.ops)
        opening.append(
            [
                n,
                f"{median(opens) * 1e3:.1f}",
                f"{median(checks) * 1e3:.2f}",
                ratio(median(checks) / median(opens)),
            ]
        )
        for kind in ours:
            a, b = ours[kind], theirs[kind]
            rows.append([
                n, kind,
                f"{median(a) * 1e3:.2f}", f"{percentile(a, 99) * 1e3:.2f}",
                f"{median(b) * 1e3:.3f}", f"{percentile(b, 99) * 1e3:.3f}",
                ratio(median(a) / median(b)),
            ])  # fmt: skip
        rows.append(
            [n, "fill (items/s)", f"{n / fill_chroma:.0f}", "", f"{n / fill_memory:.0f}", "", ""]
        )
    print(table(["items", "operation", "Chroma p50", "Chroma p99", "InMemory p50", "InMemory p99",
                 "p50 ratio"], rows))  # fmt: skip
    print("\nOpening the persistent store again, ms (median of 5)\n")
    print(table(["items", "open", "index check", "check / open"], opening))


if __name__ == "__main__":
    main()
