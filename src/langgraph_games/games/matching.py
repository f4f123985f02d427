"""Reading an action name out of free model text, by the rules the reference systems use.

Three rules, all case-insensitive, each returning the canonical action or ``None``:

- ``list_order`` (SPRING): walk the action list in its order and take the first name that
  occurs anywhere in the text. With Crafter's list (Noop, Move West, ..., Do, ...) any text
  containing "do" (e.g. "don't") maps to Do before any later action is tried.
- ``earliest_position`` (SmartPlay): among the names that occur, take the one whose first
  occurrence starts earliest in the text; at the same position the longer name wins.
- ``word_boundary``: like ``earliest_position``, but a name only counts where it stands as
  whole words; the words of a name may be separated by spaces or underscores, so
  "make_wood_pickaxe" reads as "Make Wood Pickaxe" and "don't" does not read as "Do".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache

__all__ = ["ActionRule", "match_action"]


class ActionRule(str, Enum):
    """How an answer is mapped to one of the actions."""

    LIST_ORDER = "list_order"
    EARLIEST_POSITION = "earliest_position"
    WORD_BOUNDARY = "word_boundary"


@lru_cache(maxsize=4096)
def _word_pattern(name: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[\s_]+", name.strip()) if w]
    return re.compile(r"(?<![\w])" + r"[\s_]+".join(words) + r"(?![\w])", re.IGNORECASE)


def match_action(
    text: object, actions: Sequence[str], rule: ActionRule | str = ActionRule.LIST_ORDER
) -> str | None:
    """Return the action named in ``text`` by ``rule``, or ``None`` if none is named.

    Args:
        text: The model's answer; anything that is not a string counts as empty.
        actions: The candidate actions, in the order the rule should use.
        rule: One of :class:`ActionRule` (or its value).

    Returns:
        One of ``actions``, or ``None``.

    Raises:
        ValueError: ``rule`` is not a known rule.

    Example:
        >>> acts = ["Noop", "Move West", "Do", "Place Table"]
        >>> match_action("I don't think I should Place Table", acts)
        'Do'
        >>> match_action("I don't think I should Place Table", acts, "earliest_position")
        'Do'
        >>> match_action("I don't think I should Place Table", acts, "word_boundary")
        'Place Table'
    """
    rule = ActionRule(rule)
    if not isinstance(text, str) or not text:
        return None
    lowered = text.lower()
    if rule is ActionRule.LIST_ORDER:
        for action in actions:
            if action and action.lower() in lowered:
                return action
        return None
    best: tuple[int, int, int] | None = None  # (position, -length, list index)
    for index, action in enumerate(actions):
        if not action:
            continue
        if rule is ActionRule.EARLIEST_POSITION:
            position = lowered.find(action.lower())
            length = len(action)
        else:
            found = _word_pattern(action).search(text)
            position = found.start() if found else -1
            length = found.end() - found.start() if found else 0
        if position < 0:
            continue
        key = (position, -length, index)
        if best is None or key < best:
            best = key
    return None if best is None else actions[best[2]]
