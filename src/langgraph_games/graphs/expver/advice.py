"""Which items of an experience are advice, and so may become truths (Agent-ExpVer).

A truth goes into GeoLink's prompt as a lesson to follow, so it must say what to do. The
released code promoted every strength and weakness as written, and InsightForce's
weaknesses are often observations ("Never headed for the goal.", "Lost a life to a
wall"): as a lesson such a line tells the player nothing to do, or the opposite of what
was meant. The rule (:func:`is_advice`), applied to each item of a promoted experience:

1. An item with an advice phrase anywhere is advice: ``should``, ``must``, ``need(s) to``,
   ``have to``, ``better to``, ``make sure``, ``remember to``, ``try to``, ``next time``,
   ``from now on``, ``in future``.
2. Otherwise the item is read from its start, after dropping a leading clause up to a
   comma that opens with ``when``, ``if``, ``before``, ``after``, ``once``, ``while``,
   ``unless`` or ``until``. Opening with ``do not`` or ``don't`` it is advice (a negated
   imperative). Else, after leading adverbs (``always``, ``never``, ``first``, ``then``,
   ``only``, ``carefully``...), it is advice when the first word left is a verb in the
   imperative from a fixed list (:data:`IMPERATIVES`: ``avoid``, ``keep``, ``move``,
   ``head``, ``collect``...; words that read the same in the past tense, such as ``hit``
   or ``read``, are left out). "Never head for the goal" is advice; "Never headed for
   the goal" is not.

An item that is not advice stays on the experience (the replay showed it; the record
keeps it) but is not promoted: the experience's ``not_promoted`` provenance names it.
``ExpVerOptions.require_advice=False`` promotes every item as written, as released.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph_games.memory.records import Candidate

__all__ = ["IMPERATIVES", "advice_candidates", "is_advice"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


IMPERATIVES = _words(
    "avoid keep use move go head stay try check collect explore plan prefer look take "
    "pick break watch wait step turn follow reach get save remember be focus "
    "prioritize prioritise consider aim make find clear eliminate match target think "
    "count choose start stop continue return approach skip leave scan mind favor "
    "favour limit spend seek grab secure kill fight attack defeat dig open hold ensure "
    "track balance gather walk run jump enter exit retreat flee escape hunt search test "
    "verify note learn do build craft place stand combine pay trade bid offer accept "
    "reject fold call raise bet flag reveal mark waste lose ignore forget rush repeat "
    "miss wander touch risk"
)
"""Verbs whose bare form opening an item makes it an instruction."""

_PHRASES = re.compile(
    r"\b(?:should|must|needs? to|have to|has to|better to|make sure|remember to|try to|"
    r"next time|from now on|in future|in the future)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"^(?:when|if|before|after|once|while|unless|until)\b[^,]*,\s*", re.I)
_ADVERBS = _words("always never first then only carefully quickly slowly also still just please")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def is_advice(text: str) -> bool:
    """Whether an experience item tells the player what to do (see the module docstring).

    Example:
        >>> is_advice("Never headed for the goal."), is_advice("Never head for the goal.")
        (False, True)
        >>> is_advice("Lost a life to a wall"), is_advice("When a wall is near, step around it")
        (False, True)
        >>> is_advice("Due to haste, I hit a wall. Next time, I should look first.")
        True
    """
    if _PHRASES.search(text):
        return True
    rest = _CLAUSE.sub("", text.strip().casefold().replace("\u2019", "'"))
    words = _WORD.findall(rest)
    if words[:1] == ["don't"] or words[:2] == ["do", "not"]:
        return True  # a negated imperative ("did not" would describe)
    while words and words[0] in _ADVERBS:
        words = words[1:]
    return bool(words) and words[0] in IMPERATIVES


def advice_candidates(candidates: Sequence[Candidate]) -> tuple[list[Candidate], list[str]]:
    """``(the candidates that are advice, the ids of those that are not)``."""
    kept = [c for c in candidates if is_advice(c.text)]
    return kept, [c.id for c in candidates if not is_advice(c.text)]
