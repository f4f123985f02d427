"""The result of reading a model's free-text answer: a canonical action, or why there is none."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ParsedAnswer"]


class ParsedAnswer(NamedTuple):
    """What an answer parser found.

    Attributes:
        action: The canonical action string, or ``None`` when none could be read.
        reason: Why no action was read (``None`` when ``action`` is set); a short phrase
            that can be shown to a model as feedback.
    """

    action: str | None
    reason: str | None = None
