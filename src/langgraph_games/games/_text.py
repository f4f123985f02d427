"""Section labels of model answers (``Chosen Move``, ``[Action]``, ``Proposal:``).

The rule that reads the action after such a label is in :mod:`._answer`.
"""

from __future__ import annotations

import re

__all__ = ["label_pattern"]


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
