"""Only advice becomes a truth, told by the model that wrote the reflection (no verb list).

The labelled set (``tests/data/lesson_lines.py``, 70 lines) holds observations that read
like imperatives ("Lose lives by walking blindly.") and plain imperatives a verb list
missed ("Read the map before moving."). A reflecting model that types its lines, in the
typed JSON or by the typing call after a text reply, gets exactly its advice promoted.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from data.lesson_lines import ADVICE, LINES, OBSERVATIONS
from langgraph_games.graphs.expver.lessons import read_typed_reflection, read_types
from langgraph_games.graphs.expver.prompts import MAX_ITEMS
from langgraph_games.memory import Experience, Lesson, candidates_from_experience

SUMMARY = "Due to haste, I hit a wall. Next time, I should look first."


def chunks(size: int = MAX_ITEMS) -> list[list[tuple[str, str]]]:
    return [LINES[i : i + size] for i in range(0, len(LINES), size)]


def promoted(lessons: list[Lesson]) -> set[str]:
    exp = Experience(id="e", game="maze", level="L1", episode="p", round=1, text=SUMMARY,
                     lessons=lessons)  # fmt: skip
    return {c.text for c in candidates_from_experience(exp) if c.kind in ("summary", "advice")}


@pytest.mark.parametrize("style", ["plain", "fenced", "extra keys"])
def test_typed_replies_promote_exactly_the_advice(style: str) -> None:
    kept: set[str] = set()
    for chunk in chunks():
        lessons: list[dict[str, Any]] = [
            {"type": label, "section": "weakness", "text": line, "situation": "", "action": ""}
            for line, label in chunk
        ]
        if style == "extra keys":
            lessons = [{**x, "confidence": 0.9} for x in lessons]
        reply = json.dumps({"summary": SUMMARY, "lessons": lessons})
        if style == "fenced":
            reply = f"Here is my review.\n```json\n{reply}\n```"
        reflection = read_typed_reflection(reply)
        assert reflection is not None and reflection.dropped == []
        kept |= promoted(reflection.lessons) - {SUMMARY}
    right = sum((line in kept) == (label == "advice") for line, label in LINES)
    assert len(LINES) >= 60 and right / len(LINES) >= 0.95
    assert kept == set(ADVICE)  # exactly, in fact
    assert "Read the map before moving." in kept
    assert not {"Lose lives by walking blindly.", "Waste of steps on off-grid moves."} & kept


def test_the_typing_call_types_items_of_a_text_reply() -> None:
    kept: set[str] = set()
    for chunk in chunks(20):
        reply = json.dumps({"types": [label for _, label in chunk]})
        types = read_types(reply, len(chunk))
        assert types is not None
        lessons = [Lesson(kind=kind, text=line) for kind, (line, _) in  # type: ignore[arg-type]
                   zip(types, chunk, strict=True)]  # fmt: skip
        kept |= promoted(lessons) - {SUMMARY}
    assert kept == set(ADVICE) and not set(OBSERVATIONS) & kept
    assert read_types(json.dumps({"types": ["advice"]}), 2) is None  # a count that differs
    assert read_types(json.dumps({"types": ["advice", "weakness"]}), 2) is None  # a bad type
