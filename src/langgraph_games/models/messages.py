"""Reading a chat model's reply as plain text, whatever shape its content has."""

from __future__ import annotations

from typing import Any

__all__ = ["reply_text"]


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
