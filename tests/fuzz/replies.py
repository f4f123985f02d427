"""Seeded generators of hostile model replies, for fuzzing every reader of model output.

A reply is built from pieces of a few kinds: huge digit runs (past Python's 4,300-digit
``int()`` limit), binary and NUL, Unicode digits and look-alikes of ASCII, deeply nested
brackets, answer labels and moves (also repeated), words and punctuation. :func:`reply`
draws one reply of up to a few kilobytes; :data:`WORST` makes the worst shapes at any
size (:data:`LARGE`: at one megabyte), the inputs that expose a reader whose time grows
faster than the text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import lru_cache

__all__ = ["LARGE", "SAFE_TAIL", "WORST", "replies", "reply", "tail"]

DIGITS = ("0", "7", "12", "007", "-3", "+4", "1.5", "9" * 19, "0" * 30 + "5", "9" * 4301)
UNICODE_DIGITS = ("١٢", "٣", "߁", "𝟓", "²", "①", "Ⅻ", "１２", "۵", "৩", "๓", "〇")
CONFUSABLES = (
    "Сhosen Мove:",  # Cyrillic С and М
    "（１，１）",  # full-width brackets, digits and comma
    "Action：３",
    "\u200bChosen\u200b Move:",  # zero-width spaces
    "\u202eevoM nesohC",  # right-to-left override
    "ﬁnal",
    "e\u0301",
    "Ｃｈｏｓｅｎ Ｍｏｖｅ:",
    "\ufeff",
)
BINARY = (
    "\x00",
    "\x00" * 7,
    "\x1b[31m",
    "\x7f\x80\x81",
    "\ud800",
    "\udfff",
    "\uffff",
    "\U0010ffff",
)
BRACKETS = (
    "[" * 50,
    "]" * 50,
    "(" * 30,
    ")" * 30,
    "{" * 40,
    "}" * 40,
    '{"action":' * 20,
    '{"action": {"type": "eliminate", "pos": [',
    "[[[(1,1)]]]",
    "```json",
    "```",
    "((((((1,1))))))",
    "[Intermediate Thinking Results 1: [[[",
)
LABELS = (
    "Chosen Move:",
    "**Chosen Move:**",
    "Chosen Action:",
    "[Action]",
    "Action:",
    "Proposal:",
    "[Intermediate Thinking Results 1:",
    "Intermediate Thinking Results 2:",
    "**Intermediate Thinking Results 3:**",
    "choice:",
    "I choose action:",
    "MERGED:",
    "Experience Summary:",
    "Strengths:",
    "Weaknesses:",
    "Next time, I should",
    "Due to",
    "1.",
    "- ",
    "r,",
    "f,",
)
MOVES = (
    "(1,1)",
    "(0,2)",
    "( 2 , 2 )",
    "(3,3)",
    "(C,4)",
    "D3",
    "(2,3)->(3,4)",
    "(5,0)-(4,1)",
    "Move Up",
    "Move Down",
    "Move Left",
    "Stay Still",
    "up",
    "Raise Full Pot",
    "Check and Call",
    "Fold",
    "All in",
    "Agree",
    "P1: (1,2,3), P2: (3,2,1)",
    "Player1: [4, 0, 2] and Player2: [0, 4, 1]",
    "r,0,0",
    "f,3,4",
    "r, 99, 1",
    "Place Table",
    "Do",
    "Noop",
    "Move West",
    "Rock",
    "Paper",
    "pull lever 2",
    "move 1 from A to C",
    "Action: 9",
    "move up 2 steps",
    '{"action": {"type": "eliminate", "pos": [4, 3]}}',
    '```json\n{"action": {"type": "row", "index": 2}}\n```',
    '{"action": null}',
    "None",
    "True",
    "a=1, b=2",
)
WORDS = (
    "the",
    "because",
    "and",
    "or",
    "I think",
    "then",
    "maybe",
    "\n",
    " ",
    "  ",
    "\t",
    "**",
    "#",
    "--",
    "->",
    ",",
    ";",
    ".",
    ":",
    "'",
    '"',
    "`",
    "\\",
    "\r\n",
    "...",
)
KINDS = (DIGITS, UNICODE_DIGITS, CONFUSABLES, BINARY, BRACKETS, LABELS, MOVES, WORDS)
RUN_CHARS = " \n\t*#-_,.:;[](){}\"'`\\09a>\x00٣"


def _pieces(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(rng.choice(KINDS)) for _ in range(count))


def reply(rng: random.Random) -> str:
    """One hostile reply (mostly short; runs of one piece reach 2,000 characters)."""
    shape = rng.random()
    if shape < 0.45:
        return _pieces(rng, rng.randint(1, 14))
    if shape < 0.60:
        run = rng.choice(RUN_CHARS) if rng.random() < 0.6 else rng.choice(rng.choice(KINDS))
        times = rng.randint(1, max(1, 2_000 // len(run)))  # runs of up to 2,000 characters
        return _pieces(rng, rng.randint(0, 3)) + run * times + _pieces(rng, 3)
    if shape < 0.70:
        return "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(1, 60)))
    if shape < 0.78:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))).decode("latin-1")
    if shape < 0.83:
        return rng.choice(("", " ", "\n", "\x00", "   \n\t  "))
    label, move = rng.choice(LABELS), rng.choice(MOVES)
    return f"{_pieces(rng, rng.randint(0, 6))}\n{label} {move}{_pieces(rng, rng.randint(0, 4))}"


def replies(seed: int, count: int) -> Iterator[str]:
    """``count`` replies from a generator seeded with ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield reply(rng)


_LETTERS = re.compile(r"[^\W\d_]+")

SAFE_TAIL = " because "
"""What separates an answer from the text after it in the tail property (a word that
starts commentary under every labelled rule)."""


def tail(rng: random.Random) -> str:
    """Text to put after a final answer: hostile, but naming no action and no label.

    Letters are taken out of the pieces (every action and label needs some), so what
    remains is digits of every script, brackets, binary, punctuation and space.
    """
    return SAFE_TAIL + _LETTERS.sub("", _pieces(rng, rng.randint(1, 10)))


def _repeat(unit: str) -> Callable[[int], str]:
    """A shape of ``unit`` over and over, cut at the size asked for."""
    return lambda size: (unit * (size // len(unit) + 1))[:size]


def _between(head: str, run: str, end: str = "") -> Callable[[int], str]:
    """A shape of ``head``, then ``run`` up to the size asked for, then ``end``."""
    return lambda size: head + run * max(0, size - len(head) - len(end)) + end


@lru_cache(maxsize=1)
def _mixed() -> str:
    return _pieces(random.Random(0), 120_000)


MB = 1_000_000
WORST: dict[str, Callable[[int], str]] = {
    "digits": _repeat("9"),
    "spaces": _repeat(" "),
    "newlines": _repeat("\n"),
    "stars": _repeat("*"),
    "dashes": _repeat("-"),
    "open brackets": _repeat("["),
    "close brackets": _repeat("]"),
    "open braces": _repeat("{"),
    "nested objects": _repeat('{"action":'),
    "fence then spaces": _between("```json", " "),
    "labels": _repeat("Chosen Move: "),
    "tags": _repeat("[Intermediate Thinking Results 1: "),
    "proposal then spaces": _between("P1: (1,2,3)", " "),
    "letters": _repeat("a"),
    "word then spaces": _between("a", " ", "1"),
    "nul": _repeat("\x00"),
    "triple prefix": _between("r,", "1"),
    "moves": _repeat("(1,1) "),
    "numbered lines": _repeat("1. "),
    "square then spaces": _between("(C", " ", "x"),
    "move then spaces": _between("(1,1)-", " ", "x"),
    "action then spaces": _between("check", " ", "x"),
    "mixed": lambda size: _mixed()[:size],
}
"""The shapes that make a careless reader slow, each a reply of the size asked for: long
runs of one character, one piece repeated, or a piece that starts a pattern followed by a
long run that the pattern's optional parts could each take (``(C`` then spaces: an
Othello square whose comma and row never come)."""

LARGE: dict[str, str] = {name: shape(MB) for name, shape in WORST.items()}
"""The worst shapes at one megabyte."""
