"""The ExpVer loop survives the real embedded model (one level, one step, short answers)."""

from __future__ import annotations

import pytest

from expver_support import level
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions, MemoryLedger
from langgraph_games.memory import ExperienceStatus, load_experiences
from langgraph_games.models import LocalChatModel
from memory_fakes import BagOfWords

pytestmark = pytest.mark.slow


async def test_one_round_with_the_local_model() -> None:
    ledger = MemoryLedger()
    graph = create_expver_graph(
        LocalChatModel(max_tokens=16),
        "maze",
        train_levels=[level("train", 1, steps=1)],
        test_levels=[level("eval", 2, steps=1)],
        options=ExpVerOptions(
            rounds=1, levels_per_round=1, episode=EpisodeOptions(max_retries=0, max_steps=1)
        ),
        embeddings=BagOfWords(),
        ledger=ledger,
    )
    final = await graph.ainvoke({})
    assert [r["round"] for r in final["rounds"]] == [0, 1]
    assert final["rounds"][-1]["decision"] in {"kept", "reverted", "unchanged"}
    [experience] = load_experiences(graph.store, "maze")  # type: ignore[arg-type]
    assert experience.status in {ExperienceStatus.PROMOTED, ExperienceStatus.REJECTED}
    assert experience.provenance["model"] == "localchatmodel:SmolLM2-135M-Instruct.Q4_1.gguf"
    assert experience.provenance["reply"]  # what the model wrote is kept, usable or not
    play = ledger.get("r1/train/L1-train1")
    assert play is not None and play["result"]["steps"] == 1
