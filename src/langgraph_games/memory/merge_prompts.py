"""The prompts TruthWeaver sends to a chat model, and defensive parsing of the replies.

The project's default model is a 135M-parameter one, so every reply is treated as
untrusted: a merge is accepted only if it parses, is of sensible length, does not echo
the prompt, keeps every number, negation, quantifier and direction word of its sources
(:mod:`~langgraph_games.memory.meaning`), and stays close in meaning to each of them
(cosine similarity, checked by the caller). Anything else is a counted failure and
the entries are kept apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games.memory.meaning import lost_markers
from langgraph_games.models.messages import reply_text, reply_too_long
from langgraph_games.models.retry import invoke_with_retry

__all__ = [
    "MERGE_SYSTEM",
    "MERGE_USER",
    "REWRITE_SYSTEM",
    "REWRITE_USER",
    "ask",
    "merge_messages",
    "normalize_text",
    "parse_merge_reply",
    "parse_rewrite_reply",
    "rewrite_messages",
]

MERGE_SYSTEM = (
    "You keep a short list of lessons (called truths) that an agent learned by playing "
    "{game}. You combine lessons that say the same thing, and you never invent new ones."
)

MERGE_USER = """These lessons overlap:
{entries}

Write one lesson that says everything they say. Keep every concrete detail: numbers, \
positions, directions, items, conditions and actions, and every "not", "never", "always" \
and "only". Add nothing that is not in them. Use one or two sentences.
If they are really about different things, or one contradicts another (it says "never" \
where another says "always", or gives another number or direction), reply with the \
single word SEPARATE.
Otherwise reply with exactly one line:
MERGED: <the combined lesson>"""

REWRITE_SYSTEM = (
    "You tidy a list of lessons (called truths) that an agent learned by playing {game}. "
    "You never invent new lessons."
)

REWRITE_USER = """Here is the current list of lessons:
{entries}

Tidy it: drop lessons that repeat another word for word, and combine lessons that say the \
same thing in different words into one that keeps all of their details. Keep lessons that \
are only loosely related as they are. There is no need to make the list shorter.
Reply with the tidied list only, one lesson per line, numbered 1., 2., 3. and so on."""

_BULLET = re.compile(r"^\s*(?:[-*\u2022]+|\(?\d{1,3}[.)]|#+)\s*")
_MARKER = re.compile(r"^\W*merged\W*:\s*(.*)$", re.IGNORECASE)
_ECHOES = ("these lessons overlap", "merged:", "<the combined lesson>", "reply with")


def normalize_text(text: str) -> str:
    """Comparable form of a lesson: Unicode-normalised, case-folded, bullet and spacing free.

    Example:
        >>> normalize_text("  - Avoid  WALLS! ")
        'avoid walls'
    """
    text = unicodedata.normalize("NFKC", text)
    text = _BULLET.sub("", text)
    text = " ".join(text.split()).casefold()
    return text.rstrip(".!;:, ").strip("\"'` ")


def _numbered(texts: Sequence[str]) -> str:
    return "\n".join(f"{i}. {' '.join(t.split())}" for i, t in enumerate(texts, 1))


def merge_messages(game: str, texts: Sequence[str]) -> list[BaseMessage]:
    """The conversation asking the model to merge ``texts``."""
    return [
        SystemMessage(MERGE_SYSTEM.format(game=game)),
        HumanMessage(MERGE_USER.format(entries=_numbered(texts))),
    ]


def rewrite_messages(game: str, texts: Sequence[str]) -> list[BaseMessage]:
    """The conversation asking the model to tidy the whole list (the reference behaviour)."""
    return [
        SystemMessage(REWRITE_SYSTEM.format(game=game)),
        HumanMessage(REWRITE_USER.format(entries=_numbered(texts))),
    ]


def ask(
    model: BaseChatModel, messages: list[BaseMessage], config: RunnableConfig | None = None
) -> str:
    """Call the model (retrying transient failures with backoff); return its reply text.

    ``config`` is the caller's ``RunnableConfig``: its callbacks (tracing, streaming) see
    the call.

    Raises:
        ModelCallError: The call failed.
    """
    return reply_text(invoke_with_retry(model, messages, config=config))


def _clean(reply: str) -> list[str]:
    reply = reply.replace("```", "\n")
    return [line.strip() for line in reply.splitlines() if line.strip()]


def parse_merge_reply(reply: str, sources: Sequence[str]) -> tuple[str | None, str]:
    r"""Read a merge reply.

    Returns:
        ``(text, "ok")`` for an acceptable merged lesson, ``(None, "separate")`` when the
        model declined, or ``(None, reason)`` for a reply that cannot be used: ``empty``,
        ``too-long`` (see :func:`~langgraph_games.models.messages.reply_too_long`),
        ``no-merged-line``, ``echo``, ``length``, ``lost-number`` (a number of a source is
        missing) or ``lost-meaning`` (a negation, quantifier or direction word of a source
        is missing; see :func:`~langgraph_games.memory.meaning.lost_markers`).

    Example:
        >>> parse_merge_reply("Sure!\nMERGED: Avoid walls; each hit costs 1 life.",
        ...                   ["Avoid walls.", "A wall hit costs 1 life."])
        ('Avoid walls; each hit costs 1 life.', 'ok')
        >>> parse_merge_reply("MERGED: Avoid walls.", ["Avoid walls.", "A wall costs 1 life."])
        (None, 'lost-number')
        >>> parse_merge_reply("MERGED: Never move right first.",
        ...                   ["Always move right first.", "Never move right first."])
        (None, 'lost-meaning')
    """
    if reply_too_long(reply) is not None:
        return None, "too-long"
    lines = _clean(reply)
    if not lines:
        return None, "empty"
    text = None
    for i, line in enumerate(lines):
        found = _MARKER.match(line)
        if found:
            # "MERGED:" alone on its line: the lesson is on the next one.
            text = found.group(1) or (lines[i + 1] if i + 1 < len(lines) else "")
            break
    if text is None:
        if any(normalize_text(line) == "separate" for line in lines):
            return None, "separate"
        if len(lines) != 1:
            return None, "no-merged-line"
        text = lines[0]
    text = " ".join(text.split()).strip("\"'`*[]<> ")
    if normalize_text(text) == "separate":
        return None, "separate"
    lowered = text.casefold()
    if any(echo in lowered for echo in _ECHOES):
        return None, "echo"
    longest = sum(len(s) for s in sources)
    if len(text) < 8 or len(text) > max(400, 2 * longest):
        return None, "length"
    lost = lost_markers(text, sources)
    if lost:
        return None, "lost-number" if any(m[:1].isdigit() for m in lost) else "lost-meaning"
    return text, "ok"


def parse_rewrite_reply(reply: str) -> list[str] | None:
    """Read a tidied list: numbered (or bulleted) lines; ``None`` if nothing usable.

    A reply too long to read (:func:`~langgraph_games.models.messages.reply_too_long`)
    gives ``None``.
    """
    if reply_too_long(reply) is not None:
        return None
    items = []
    for line in _clean(reply):
        if not _BULLET.match(line):
            continue
        text = " ".join(_BULLET.sub("", line).split()).strip("\"'`* ")
        if len(text) >= 8 and not any(echo in text.casefold() for echo in _ECHOES):
            items.append(text)
    return items or None
