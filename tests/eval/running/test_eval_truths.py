"""Evaluation with truths: read once per run, one compiled episode graph, async-only stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.graph.state import StateGraph
from langgraph.store.base import SearchOp

import langgraph_games.graphs.episode.graph as episode_graph
from expver_support import GOOD, install_coach
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.memory import Candidate, ChromaStore, TruthWeaver
from langgraph_games.memory.records import truths_namespace
from memory_fakes import AsyncOnlyStore, BagOfWords

LESSON = f"Next time, I should {GOOD.lower()}."


def spec(**kw: Any) -> EvalSpec:
    """The coach agent on three fixed maze maps, twice each: six episodes."""
    return EvalSpec(
        game="maze",
        options={"level": 1, "map_set": "eval", "max_steps": 16},
        agent="eeb:coach",
        sweep={"map_index": [2, 3, 4]},
        repeats=2,
        episode=EpisodeOptions(max_retries=0),
        **kw,
    )


def weave(store: Any) -> None:
    TruthWeaver(store, "maze", mode="append", embeddings=BagOfWords()).insert_many(
        [Candidate(id="c1", text=LESSON, round=1)]
    )


def count_truth_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every search of ``("truths", "maze")`` a ChromaStore makes, sync or async."""
    seen: list[str] = []
    sync, async_ = ChromaStore.batch, ChromaStore.abatch

    def note(ops: list[Any], how: str) -> None:
        seen.extend(
            how
            for op in ops
            if isinstance(op, SearchOp) and op.namespace_prefix == truths_namespace("maze")
        )

    def batch(self: ChromaStore, ops: Any) -> Any:
        ops = list(ops)
        note(ops, "sync")
        return sync(self, ops)

    async def abatch(self: ChromaStore, ops: Any) -> Any:
        ops = list(ops)
        note(ops, "async")
        return await async_(self, ops)

    monkeypatch.setattr(ChromaStore, "batch", batch)
    monkeypatch.setattr(ChromaStore, "abatch", abatch)
    return seen


def count_episode_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every compile of an episode graph from now on (the module's cache emptied first)."""
    compiled: list[str] = []
    original = StateGraph.compile

    def compile(self: StateGraph[Any], *args: Any, **kw: Any) -> Any:
        if kw.get("name") == "episode":
            compiled.append("episode")
        return original(self, *args, **kw)

    monkeypatch.setattr(episode_graph, "_COMPILED", None)
    monkeypatch.setattr(StateGraph, "compile", compile)
    return compiled


async def test_truths_are_read_once_per_run_and_one_graph_plays_every_episode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    store_dir = tmp_path / "store"
    with ChromaStore(store_dir) as chroma:
        weave(chroma)
    reads = count_truth_reads(monkeypatch)
    compiles = count_episode_compiles(monkeypatch)
    report = await run_eval(spec(truths=str(store_dir)), tmp_path / "eval", progress=False)
    assert report.played == 6 and report.errors == 0 and report.truths == [LESSON]
    # The coach walks to the goal only with the lesson in its prompt: every episode had it.
    assert [m["success"] for m in report.metrics] == [True] * 6
    assert reads == ["async"]  # one read for the run (six episodes), through the async API
    assert compiles == ["episode"]


async def test_an_async_only_store_works_in_eval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    store = AsyncOnlyStore()
    weave(store.inner)
    report = await run_eval(spec(), tmp_path, progress=False, store=store)
    assert report.errors == 0 and report.truths == [LESSON]
    assert [m["success"] for m in report.metrics] == [True] * 6
    assert store.searches == 1
    labels = {r["label"] for r in ResultsFile(report.results_path).read().records}
    assert labels == {"eeb:coach +truths"}
    # The same truths from a store directory give the same spec hash: same results file.
    store_dir = tmp_path / "store"
    with ChromaStore(store_dir) as chroma:
        weave(chroma)
    again = await run_eval(spec(truths=str(store_dir)), tmp_path, progress=False)
    assert again.results_path == report.results_path and again.played == 0
