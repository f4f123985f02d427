"""Store traffic of one Agent-ExpVer round, and sentence embeddings per truth added.

Usage: python benchmarks/expver_store_ops.py [--truths 20] [--store memory|chroma]

First table: one round of the ExpVer graph (one training level, one test level, scripted
models that promote the round's experience) over a store that counts what it is asked:
experience writes, experience reads (by key or search) and truth searches (namespace
listings of the truth base, semantic or not). Only the round is counted, not the run's
start (claiming the store and the baseline evaluation before round 1).

Second table: ``--truths`` distinct lessons woven into an empty truth base the way a
training run wires it (the store's index and TruthWeaver both left at their defaults: the
offline MiniLM), counting the texts the MiniLM model actually embeds.

The script uses only public entry points present in earlier trees (the scripted models
and the counting store come from ``tests/expver_support.py`` beside this script), so
``compare_commits.py --baseline REV expver_store_ops.py`` prints both trees' figures in
one run.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
# The scripted models and the counting store of this script's own tree (on a baseline tree,
# they run on the baseline's sources).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from _common import machine, table
from expver_support import (
    GOOD,
    CountingStore,
    RoundLedger,
    SplitPlayer,
    coach_script,
    lesson_policy,
    level,
)
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions
from langgraph_games.memory import Candidate, ChromaStore, TruthWeaver, minilm_index
from langgraph_games.memory.embeddings import MiniLMEmbeddings
from langgraph_games.models import ScriptedChatModel


def one_round(inner: BaseStore) -> Counter[tuple[str, str]]:
    store = CountingStore(inner)
    model = ScriptedChatModel(script=coach_script(GOOD))
    graph = create_expver_graph(
        model,
        "maze",
        train_levels=[level("train", 1)],
        test_levels=[level("eval", 2)],
        store=store,
        options=ExpVerOptions(
            rounds=1,
            levels_per_round=1,
            episode=EpisodeOptions(max_retries=0, max_steps=16),
        ),
        player_factory=SplitPlayer(lesson_policy, lesson_policy),
        ledger=RoundLedger(store),
    )
    final = asyncio.run(graph.ainvoke({}))
    [record] = [r for r in final["rounds"] if r["round"] == 1]
    if record["truths_active"] == 0:
        raise SystemExit("the scripted round promoted nothing: the figures would not be a round")
    return store.counts


def embedded_per_truth(count: int, store: BaseStore) -> int:
    """Texts MiniLM embeds while ``count`` distinct lessons are woven into ``store``."""
    seen = {"texts": 0}
    original = MiniLMEmbeddings.embed_array

    def counted(self: MiniLMEmbeddings, texts: Any) -> Any:
        seen["texts"] += len(texts)
        return original(self, texts)

    MiniLMEmbeddings.embed_array = counted  # type: ignore[method-assign]
    try:
        weaver = TruthWeaver(store, "maze")
        words = ["walls", "keys", "coins", "doors", "monsters", "corners", "edges", "traps"]
        candidates = [
            Candidate(id=f"c{i}", text=f"Lesson {i}: mind the {words[i % 8]} on map {i}.", round=1)
            for i in range(count)
        ]
        report = weaver.insert_many(candidates)
        if report.added != count:
            raise SystemExit(f"expected {count} truths added, got {report.added}")
    finally:
        MiniLMEmbeddings.embed_array = original  # type: ignore[method-assign]
    return seen["texts"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truths", type=int, default=20)
    parser.add_argument("--store", choices=["memory", "chroma"], default="memory")
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if ns.store == "chroma":
            with ChromaStore(Path(tmp) / "round", index=minilm_index(["text"])) as store:
                counts = one_round(store)
        else:
            counts = one_round(InMemoryStore(index=minilm_index(["text"])))
        rows = [
            ["experience writes per round", counts["put", "experiences"]],
            ["experience reads per round", counts["get", "experiences"]],
            ["experience searches per round", counts["search", "experiences"]],
            ["truth searches per round", counts["search", "truths"]],
            ["truth writes per round", counts["put", "truths"]],
        ]
        print(f"One ExpVer round over a counting {ns.store} store ({machine()})\n")
        print(table(["what", "count"], rows))
        if ns.store == "chroma":
            with ChromaStore(Path(tmp) / "weave", index=minilm_index(["text"])) as store:
                texts = embedded_per_truth(ns.truths, store)
        else:
            texts = embedded_per_truth(ns.truths, InMemoryStore(index=minilm_index(["text"])))
    print(f"\n{ns.truths} distinct truths woven (MiniLM for the store index and TruthWeaver)\n")
    print(
        table(
            ["what", "value"],
            [
                ["texts embedded", texts],
                ["embeddings per truth", f"{texts / ns.truths:.2f}"],
            ],
        )
    )


if __name__ == "__main__":
    main()
