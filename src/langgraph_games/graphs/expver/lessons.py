"""InsightForce's typed lessons: advice is told from observation by the model that wrote it.

A truth goes into GeoLink's prompt as a lesson to follow, so only *advice* (a line that
tells the player what to do) may become one; a line that describes what happened ("Lost
a life to a wall", "Lose lives by walking blindly.") is an *observation* and stays on the
experience. Which is which is a question of meaning, so the model answers it:

- InsightForce replies with one JSON object (:data:`REFLECTION_SCHEMA`): the summary and
  its lessons, each with its ``type`` (``advice`` or ``observation``), ``section``
  (``strength`` or ``weakness``), ``text``, the ``situation`` it applies to and the
  ``action`` it recommends. The embedded model is held to the schema by a grammar, an
  OpenAI-compatible endpoint by ``response_format``.
- A reply that is not that JSON is read by the text reader
  (:func:`~langgraph_games.graphs.expver.prompts.parse_reflection`); its items are then
  typed by one more structured call (:data:`TYPES_SCHEMA`), :func:`type_items`. A typing
  reply that cannot be read leaves the items untyped: they stay on the experience and are
  not promoted, and the experience says so.

Reading a reflection (:func:`read_typed_reflection`, one rule): the reply's JSON object
(:func:`~langgraph_games.models.structured.read_json_object`) with a string ``summary``
and a list ``lessons``; each lesson needs a ``type`` of ``advice`` or ``observation`` and
a ``text`` of at least 8 characters, else it is dropped with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.graphs.expver.prompts import MAX_ITEM, MAX_ITEMS, MAX_SUMMARY, Reflection
from langgraph_games.memory.records import Lesson
from langgraph_games.models.messages import reply_text
from langgraph_games.models.structured import json_schema_model, read_json_object
from langgraph_games.models.usage import ainvoke_measured

__all__ = [
    "REFLECTION_SCHEMA",
    "TYPES_SCHEMA",
    "read_typed_reflection",
    "read_types",
    "type_items",
    "types_schema",
]

_KINDS: list[JsonValue] = ["advice", "observation"]

REFLECTION_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {
        "summary": {"type": "string", "maxLength": 300},
        "lessons": {
            "type": "array",
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": _KINDS},
                    "section": {"type": "string", "enum": ["strength", "weakness"]},
                    "text": {"type": "string", "maxLength": 160},
                    "situation": {"type": "string", "maxLength": 80},
                    "action": {"type": "string", "maxLength": 80},
                },
                "required": ["type", "section", "text", "situation", "action"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["summary", "lessons"],
    "additionalProperties": False,
}
"""The JSON schema of InsightForce's reply (bounds apply to the embedded model's grammar)."""

_TYPES_ARRAY: JsonObject = {"type": "array", "items": {"type": "string", "enum": _KINDS}}

TYPES_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {"types": {**_TYPES_ARRAY, "maxItems": 20}},
    "required": ["types"],
    "additionalProperties": False,
}
"""The JSON schema of a typing reply: one type per item, in order."""


def types_schema(count: int) -> JsonObject:
    """:data:`TYPES_SCHEMA` for exactly ``count`` items (a grammar then writes that many)."""
    types: JsonObject = {**_TYPES_ARRAY, "maxItems": count, "minItems": count}
    return {**TYPES_SCHEMA, "properties": {"types": types}}


_TYPE_SYSTEM = (
    "You sort notes an AI coach wrote about a game of {game}. A note is advice when it "
    "tells the player what to do (an instruction for next time). A note is an observation "
    "when it only describes what happened or what the player did."
)


def _text(value: object, limit: int) -> str:
    text = " ".join(str(value).split()) if isinstance(value, str) else ""
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def read_typed_reflection(reply: str) -> Reflection | None:
    """A reflection from a typed JSON reply (module rule), or ``None`` when it is not one.

    Example:
        >>> r = read_typed_reflection('{"summary": "Due to haste, I hit a wall. Next time, '
        ...     'I should look.", "lessons": [{"type": "observation", "section": "weakness", '
        ...     '"text": "Lost a life to a wall"}, {"type": "advice", "section": "weakness", '
        ...     '"text": "Read the map before moving."}]}')
        >>> [(x.kind, x.text) for x in r.lessons]
        [('observation', 'Lost a life to a wall'), ('advice', 'Read the map before moving.')]
        >>> read_typed_reflection("Experience Summary: ...") is None
        True
    """
    data, _ = read_json_object(reply)
    lessons = None if data is None else data.get("lessons")
    if data is None or not isinstance(lessons, list):
        return None
    result = Reflection(summary=_text(data.get("summary"), MAX_SUMMARY), typed=True)
    seen = {result.summary.casefold()}
    for raw in lessons:
        if not isinstance(raw, dict):
            result.dropped.append(f"not an object: {str(raw)[:60]}")
            continue
        text, kind = _text(raw.get("text"), MAX_ITEM), raw.get("type")
        if kind not in _KINDS:
            result.dropped.append(f"no type advice/observation: {text[:60] or raw}")
        elif len(text) < 8 or "<" in text:
            result.dropped.append(f"too short or a template slot: {text[:60]}")
        elif text.casefold() in seen:
            result.dropped.append(f"duplicate: {text[:60]}")
        elif len(result.lessons) >= MAX_ITEMS:
            result.dropped.append(f"over {MAX_ITEMS} lessons: {text[:60]}")
        else:
            seen.add(text.casefold())
            section = raw.get("section") if raw.get("section") in ("strength", "weakness") else ""
            result.lessons.append(
                Lesson(
                    kind=kind,
                    text=text,
                    situation=_text(raw.get("situation"), 120),
                    action=_text(raw.get("action"), 120),
                    section=section,
                )
            )
    result.strengths = [x.text for x in result.lessons if x.section == "strength"]
    result.weaknesses = [x.text for x in result.lessons if x.section == "weakness"]
    if not result.usable:
        result.problem = "nothing-usable"
    return result


def read_types(reply: str, count: int) -> list[str] | None:
    """The types of ``count`` items from a typing reply, or ``None`` when it cannot be read.

    The rule: a JSON object whose ``types`` is a list of exactly ``count`` values, each
    ``advice`` or ``observation``.

    Example:
        >>> read_types('{"types": ["advice", "observation"]}', 2)
        ['advice', 'observation']
        >>> read_types('{"types": ["advice"]}', 2) is None
        True
    """
    data, _ = read_json_object(reply)
    types = data.get("types") if data is not None else None
    if isinstance(types, list) and len(types) == count and all(t in _KINDS for t in types):
        return [str(t) for t in types]
    return None


async def type_items(
    model: BaseChatModel,
    game: str,
    items: Sequence[tuple[str, str]],
    config: RunnableConfig | None = None,
) -> tuple[list[Lesson] | None, dict[str, float]]:
    """Type untyped reflection items with one structured call.

    Returns:
        The typed lessons (``None`` when the reply cannot be read) and the call's usage.

    Args:
        model: The reflection model.
        game: How the prompt names the game.
        items: ``(section, text)`` pairs (section ``strength`` or ``weakness``).
        config: The caller's ``RunnableConfig``, passed on to the model call.

    Raises:
        ModelCallError: The call failed.
    """
    if not items:
        return [], {}
    numbered = "\n".join(f"{i}. {text}" for i, (_, text) in enumerate(items, 1))
    user = (
        f"Notes:\n{numbered}\n\nFor each note, in order, is it advice or an observation? "
        f'Answer with one JSON object: {{"types": [{len(items)} values, each "advice" or '
        '"observation"]}'
    )
    held = json_schema_model(model, types_schema(len(items)), "lesson_types")
    messages = [SystemMessage(_TYPE_SYSTEM.format(game=game)), HumanMessage(user)]
    reply, usage = await ainvoke_measured(held, messages, config)
    types = read_types(reply_text(reply), len(items))
    if types is None:
        return None, usage
    lessons = [
        Lesson(kind=kind, text=text, section=section)
        for kind, (section, text) in zip(types, items, strict=True)
    ]
    return lessons, usage
