"""Reading a maze action (0-11) from a model's reply, in the released agent's order.

The rules are tried in this order and the first that yields an action in 0-11 wins:

1. ``Action: X`` (also with a full-width colon ``：``), case-sensitive as released;
2. ``action X``, ``action number: X``, ``choose action: X``, ``I choose action: X``,
   ``choice: X`` (case-sensitive), then a number at the very end of the reply;
3. a phrase such as ``move up 1 step`` or ``move right three steps`` (any case).

A rule whose number is outside 0-11 is skipped. The released agent played action 0
when nothing matched; here the parser reports no action (the game's fallback action is
0), so a caller can tell an unreadable reply from a real ``Action: 0``. Each pattern
takes its first match in the text, as released; ``pick="last"`` takes the last instead,
which resists replies that restate the format (``Action: 9`` from the example) first.
"""

from __future__ import annotations

import re
from typing import Literal

from langgraph_games.games._numbers import read_int
from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.maze.rules import DIRECTIONS

__all__ = ["PHRASES", "parse_maze_answer"]

_PATTERNS = (
    re.compile(r"Action\s*[:：]\s*(\d+)"),
    re.compile(r"action\s*(\d+)"),
    re.compile(r"action number[：:]\s*(\d+)"),
    re.compile(r"choose action[：:]\s*(\d+)"),
    re.compile(r"I choose action[：:]\s*(\d+)"),
    re.compile(r"choice[：:]\s*(\d+)"),
)
_END_PUNCTUATION = ("。", "，", ",", ".")
_DIGITS = re.compile(r"\d+")
_WORDS = ("one", "two", "three")


def _phrases() -> tuple[tuple[str, int], ...]:
    phrases = []
    for d, (name, _, _) in enumerate(DIRECTIONS):
        for k in range(3):
            unit = "step" if k == 0 else "steps"
            phrases.append((f"move {name.lower()} {k + 1} {unit}", d * 3 + k))
            phrases.append((f"move {name.lower()} {_WORDS[k]} {unit}", d * 3 + k))
    return tuple(phrases)


PHRASES = _phrases()
"""``(phrase, action)`` pairs of the last rule, in the order they are tried."""


def parse_maze_answer(text: str, *, pick: Literal["first", "last"] = "first") -> ParsedAnswer:
    """Read a maze action from ``text``.

    Args:
        text: The model's reply.
        pick: Which match of each pattern counts: ``"first"`` as released, or ``"last"``.

    Returns:
        The action as a string ``"0"``-``"11"``, or no action with the reason.

    Example:
        >>> parse_maze_answer("Moving right is safe. **Action: 9**").action
        '9'
        >>> parse_maze_answer("I will move up two steps.").action
        '1'
        >>> parse_maze_answer("Action: 12").reason
        'no action number 0-11 found (write "Action: X")'
    """
    for pattern in _PATTERNS:
        matches = list(pattern.finditer(text))
        if pick == "last":
            matches.reverse()
        for match in matches[:1]:
            number = read_int(match.group(1))
            if number is not None and 0 <= number <= 11:
                return ParsedAnswer(str(number))
    number = _trailing_number(text)
    if number is not None and 0 <= number <= 11:
        return ParsedAnswer(str(number))
    lowered = text.lower()
    for phrase, action in PHRASES:
        if phrase in lowered:
            return ParsedAnswer(str(action))
    return ParsedAnswer(None, 'no action number 0-11 found (write "Action: X")')


def _trailing_number(text: str) -> int | None:
    r"""The number the reply ends with (then at most spaces, one ``.``/``,``/``。``/``，``).

    The released pattern ``(\d+)\s*[。，,.]?\s*$`` backtracks through every digit run of
    the reply, which takes minutes on a reply of many digits; this reads the same number
    from the end in linear time.
    """
    body = text.rstrip()
    if body.endswith(_END_PUNCTUATION):
        body = body[:-1].rstrip()
    digits = _DIGITS.match(body[::-1])
    return None if digits is None else read_int(digits.group(0)[::-1])
