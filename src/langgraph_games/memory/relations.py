"""The relation check: what a new lesson is to a lesson already in the truth base.

TruthWeaver asks the model, once per near neighbour, which of five relations holds
between a candidate (A) and a stored lesson (B), through structured output (a JSON object
``{"relation", "reason"}``; the embedded model is held to it by a grammar, an
OpenAI-compatible endpoint by ``response_format``):

- ``same``: A and B say the same thing in other words;
- ``more_specific``: A says what B says and adds a detail or a condition (A refines B);
- ``more_general``: B says what A says and more (B refines A);
- ``contradicts``: where both apply they call for different actions or state different
  facts (another number, direction or order, "always" against "never");
- ``unrelated``: they are about different things and can both be followed.

Two deterministic guards, used only where they are exact:

- texts that are equal after :func:`~langgraph_games.memory.merge_prompts.normalize_text`
  are ``same`` without a model call;
- when both lessons give numbers and the numbers differ, or both name directions and the
  directions differ (another set, or the same ones in another order where either lesson
  orders them: ``first``, ``then``, ``before``...), they are never ``same``,
  ``more_specific`` or ``more_general``: the model's answer becomes ``contradicts``.

Reading the reply (one rule): the first ``"relation": "<label>"`` pair in it, else the
one relation label the text names as a word; a reply naming none, or several, is
*unresolved* (reported, and the lessons are kept apart), never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games._json import JsonObject
from langgraph_games.memory.merge_prompts import ask, normalize_text
from langgraph_games.models.messages import reply_too_long
from langgraph_games.models.structured import json_schema_model

__all__ = [
    "RELATION_SCHEMA",
    "Meaning",
    "Verdict",
    "check_relation",
    "detail_conflict",
    "read_relation",
    "relation_messages",
]


class Meaning(str, Enum):
    """What a candidate lesson (A) is to a stored one (B)."""

    SAME = "same"
    MORE_SPECIFIC = "more_specific"
    MORE_GENERAL = "more_general"
    CONTRADICTS = "contradicts"
    UNRELATED = "unrelated"


RELATION_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {
        "relation": {"type": "string", "enum": [m.value for m in Meaning]},
        "reason": {"type": "string"},
    },
    "required": ["relation", "reason"],
    "additionalProperties": False,
}
"""The JSON schema of a relation reply."""

_SYSTEM = (
    "You keep the list of lessons an agent learned by playing {game}, one lesson per "
    "meaning. You compare a new lesson with one already on the list and say how they relate."
)

_USER = """New lesson (A): {a}
Lesson on the list (B): {b}

Which one is true?
- same: A and B say the same thing in other words.
- more_specific: A says everything B says and adds a detail or a condition.
- more_general: B says everything A says and adds a detail or a condition.
- contradicts: where both apply they call for different actions or state different facts \
(another number, direction or order; "always" against "never").
- unrelated: they are about different things and can both be followed.
Answer with one JSON object: {{"relation": "<same|more_specific|more_general|contradicts|\
unrelated>", "reason": "<a few words>"}}"""

_PAIR = re.compile(r'"relation"\s*:\s*"([a-z_ ]+)"', re.IGNORECASE)
_LABEL = re.compile(r"\b(same|more[_ ]specific|more[_ ]general|contradicts|unrelated)\b", re.I)
_NUMBER_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "zero": "0",
}  # fmt: skip
_TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
_DIRECTIONS = frozenset(
    re.findall(r"\w+", "up down left right north south east west clockwise counterclockwise")
) | {"anticlockwise"}
_ORDER = frozenset(re.findall(r"\w+", "first then before after until next afterwards finally"))


@dataclass(frozen=True)
class Verdict:
    """The relation of a candidate to one neighbour, and how it was decided.

    Attributes:
        meaning: The relation; ``None`` when the model's reply could not be resolved.
        reason: The model's reason, or the guard's.
        source: ``exact`` (equal texts), ``model``, ``guard`` (the model's answer overruled
            by a changed number or direction), ``unresolved`` or ``model-error``.
    """

    meaning: Meaning | None
    reason: str
    source: str


def relation_messages(game: str, candidate: str, neighbour: str) -> list[BaseMessage]:
    """The conversation asking for the relation of ``candidate`` (A) to ``neighbour`` (B)."""
    return [
        SystemMessage(_SYSTEM.format(game=game)),
        HumanMessage(_USER.format(a=" ".join(candidate.split()), b=" ".join(neighbour.split()))),
    ]


def read_relation(reply: str) -> tuple[Meaning | None, str]:
    """The relation a reply names, by the module's rule, and its reason (or the problem).

    Example:
        >>> read_relation('{"relation": "same", "reason": "both say avoid walls"}')
        (<Meaning.SAME: 'same'>, 'both say avoid walls')
        >>> read_relation("CONTRADICTS")[0]
        <Meaning.CONTRADICTS: 'contradicts'>
        >>> read_relation("same or more_general?")
        (None, 'unresolved: the reply names 2 relations')
    """
    if reply_too_long(reply) is not None:
        return None, "unresolved: the reply is too long to read"
    found = _PAIR.search(reply)
    if found:
        label = found.group(1).strip().lower().replace(" ", "_")
        if label in Meaning._value2member_map_:
            reason = re.search(r'"reason"\s*:\s*"([^"]{0,300})', reply[found.end() :])
            return Meaning(label), reason.group(1).strip() if reason else ""
        return None, f"unresolved: {label!r} is no relation"
    labels = {m.group(1).lower().replace(" ", "_") for m in _LABEL.finditer(reply)}
    if len(labels) == 1:
        return Meaning(labels.pop()), ""
    if not labels:
        return None, "unresolved: the reply names no relation"
    return None, f"unresolved: the reply names {len(labels)} relations"


def _tokens(text: str) -> list[str]:
    words = _TOKEN.findall(text.casefold())
    return [_NUMBER_WORDS.get(w, w) for w in words]


def detail_conflict(first: str, second: str) -> str | None:
    """Why two lessons cannot mean the same (a changed number or direction), or ``None``.

    Example:
        >>> detail_conflict("Move right first, then up.", "Move up first, then right.")
        'directions in another order: right, up / up, right'
        >>> detail_conflict("You have 3 lives.", "You have two lives.")
        'other numbers: 3 / 2'
        >>> detail_conflict("Avoid walls.", "Do not walk into walls.") is None
        True
    """
    a, b = _tokens(first), _tokens(second)
    numbers_a = sorted(w for w in a if w[0].isdigit())
    numbers_b = sorted(w for w in b if w[0].isdigit())
    if numbers_a and numbers_b and numbers_a != numbers_b:
        return f"other numbers: {', '.join(numbers_a)} / {', '.join(numbers_b)}"
    dirs_a = list(dict.fromkeys(w for w in a if w in _DIRECTIONS))
    dirs_b = list(dict.fromkeys(w for w in b if w in _DIRECTIONS))
    if dirs_a and dirs_b:
        if set(dirs_a) != set(dirs_b):
            return f"other directions: {', '.join(dirs_a)} / {', '.join(dirs_b)}"
        ordered = _ORDER & (set(a) | set(b))
        if dirs_a != dirs_b and ordered:
            return f"directions in another order: {', '.join(dirs_a)} / {', '.join(dirs_b)}"
    return None


def check_relation(
    model: BaseChatModel,
    game: str,
    candidate: str,
    neighbour: str,
    config: RunnableConfig | None = None,
) -> Verdict:
    """The relation of ``candidate`` to ``neighbour``: the guards, else one model call.

    Args:
        model: Any chat model (held to :data:`RELATION_SCHEMA` where it can be).
        game: How the prompt names the game.
        candidate: The new lesson (A).
        neighbour: The stored lesson (B).
        config: The caller's ``RunnableConfig``, passed on to the model call.
    """
    if normalize_text(candidate) == normalize_text(neighbour):
        return Verdict(Meaning.SAME, "the same text", "exact")
    held = json_schema_model(model, RELATION_SCHEMA, "lesson_relation")
    try:
        reply = ask(held, relation_messages(game, candidate, neighbour), config)
    except Exception as exc:  # noqa: BLE001 - a failing model must not lose the round's truths
        return Verdict(None, f"the model call failed: {exc}"[:300], "model-error")
    meaning, reason = read_relation(reply)
    if meaning is None:
        return Verdict(None, reason, "unresolved")
    if meaning in (Meaning.SAME, Meaning.MORE_SPECIFIC, Meaning.MORE_GENERAL):
        conflict = detail_conflict(candidate, neighbour)
        if conflict is not None:
            return Verdict(Meaning.CONTRADICTS, f"{meaning.value} overruled: {conflict}", "guard")
    return Verdict(meaning, reason, "model")
