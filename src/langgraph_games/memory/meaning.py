"""Cheap, deterministic checks of whether two lessons say the same thing.

Sentence embeddings place "Next time, I should always move right first" and "... never
move right first" at cosine 0.99, "3 lives" next to "2 lives" and "turn left" next to
"turn right": a similarity threshold alone cannot tell a rewording from a correction.
TruthWeaver therefore uses two rules written to err on the side of keeping lessons apart:

- :func:`same_meaning`: two lessons are interchangeable only when their *content words*
  are the same words in the same order. Case, punctuation, contractions (``don't`` = ``do
  not``), number words (``three`` = ``3``), a plural ``s`` and a short list of filler words
  (articles, pronouns, ``because``/``since``/``as``/``so``, ``should``...) are ignored;
  every other difference (a negation, a number, a direction, a word order, any other
  word) means the two may differ.
- :func:`lost_markers`: a merged or rewritten lesson must keep every *marker* of its
  sources: each number, negation (``not``, ``never``, ``no``...), quantifier (``always``,
  ``only``, ``every``...) and direction or order word (``left``, ``up``, ``before``...).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["FILLER", "MARKERS", "content_words", "lost_markers", "markers", "same_meaning"]

_NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "once": "1x",
    "twice": "2x",
}


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


FILLER = _set(
    "a an the this that these those it its is are was were be been being am to of "
    "i you we me my your our us myself yourself please just also really very "
    "because since as so should"
)
"""Words whose presence or absence does not change a lesson (for :func:`same_meaning`)."""

_NEGATIONS = _set("not no never none nothing nobody nowhere neither nor without")
_QUANTIFIERS = _set(
    "always only every each all any some most least more less fewer many few first last "
    "sometimes often rarely seldom usually"
)
_DIRECTIONS = _set(
    "up down left right north south east west top bottom above below upward downward "
    "upwards downwards before after earlier later early late clockwise counterclockwise "
    "anticlockwise horizontal horizontally vertical vertically diagonal diagonally"
)
MARKERS = _NEGATIONS | _QUANTIFIERS | _DIRECTIONS
"""Words a merged lesson must keep from its sources, besides numbers (:func:`lost_markers`)."""

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)?")
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
)


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    out = []
    for word in _WORD.findall(text):
        word = _NUMBER_WORDS.get(word, word)
        if word.endswith("'s"):
            word = word[:-2]
        out.append(word)
    return out


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """The words :func:`same_meaning` compares, in order.

    Example:
        >>> content_words("Don't hit the walls: it costs three lives!")
        ['do', 'not', 'hit', 'wall', 'cost', '3', 'live']
    """
    return [_singular(w) for w in _words(text) if w not in FILLER]


def same_meaning(first: str, second: str) -> bool:
    """Whether two lessons differ at most in wording that cannot change their meaning.

    Example:
        >>> same_meaning("Avoid walls, because each hit costs 3 lives.",
        ...              "avoid the walls since each hit costs three lives")
        True
        >>> same_meaning("Always move right first.", "Never move right first.")
        False
        >>> same_meaning("You have 3 lives.", "You have 2 lives.")
        False
    """
    return content_words(first) == content_words(second)


def markers(text: str) -> set[str]:
    """The numbers, negations, quantifiers and direction words of a lesson.

    Example:
        >>> sorted(markers("Never move left more than 2 cells; don't hit walls."))
        ['2', 'left', 'more', 'never', 'not']
    """
    return {w for w in _words(text) if w in MARKERS or w[:1].isdigit()}


def lost_markers(text: str, sources: Iterable[str]) -> list[str]:
    """Markers of ``sources`` that ``text`` does not keep (sorted; empty: none lost).

    Example:
        >>> lost_markers("Never move right first.",
        ...              ["Always move right first.", "Never move right first."])
        ['always']
    """
    kept = markers(text)
    return sorted({m for source in sources for m in markers(source)} - kept)
