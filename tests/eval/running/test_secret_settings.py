"""A model key given to a run is used to build its models but never written down."""

from __future__ import annotations

import json

from langgraph_games.eval.running.arena import ArenaSpec
from langgraph_games.eval.running.runner import EvalSpec
from langgraph_games.eval.running.training import TrainSpec
from langgraph_games.models.secrets import REDACTED, redact_settings


def test_arena_spec_keeps_the_key_in_memory_only() -> None:
    spec = ArenaSpec(game="tictactoe", players=["random", "minimax"], model={"api_key": "sk-1"})
    assert spec.model["api_key"] == "sk-1"
    dumped = json.dumps(spec.model_dump(mode="json"))
    assert "sk-1" not in dumped and REDACTED in dumped


def test_the_key_does_not_change_a_run_identity() -> None:
    one = EvalSpec(game="tictactoe", agent="random", model={"api_key": "sk-1", "temperature": 0})
    two = EvalSpec(game="tictactoe", agent="random", model={"api_key": "sk-2", "temperature": 0})
    other = EvalSpec(game="tictactoe", agent="random", model={"api_key": "sk-1", "temperature": 1})
    assert one.spec_hash() == two.spec_hash()
    assert one.spec_hash() != other.spec_hash()


def test_training_spec_redacts_in_json() -> None:
    fields = TrainSpec.model_fields
    assert "model" in fields
    spec = TrainSpec.model_construct(model={"openai_api_key": "k", "base_url": "http://x"})
    assert spec.model_dump(mode="json")["model"] == {
        "openai_api_key": REDACTED,
        "base_url": "http://x",
    }


def test_only_credentials_are_redacted() -> None:
    settings = {"api_key": "a", "max_tokens": 5, "token": "t", "password": "p", "seed": 1}
    assert redact_settings(settings) == {
        "api_key": REDACTED,
        "max_tokens": 5,
        "token": REDACTED,
        "password": REDACTED,
        "seed": 1,
    }
