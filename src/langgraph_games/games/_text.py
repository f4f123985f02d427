"""Helpers for reading an action out of a model's free-form answer.

GAMEBoT's parsers look for the action after a section label such as ``Chosen Action``,
``[Action]`` or ``Proposal``; a reply without the label is searched whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["after_last_label", "label_pattern", "pick_phrase"]


def label_pattern(*labels: str) -> re.Pattern[str]:
    """A case-insensitive pattern for any of ``labels``, tolerant of Markdown around words.

    Example:
        >>> bool(label_pattern("Chosen Action").search("**3. Chosen  action**"))
        True
    """
    alternatives = []
    for label in labels:
        words = [re.escape(w) for w in label.split()]
        alternatives.append(r"[\s*_#]*".join(words))
    return re.compile("|".join(f"(?:{a})" for a in alternatives), re.I)


def after_last_label(text: str, label: re.Pattern[str]) -> str | None:
    """The text after the last match of ``label``, or ``None`` when it does not occur."""
    matches = list(label.finditer(text))
    return text[matches[-1].end() :] if matches else None


def pick_phrase(
    text: str,
    label: re.Pattern[str],
    phrases: Sequence[tuple[re.Pattern[str], str]],
) -> str | None:
    """The action named by the first phrase after the last label, else by the last phrase.

    Args:
        text: The model's answer.
        label: The section label that introduces the action.
        phrases: ``(pattern, action)`` pairs; where patterns overlap at one position the
            earlier pair wins, so list longer phrases first.

    Returns:
        The action of the chosen phrase, or ``None`` when no phrase occurs.

    Example:
        >>> up = (re.compile("up", re.I), "Move Up")
        >>> down = (re.compile("down", re.I), "Move Down")
        >>> pick_phrase("up... [Action] down", label_pattern("[Action]"), [up, down])
        'Move Down'
    """
    tail = after_last_label(text, label)
    region = text if tail is None else tail
    hits: list[tuple[int, int, str]] = []
    for order, (pattern, action) in enumerate(phrases):
        hits.extend((m.start(), order, action) for m in pattern.finditer(region))
    if not hits:
        return None
    if tail is not None:
        return min(hits)[2]
    last_start = max(h[0] for h in hits)
    return min(h for h in hits if h[0] == last_start)[2]
