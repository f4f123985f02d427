"""The embedded model held to a JSON schema: the relation check and typed lessons read its
replies (whatever their quality, a 135M model's answers are in the expected form)."""

from __future__ import annotations

import pytest

from langgraph_games.graphs.expver.lessons import (
    REFLECTION_SCHEMA,
    read_typed_reflection,
    read_types,
    types_schema,
)
from langgraph_games.memory.relations import check_relation
from langgraph_games.models import LocalChatModel
from langgraph_games.models.structured import json_schema_model

pytestmark = pytest.mark.slow


def test_the_relation_check_reads_the_local_models_answer() -> None:
    model = LocalChatModel(max_tokens=96)
    for a, b in [("Avoid walking into walls", "Do not walk into walls"),
                 ("Collect every coin", "Read the map before moving")]:  # fmt: skip
        verdict = check_relation(model, "Maze", a, b)
        assert verdict.source in ("model", "guard") and verdict.meaning is not None


def test_typed_lessons_from_the_local_model_are_read() -> None:
    model = json_schema_model(LocalChatModel(max_tokens=700), REFLECTION_SCHEMA, "reflection")
    reply = model.invoke(
        "Review this maze game: the agent hit a wall twice and never reached the goal. "
        "Write the summary and the lessons as JSON."
    ).text
    assert read_typed_reflection(reply) is not None, reply
    typing = json_schema_model(LocalChatModel(max_tokens=64), types_schema(2), "types")
    answer = typing.invoke("Notes: 1. Avoid walls. 2. Lost a life. Types of the two notes?").text
    assert read_types(answer, 2) is not None, answer  # exactly two: the grammar sees to it
