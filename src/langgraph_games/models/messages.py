"""Reading a chat model's reply as plain text, whatever shape its content has.

Replies are read up to :data:`MAX_REPLY_CHARS` characters. A longer one (a model stuck
in a loop, a broken endpoint) is not read at all: every reader of model output reports it
as unusable (:func:`reply_too_long` gives the problem) instead of searching megabytes of
text for an answer, and records keep an excerpt of it (:func:`clip_reply`) with its
length, so the run's files stay small and say what happened.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EXCERPT_CHARS", "MAX_REPLY_CHARS", "clip_reply", "reply_text", "reply_too_long"]

MAX_REPLY_CHARS = 200_000
"""The longest reply that is read (about 50,000 tokens: more than any prompt asks for)."""

EXCERPT_CHARS = 2_000
"""Characters kept from each end of a reply too long to read, in records."""


def reply_too_long(text: str) -> str | None:
    """Why ``text`` is not read (it is longer than :data:`MAX_REPLY_CHARS`), or ``None``.

    Example:
        >>> reply_too_long("Chosen Move: (1,1)") is None
        True
        >>> reply_too_long("9" * 300_000)
        'your answer was 300,000 characters long; answers over 200,000 characters are not read'
    """
    if len(text) <= MAX_REPLY_CHARS:
        return None
    return (
        f"your answer was {len(text):,} characters long; answers over "
        f"{MAX_REPLY_CHARS:,} characters are not read"
    )


def clip_reply(text: str) -> str:
    r"""``text`` itself, or for a reply too long to read, its two ends around a note.

    Example:
        >>> clip_reply("short")
        'short'
        >>> clipped = clip_reply("a" * 150_000 + "b" * 150_000)
        >>> len(clipped) < 4_100, clipped[2000:2050]
        (True, '\n[... 296,000 of 300,000 characters left out ...]\n')
    """
    if len(text) <= MAX_REPLY_CHARS:
        return text
    left_out = len(text) - 2 * EXCERPT_CHARS
    note = f"\n[... {left_out:,} of {len(text):,} characters left out ...]\n"
    return text[:EXCERPT_CHARS] + note + text[-EXCERPT_CHARS:]


def reply_text(reply: Any) -> str:
    r"""The plain text of a reply: a string, a message with string content, or content blocks.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> reply_text(AIMessage(content=[{"type": "text", "text": "a"}, "b"]))
        'a\nb'
        >>> reply_text(None)
        ''
    """
    if isinstance(reply, str):
        return reply
    content = getattr(reply, "content", None)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts)
    return ""
