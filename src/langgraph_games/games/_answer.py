"""Reading the one action a model's answer names: the rule every GAMEBoT game shares.

A game says *where* its answer text names actions (:class:`Mention`: a span and the
action it names, legal or not); :func:`read_answer` applies one rule to those mentions:

- **Final labels** (``Chosen Move``, ``Chosen Action``, ``[Action]``, ``Proposal:``) count
  only where they stand as labels, not where a remark repeats their words ("this chosen
  action avoids a fold"): a label counts where it *opens a line* (after optional
  Markdown, a bullet or a number: ``3. **Chosen Move**:``, ``### Chosen Action``) and is
  not followed there by a word, or where it *directly precedes its colon* (``... so my
  Chosen Move: (1,1)``). A one-word label (``Action:``, ``Proposal:``) counts only where
  it opens a line; a label in brackets (``[Action]``) wherever it stands, since no remark
  writes it. The last label that counts wins.
- **With a label**, only the text after it counts, and the answer is the *first* action
  named there. Actions that follow it with nothing but list punctuation and alternatives
  between them (spaces, line breaks, digits, ``, ; / | & + - > *`` brackets, quotes, and
  the words ``or``, ``and``, ``then``, ``maybe``, ``perhaps``, ``possibly``,
  ``alternatively``, ``otherwise``, ``either``, ``also``, ``vs``) belong to the answer
  too; if they name a *different* action the answer is **ambiguous**. Anything else
  starts commentary, which is ignored: a word (``Chosen Move: (1,1) because it blocks
  (0,0)-(2,2)`` plays ``(1,1)``), or a bracket opened after the answer that holds a word
  (``Chosen Action: Move Left (Move Up would be unsafe)`` plays ``Move Left``; the actions
  inside it are commentary too). A bracket that holds only actions (``[Agree] or [P1:
  ...]``) is part of the answer.
- **Without a label** the whole answer is the final section, and it must name one
  action only (however often): an answer naming two different actions anywhere is
  ambiguous, since nothing says which of them was chosen.

A mention that repeats the same action (``1 - Move Up``, ``(4,3) i.e. column 3``) is not
a second action. Where an answer is a yes/no (Negotiation's ``Agree``) the game's
mention finder leaves out negated mentions (``I do not agree``; see
:func:`negated`). Readers never convert an unbounded digit run to ``int``: the games'
patterns bound every number they read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import Enum
from typing import NamedTuple

__all__ = [
    "AnswerStatus",
    "Mention",
    "Reading",
    "RegexMentions",
    "label_counts",
    "negated",
    "read_answer",
    "regex_mentions",
]


class Mention(NamedTuple):
    """Where an answer names an action.

    Attributes:
        start: Offset of the mention in the text searched.
        end: Offset just after it.
        action: The canonical action named (or, when it is no action of the game at all,
            a normalised spelling of what was written); equal strings mean the same action.
    """

    start: int
    end: int
    action: str


class AnswerStatus(str, Enum):
    """What :func:`read_answer` found."""

    FOUND = "found"  # exactly one action is named
    NONE = "none"  # no action is named
    AMBIGUOUS = "ambiguous"  # the answer names two or more different actions


class Reading(NamedTuple):
    """The result of :func:`read_answer`.

    Attributes:
        status: Found, none or ambiguous.
        action: The action named when ``status`` is found, else ``None``.
        named: The different actions the answer names, in order (two or more when
            ambiguous).
        labelled: Whether a final label was found (the answer is the text after it).
        legal: Whether ``action`` is legal now (set by
            :meth:`~langgraph_games.games.base.Game.read_action`; ``False`` otherwise).
    """

    status: AnswerStatus
    action: str | None
    named: tuple[str, ...]
    labelled: bool
    legal: bool = False


_SPACES = re.compile(r"\s+")
_JOINERS = r"or|and|then|maybe|perhaps|possibly|alternatively|otherwise|either|also|vs|versus"
_GAP = re.compile(rf"(?:[\s\d,;/|&+\-–—>*_#`'\"“”‘’()\[\]{{}}]|\b(?:{_JOINERS})\b)*", re.I)
_OPENING = "([{"
_CLOSING = ")]}"
_BRACKETS = re.compile(r"[()\[\]{}]")

# What may stand between the start of a line and a label that opens it: spaces, Markdown
# (``#``, ``*``, ``_``, ``>``, backticks), a bullet and a number (``3.``, ``2)``). One
# character class under one quantifier, matched against at most _PREFIX_WINDOW characters.
_LINE_PREFIX = re.compile(r"[ \t#*_>`+\-–—•·.)|\d]*")
_PREFIX_WINDOW = 80
# After a label: its colon, past closing Markdown (``**Chosen Move**:``, ``[Chosen Move]:``).
_COLON_AFTER = re.compile(r"[ \t*_`'\"\])]*[:：]")
# After a label that opens a line: a word on the same line, past spaces and Markdown.
_WORD_AFTER = re.compile(r"[ \t*_#`]*[^\W\d_]")
_LABEL_WORDS = re.compile(r"[^\W_]+")


def _same_answer(gap: str) -> bool:
    """Whether ``gap`` holds only list punctuation and words that join alternatives."""
    return _GAP.fullmatch(gap) is not None


def _opens_line(text: str, start: int) -> bool:
    """Whether only Markdown, a bullet or a number stand before ``start`` on its line."""
    low = max(0, start - _PREFIX_WINDOW)
    newline = text.rfind("\n", low, start)
    if newline < 0 and low > 0:
        return False  # a longer prefix than any heading or numbering has
    return _LINE_PREFIX.fullmatch(text, newline + 1, start) is not None


def label_counts(text: str, label: re.Match[str]) -> bool:
    """Whether a match of a final label in ``text`` stands as a label (see the module).

    A label counts where it opens a line and is not followed there by a word (unless it
    ends in its colon, as ``Proposal:`` does), or, for labels of two words or more, where
    it directly precedes its colon anywhere. A label in brackets (``[Action]``) is
    delimited by them as by a colon, and counts wherever it stands.

    Example:
        >>> import re
        >>> label = re.compile("Chosen Move", re.I)
        >>> [label_counts(t, label.search(t)) for t in (
        ...     "1. **Chosen Move**: (1,1)", "so my Chosen Move: (1,1)",
        ...     "This chosen move wins", "Chosen move explanation: (0,0) was taken")]
        [True, True, False, False]
    """
    start, end = label.span()
    written = label.group(0).strip()
    if written.startswith("[") and written.endswith("]"):
        return True  # its brackets delimit it, as a colon does: no remark writes them
    own_colon = written.endswith((":", "："))
    colon = own_colon or _COLON_AFTER.match(text, end) is not None
    if _opens_line(text, start):
        return colon or _WORD_AFTER.match(text, end) is None
    return colon and len(_LABEL_WORDS.findall(written)) > 1


def _last_label(text: str, label: re.Pattern[str]) -> re.Match[str] | None:
    last = None
    for match in label.finditer(text):
        if label_counts(text, match):
            last = match
    return last


def _answer_part(region: str, found: list[Mention]) -> list[Mention]:
    """The first mention and those that continue it as a list, commentary left out.

    A gap that is not list punctuation ends the answer. Brackets opened after the first
    mention are tracked: when the answer ends inside one (``(Move Up would be unsafe)``),
    the bracket is a remark, and the mentions in it are left out.
    """
    answer = found[:1]
    opened: list[int] = []
    end = found[0].end
    for mention in [*found[1:], None]:
        stop = len(region) if mention is None else mention.start
        gap = _GAP.match(region, end, stop)
        gap_end = end if gap is None else gap.end()
        for bracket in _BRACKETS.finditer(region, end, gap_end):
            if bracket.group(0) in _OPENING:
                opened.append(bracket.start())
            elif opened:
                opened.pop()
        if gap_end < stop:  # commentary starts here
            if opened:
                answer = [m for m in answer if m.start < opened[0]]
            break
        if mention is None:
            break
        answer.append(mention)
        end = mention.end
    return answer


def read_answer(
    text: str, label: re.Pattern[str] | None, find: Callable[[str], Iterable[Mention]]
) -> Reading:
    r"""Apply the answer rule (see the module docstring) to ``text``.

    Args:
        text: The model's whole answer.
        label: The final label(s) as one pattern (``None``: answers have no label); a
            match counts only where :func:`label_counts` says it stands as a label.
        find: Gives the non-overlapping mentions of a piece of text; it is called on the
            text after the last label (or on the whole text when there is none).

    Returns:
        The reading.

    Example:
        >>> import re
        >>> find = regex_mentions([(re.compile(r"\(\d,\d\)"), None)])
        >>> label = re.compile("Chosen Move", re.I)
        >>> read_answer("Chosen Move: (1,1) as it blocks (0,0)-(2,2)", label, find).action
        '(1,1)'
        >>> read_answer("Chosen Move: (1,1) ((2,2) loses)", label, find).action
        '(1,1)'
        >>> read_answer("Chosen Move: (1,1)\nThis chosen move beats (2,2)", label, find).action
        '(1,1)'
        >>> read_answer("Chosen Move: (1,1) or (2,2)", label, find).named
        ('(1,1)', '(2,2)')
    """
    last = None if label is None else _last_label(text, label)
    region = text if last is None else text[last.end() :]
    found = sorted(find(region))
    if not found:
        return Reading(AnswerStatus.NONE, None, (), last is not None)
    answer = found if last is None else _answer_part(region, found)
    named = tuple(dict.fromkeys(m.action for m in answer))
    if len(named) > 1:
        return Reading(AnswerStatus.AMBIGUOUS, None, named, last is not None)
    return Reading(AnswerStatus.FOUND, named[0], named, last is not None)


_NEGATORS = frozenset(
    {"not", "no", "never", "cannot", "nor", "neither", "without", "refuse", "decline"}
)
_CLAUSE_END = re.compile(r"[.,;:!?()\[\]{}\n]")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_NEGATION_WINDOW = 40
_NEGATION_WORDS = 3


def negated(text: str, start: int) -> bool:
    """Whether a yes/no answer mentioned at ``start`` is negated in its own clause.

    One of the three words before it (in the same clause, no further than 40 characters
    back) is a negation: ``not``, ``no``, ``never``, ``cannot``, ``nor``, ``neither``,
    ``without``, ``refuse``, ``decline`` or a word ending in ``n't``.

    Example:
        >>> [negated(t, t.index("agree")) for t in (
        ...     "I do not agree", "I don't really agree", "No, I agree", "[agree]")]
        [True, True, False, False]
    """
    window = text[max(0, start - _NEGATION_WINDOW) : start]
    clause = window
    for clause_end in _CLAUSE_END.finditer(window):
        clause = window[clause_end.end() :]
    words = [w.lower() for w in _WORD.findall(clause)][-_NEGATION_WORDS:]
    return any(w in _NEGATORS or w.endswith(("n't", "n’t")) for w in words)


Action = str | Callable[[re.Match[str]], str] | None
"""What a pattern's match names: a fixed action, a function of the match, or (``None``) the
matched text itself with its spaces removed."""


def regex_mentions(
    patterns: Iterable[tuple[re.Pattern[str], Action]], starts: str | None = None
) -> RegexMentions:
    r"""A mention finder from ``(pattern, action)`` pairs.

    Where several patterns match at one position the earlier pair wins, so list longer
    phrases before their parts (``move up`` before ``up``).

    Args:
        patterns: The pairs, in order of precedence.
        starts: A pattern for one character that every match of every pattern starts
            with (``r"(?i:[mu])"`` for ``move\s*up`` and ``\bup\b`` read in any case), or
            ``None``. The patterns are then tried only where such a character stands,
            which reads a long answer many times faster; it must not exclude any place a
            pattern could match.
    """
    return RegexMentions(tuple(patterns), starts)


class RegexMentions:
    """Finds mentions with one combined pattern (see :func:`regex_mentions`).

    Attributes:
        patterns: The ``(pattern, action)`` pairs.
        combined: All the patterns as one, each in its own named group.
        scan: What :meth:`__call__` searches with: ``combined`` tried only where a
            character of ``starts`` stands (``combined`` itself without ``starts``).
    """

    def __init__(
        self, patterns: tuple[tuple[re.Pattern[str], Action], ...], starts: str | None = None
    ) -> None:
        self.patterns = patterns
        parts = []
        for i, (pattern, _) in enumerate(patterns):
            body = f"(?i:{pattern.pattern})" if pattern.flags & re.I else pattern.pattern
            parts.append(f"(?P<a{i}>{body})")
        self.combined = re.compile("|".join(parts))
        # A lookahead of one character fails at once where no pattern can start; without
        # it every position tries every alternative.
        self.scan = (
            self.combined
            if starts is None
            else re.compile(f"(?={starts})(?:{self.combined.pattern})")
        )

    def __call__(self, region: str) -> list[Mention]:
        """The mentions in ``region``, left to right."""
        found = []
        for match in self.scan.finditer(region):
            pattern, action = self.patterns[int(str(match.lastgroup)[1:])]
            if action is None:
                name = _SPACES.sub("", match.group(0))
            elif isinstance(action, str):
                name = action
            else:
                own = pattern.fullmatch(match.group(0))
                name = action(own) if own is not None else _SPACES.sub("", match.group(0))
            found.append(Mention(match.start(), match.end(), name))
        return found
