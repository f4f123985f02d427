"""Reading the one action a model's answer names: the rule every GAMEBoT game shares.

A game says *where* its answer text names actions (:class:`Mention`: a span and the
action it names, legal or not); :func:`read_answer` applies one rule to those mentions:

- **With a final label** (``Chosen Move``, ``Chosen Action``, ``[Action]``,
  ``Proposal:``): only the text after the *last* label counts, and the answer is the
  *first* action named there. Actions that follow it with nothing but list punctuation
  and alternatives between them (spaces, line breaks, digits, ``, ; / | & + - > *``
  brackets, quotes, and the words ``or``, ``and``, ``then``, ``maybe``, ``perhaps``, ``possibly``,
  ``alternatively``, ``otherwise``, ``either``, ``also``, ``vs``) belong to the answer too;
  if they name a *different* action the answer is **ambiguous**. Anything else (a word
  such as "because", a sentence in brackets) starts commentary, which is ignored:
  ``Chosen Move: (1,1) because it blocks (0,0)-(2,2)`` plays ``(1,1)``.
- **Without a label** the whole answer is the final section, and it must name one
  action only (however often): an answer naming two different actions anywhere is
  ambiguous, since nothing says which of them was chosen.

A mention that repeats the same action (``1 - Move Up``, ``(4,3) i.e. column 3``) is not
a second action. Readers never convert an unbounded digit run to ``int``: the games'
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


def _same_answer(gap: str) -> bool:
    """Whether ``gap`` holds only list punctuation and words that join alternatives."""
    return _GAP.fullmatch(gap) is not None


Action = str | Callable[[re.Match[str]], str] | None
"""What a pattern's match names: a fixed action, a function of the match, or (``None``) the
matched text itself with its spaces removed."""


def read_answer(
    text: str, label: re.Pattern[str] | None, find: Callable[[str], Iterable[Mention]]
) -> Reading:
    r"""Apply the answer rule (see the module docstring) to ``text``.

    Args:
        text: The model's whole answer.
        label: The final label(s) as one pattern (``None``: answers have no label).
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
        >>> read_answer("Chosen Move: (1,1) or (2,2)", label, find).named
        ('(1,1)', '(2,2)')
    """
    last = None
    if label is not None:
        for last in label.finditer(text):  # noqa: B007 - the last match is wanted
            pass
    region = text if last is None else text[last.end() :]
    found = sorted(find(region))
    if not found:
        return Reading(AnswerStatus.NONE, None, (), last is not None)
    answer = found[:1]
    for mention in found[1:]:
        if last is not None and not _same_answer(region[answer[-1].end : mention.start]):
            break
        answer.append(mention)
    named = tuple(dict.fromkeys(m.action for m in answer))
    if len(named) > 1:
        return Reading(AnswerStatus.AMBIGUOUS, None, named, last is not None)
    return Reading(AnswerStatus.FOUND, named[0], named, last is not None)


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
