"""The ``rewrite`` mode's prompt (the released whole-list tidy), its reader, and helpers.

The project's default model is a 135M-parameter one, so every reply is treated as
untrusted: a rewritten list is read line by line and a rewritten lesson is applied only
if it keeps every number, negation, quantifier and direction word of the entries it
replaces (:mod:`~langgraph_games.memory.meaning`; the ``rewrite`` mode's own check) and
stays close in meaning to each of them. The ``merge`` mode asks the relation check
instead (:mod:`~langgraph_games.memory.relations`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langgraph_games.models.messages import reply_text, reply_too_long
from langgraph_games.models.retry import invoke_with_retry

__all__ = [
    "REWRITE_SYSTEM",
    "REWRITE_USER",
    "ask",
    "normalize_text",
    "parse_rewrite_reply",
    "rewrite_messages",
]

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
