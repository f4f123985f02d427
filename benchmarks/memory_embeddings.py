"""Offline embedding throughput, and TruthWeaver's time per 1,000 candidates (no model).

Usage: python benchmarks/memory_embeddings.py [--candidates 1000] [--seconds 2]

Embedding: sentences per second of the int8 MiniLM (onnxruntime on CPU) for short lesson
sentences and for long paragraphs, one at a time and in batches of 32, after a warm-up.

TruthWeaver: 1,000 synthetic lesson candidates (about a third exact repeats in other
casing, a sixth small rewordings of earlier ones, the rest distinct) inserted with no chat
model, i.e. the embedding-only path: normalise, check exact repeats, embed, compare with
every active truth, write. Timed into LangGraph's InMemoryStore and into a ChromaStore in
a temporary directory (writing after every candidate, and after every 100), each with the
real embeddings and with a cheap seeded fake (which isolates the weaver's and the store's
own cost).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from _common import machine, rate, table
from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    MiniLMEmbeddings,
    TruthWeaver,
)

SUBJECTS = [
    "walls",
    "monsters",
    "coins",
    "the key",
    "the goal",
    "the shovel",
    "the sword",
    "the magnet",
    "corners",
    "edges",
    "bombs",
    "tiles",
    "cascades",
    "unexplored cells",
]
VERBS = ["avoid", "approach", "collect", "check", "use", "wait for", "move towards", "clear"]
WHEN = ["early", "late", "when the path is safe", "after taking the key", "at night",
        "when health is low", "before the last step", "when a monster is near"]  # fmt: skip


def candidates(n: int, seed: int = 0) -> list[Candidate]:
    rng = random.Random(seed)
    made: list[str] = []
    out = []
    for i in range(n):
        roll = rng.random()
        if made and roll < 0.33:
            text = rng.choice(made).upper()
        elif made and roll < 0.5:
            text = rng.choice(made) + " if you can"
        else:
            saved = rng.randint(1, 9)
            verb, subject, when = rng.choice(VERBS), rng.choice(SUBJECTS), rng.choice(WHEN)
            text = f"{verb} {subject} {when}; saved {saved} steps"
            made.append(text)
        out.append(Candidate(id=f"c{i}", text=text, round=1 + i // 100))
    return out


def embed_rates(emb: MiniLMEmbeddings, seconds: float) -> list[list[object]]:
    short = [f"avoid walls when a monster is near, step {i}" for i in range(64)]
    long = [
        " ".join(["explore the maze carefully and collect every coin"] * 12) + f" {i}"
        for i in range(64)
    ]
    emb.embed_array(short[:4])  # load and warm up
    rows = []
    for name, texts in (("short (~10 words)", short), ("long (~100 words)", long)):
        single, batch = [texts[0]], texts[:32]
        one = rate(lambda single=single: emb.embed_array(single).shape[0], seconds)
        batched = rate(lambda batch=batch: emb.embed_array(batch).shape[0], seconds)
        rows.append([name, f"{one:.0f}", f"{batched:.0f}"])
    return rows


def weave_time(
    store: BaseStore, embeddings: Embeddings, items: list[Candidate], every: int = 1
) -> tuple[float, int]:
    weaver = TruthWeaver(store, "maze", embeddings=embeddings, checkpoint_every=every)
    start = time.perf_counter()
    report = weaver.insert_many(items)
    return time.perf_counter() - start, report.added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    emb = MiniLMEmbeddings()
    print(f"MiniLM int8 embedding throughput, sentences/s ({machine()})\n")
    print(table(["input", "one at a time", "batches of 32"], embed_rates(emb, args.seconds)))

    items = candidates(args.candidates)
    rows = []
    for name, embeddings in (("MiniLM", emb), ("fake", DeterministicFakeEmbedding(size=384))):
        seconds, added = weave_time(InMemoryStore(), embeddings, items)
        rows.append(["InMemoryStore", name, 1, f"{seconds * 1000 / len(items):.2f}", added])
        for every in (1, 100):
            with tempfile.TemporaryDirectory() as tmp, ChromaStore(Path(tmp) / "s") as chroma:
                seconds, added = weave_time(chroma, embeddings, items, every)
            per = f"{seconds * 1000 / len(items):.2f}"
            rows.append(["ChromaStore (dir)", name, every, per, added])
    print(f"\nTruthWeaver, embedding-only path, {len(items)} candidates\n")
    headers = ["store", "embeddings", "checkpoint_every", "s per 1,000 candidates", "entries made"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
