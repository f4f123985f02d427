"""The served ``expver`` graph keeps its truths in the server's store, and the served
``episode`` graph plays with them (run in process, with a store as the server gives one)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from expver_support import GOOD, coach_script, has
from langgraph_games import server
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.memory import load_truths
from langgraph_games.models import ScriptedChatModel

LEVEL = {"level": 1, "map_set": "train", "map_index": 1, "max_steps": 16}
TRAINING = {
    "game": "maze",
    "model": "local",
    "train_levels": [{"id": "L1-train1", "options": LEVEL, "seed": 1}],
    "test_levels": [{"id": "L1-eval2", "options": {**LEVEL, "map_set": "eval", "map_index": 2},
                     "seed": 2}],
    "options": {"rounds": 1, "levels_per_round": 1,
                "episode": {"max_retries": 0, "max_steps": 16}},
}  # fmt: skip


class CoachPool(ModelPool):
    def get(self, spec: str) -> Any:
        return ScriptedChatModel(script=coach_script(), name_=spec)


@pytest.fixture
def coach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "server_models", CoachPool)


async def test_training_writes_to_the_servers_store_and_episodes_read_it(coach: None) -> None:
    store = InMemoryStore()
    expver = server.create_server_expver_graph().copy(update={"store": store})
    out = await expver.ainvoke(TRAINING)
    assert [r["decision"] for r in out["rounds"]] == ["baseline", "kept"]
    learned = load_truths(store, "maze")
    assert learned and has(GOOD, learned[0])
    # A second run shares the truth base (one after another), it does not refuse the store.
    again = await expver.ainvoke(TRAINING)
    assert [r["round"] for r in again["rounds"]] == [0, 1]
    episode = server.create_server_episode_graph().copy(update={"store": store})
    game = {"game": "maze", "players": ["eeb:local"], "game_options": LEVEL, "seed": 1}
    plain = await episode.ainvoke(game)
    taught = await episode.ainvoke({**game, "truths_from_store": True})
    assert plain["result"]["returns"][0] < taught["result"]["returns"][0]
    assert taught["trajectory"][0]["decisions"]["0"]["attempts"]  # the coach was asked
