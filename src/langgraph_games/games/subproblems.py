"""GAMEBoT intermediate answers: extraction from free text and scoring against ground truth.

GAMEBoT prompts ask the model to answer each subproblem in a tagged line such as
``[Intermediate Thinking Results 1: (0,2), (1,1)]``. This module finds those answers,
parses them by the subproblem's kind and scores them against the rule-based ground truth:
F1 for set (and yes/no) answers and accuracy for scalar answers, as in the paper.

An answer is read for the value its kind declares, not for its first digit run: a number
is one that stands on its own (``T9s`` and ``P1`` are names, not numbers); a percentage is
the number written with ``%`` (``T9s: 52.4%`` reads 52.4), an equation's value its result
(``2*2+5*1=9`` reads 9), a coordinate the named axis or the place in a point (``y = 136``
and ``(140, 136)`` read 136 for a y); a label is the one accepted label named
(``the ball moves Right Up`` reads ``right up``). See :func:`parse_answer`.

Aggregation over a game (the paper's released code left it out; our decision, recorded in
``docs/decisions.md``): each decision yields TP/FP/FN/TN counts per subproblem. For F1
subproblems the game's score is the micro-F1 ``2TP / (2TP + FP + FN)`` over all its
decisions; a decision where both the answer and the truth are empty is a true negative
(scored 1.0 on its own, and adding nothing to the micro counts). A missing or unparsable
answer scores 0 and counts as a miss (every truth item a false negative; a false positive
when the truth is empty). For accuracy subproblems the score is the fraction correct.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache, partial
from typing import Any, Literal, NamedTuple

from typing_extensions import TypedDict

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.games._numbers import read_int, read_number

__all__ = [
    "Answer",
    "AnswerKind",
    "Keep",
    "Metric",
    "ScoreCounts",
    "Subproblem",
    "SubproblemScore",
    "add_counts",
    "aggregate_counts",
    "aggregate_scores",
    "count_scores",
    "extract_intermediate",
    "normalize_item",
    "parse_answer",
    "score_answer",
]

Answer = frozenset[str] | bool | float | str | tuple[tuple[str, int], ...]
"""A ground-truth or parsed answer: a set of items, a yes/no, a number, a label or a mapping."""


class AnswerKind(str, Enum):
    """How an answer is written and parsed."""

    SET = "set"  # items such as "(0,2), (1,1)" or "None"
    BOOL = "bool"  # "True" / "False"
    NUMBER = "number"  # "35.7%", "15", "104.5"
    LABEL = "label"  # a short phrase such as "Left Down"
    MAPPING = "mapping"  # "Up 0, Down 1, Left -1, Right 0"


class Metric(str, Enum):
    """How a subproblem is scored (paper Appendix C)."""

    F1 = "f1"
    ACCURACY = "accuracy"


@dataclass(frozen=True)
class Subproblem:
    """One GAMEBoT subproblem of a game.

    Attributes:
        index: The ``k`` of ``[Intermediate Thinking Results k: ...]``.
        name: Short name, e.g. ``"my_winning_moves"``.
        kind: How the answer is written.
        metric: F1 or accuracy.
        question: What is asked, in one sentence.
        answer_format: The format the prompt asks for.
        item_pattern: For set answers, a regex matching one item.
        tolerance: For numbers, the largest accepted absolute error.
        scored: Whether the subproblem counts toward I (the paper leaves some out).
        unit: For numbers written with a unit (``"%"``): the number followed by it is
            the value (``T9s: 52.4%`` reads 52.4).
        coordinate: For a number that is one coordinate of a point, its place in
            ``(x, y)``: 0 for x, 1 for y (``y = 136`` and ``(140, 136)`` read 136).
        choices: For labels, the accepted labels: an answer that names exactly one of
            them reads as it (``the ball moves Right Up`` reads ``right up``).
    """

    index: int
    name: str
    kind: AnswerKind
    metric: Metric
    question: str
    answer_format: str
    item_pattern: str | None = None
    tolerance: float = 0.0
    scored: bool = True
    unit: str | None = None
    coordinate: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class SubproblemScore:
    """The score of one intermediate answer.

    Attributes:
        index: Subproblem index.
        answered: Whether an answer was found and parsed.
        parsed: The parsed answer (JSON-friendly), or ``None``.
        truth: The ground truth (JSON-friendly).
        correct: Exact agreement with the truth.
        value: F1 or accuracy of this single answer, in [0, 1].
        tp: True positives. fp: False positives. fn: False negatives. tn: True negatives.
    """

    index: int
    answered: bool
    parsed: JsonValue
    truth: JsonValue
    correct: bool
    value: float
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    metric: str = field(default=Metric.F1.value)

    def to_dict(self) -> JsonObject:
        """JSON-friendly form for trajectories."""
        return {
            "index": self.index,
            "answered": self.answered,
            "parsed": self.parsed,
            "truth": self.truth,
            "correct": self.correct,
            "value": self.value,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "metric": self.metric,
        }


# Indices and mapping values are bounded digit runs, so int() never sees a huge one. No
# pattern has two quantifiers that can match the same characters in a row (such as the
# ``\s*\**\s*`` before the tag that was once here), which on a long run of spaces backtrack
# in cubic time: what may precede a tag (``[``, spaces, ``*``) is read backwards instead.
_TAG = re.compile(r"Intermediate\s+Thinking\s+Results?\s*(\d{1,4})[\s*]*[:：]", re.I)
_NONE_WORDS = {"none", "no", "n/a", "na", "nothing", "empty", "[]", "{}", "null", "-"}
_NUMBER = re.compile(r"(\d+)(?:\.(\d+))?")
_AXES = ("x", "y")
_AXIS_BEFORE = re.compile(r"(?<![^\W\d_])([xy])\s{0,3}(?:[=:]\s{0,3})?$", re.I)
_COORDINATE = r"(-?\d{1,18}(?:\.\d{1,18})?)"
_POINT = re.compile(rf"\(\s{{0,3}}{_COORDINATE}\s{{0,3}},\s{{0,3}}{_COORDINATE}\s{{0,3}}\)")
_SPACES_AT = re.compile(r" {0,3}")
_CLAUSE_END = re.compile(r"[,;\n]")
_OPERATOR_AFTER = re.compile(r"\s{0,3}[-+*/×÷^]")
_ARROW = re.compile(r"-+>?")
_PAIR = re.compile(r"(?<![A-Za-z])([A-Za-z]+)\s*(?:[:=]\s*)?(-?\d{1,9})(?!\d)")
_SEPARATOR = re.compile(r"[,;]")
_SPACE = re.compile(r"\s+")


Keep = Literal["first", "last"]
"""Which of several answers to one tag :func:`extract_intermediate` keeps."""


def extract_intermediate(
    text: str, subproblems: Iterable[Subproblem] = (), *, keep: Keep = "last"
) -> dict[int, str]:
    """Find every ``[Intermediate Thinking Results k: ...]`` answer in ``text``.

    Where a tag is answered several times, ``keep`` says which answer counts: ``"first"``
    (GAMEBoT's released checkers, which take the first match of each tag, and the GAMEBoT
    graph) or ``"last"`` (the default, for readers whose models restate a result at the
    end). With the game's ``subproblems``, only an answer that reads as a value of its
    subproblem's kind competes (:func:`parse_answer`): a restated format such as
    ``(X,X), (X,X), ...`` or ``XX.X%`` is passed over; when no answer to a tag reads,
    the first (or last) one is kept as written, and scores as unreadable.

    Brackets inside the answer are balanced; a tag without a closing bracket ends at
    the end of its line. An answer also ends where the next tag starts, so answers never
    overlap and reading a reply takes time linear in its length, whatever it holds.

    Args:
        text: The reply.
        subproblems: The game's subproblems (none: every answer competes).
        keep: ``"first"`` or ``"last"``.

    Returns:
        The answer text of each tag index.

    Example:
        >>> extract_intermediate("[Intermediate Thinking Results 1: (0,1), (2,2)] ok")
        {1: '(0,1), (2,2)'}
        >>> two = "[Intermediate Thinking Results 1: 12] [Intermediate Thinking Results 1: 14]"
        >>> extract_intermediate(two), extract_intermediate(two, keep="first")
        ({1: '14'}, {1: '12'})
    """
    if keep not in ("first", "last"):
        raise ValueError(f"keep must be 'first' or 'last', got {keep!r}")
    tags = list(_TAG.finditer(text))
    answers: dict[int, list[str]] = {}
    starts = [_tag_start(text, match.start()) for match in tags]
    for k, match in enumerate(tags):
        limit = starts[k + 1][0] if k + 1 < len(tags) else len(text)
        bracketed = starts[k][1]
        start = match.end()
        end = _answer_end(text, start, limit, bracketed)
        # \d{1,4}: the index is a bounded digit run, so int() is safe
        answers.setdefault(int(match.group(1)), []).append(
            text[start:end].strip().strip("*").strip()
        )
    by_index = {sub.index: sub for sub in subproblems}
    found: dict[int, str] = {}
    for index, given in answers.items():
        order = given if keep == "first" else given[::-1]
        sub = by_index.get(index)
        readable = (a for a in order if sub is None or parse_answer(sub, a) is not None)
        found[index] = next(readable, order[0])
    return found


def _tag_start(text: str, at: int) -> tuple[int, bool]:
    """Where the tag whose words start at ``at`` begins, and whether a ``[`` opens it.

    A tag may be preceded by spaces, then Markdown ``*``, then spaces, then ``[``.
    """
    start = at
    while start > 0 and text[start - 1].isspace():
        start -= 1
    while start > 0 and text[start - 1] == "*":
        start -= 1
    while start > 0 and text[start - 1].isspace():
        start -= 1
    if start > 0 and text[start - 1] == "[":
        return start - 1, True
    return start, False


_BRACKET_OR_LINE = re.compile(r"[\[\]\n]")


def _answer_end(text: str, start: int, limit: int, bracketed: bool) -> int:
    """Where the answer from ``start`` ends, looking no further than ``limit``."""
    depth = 0
    line_end = None
    for mark in _BRACKET_OR_LINE.finditer(text, start, limit):
        ch = mark.group(0)
        if ch == "[":
            depth += 1
        elif ch == "]":
            if depth == 0:
                return mark.start()
            depth -= 1
        elif not bracketed:
            return mark.start()
        elif line_end is None:
            line_end = mark.start()
    return limit if line_end is None else line_end


def normalize_item(item: str) -> str:
    """Canonical form of a set item: no spaces, ``->`` arrows, upper-case letters.

    Example:
        >>> normalize_item("( 2, 1 ) - ( 3,0 )")
        '(2,1)->(3,0)'
    """
    return _ARROW.sub("->", _SPACE.sub("", item)).upper()


class _Number(NamedTuple):
    start: int
    end: int
    value: float


def _numbers(text: str) -> list[_Number]:
    """The numbers that stand on their own in ``text``, left to right.

    A digit run glued to a letter (``T9s``, ``P1``, ``2nd``) is part of a name, and one
    that reads as no bounded number (see :func:`read_number`) is left out. A ``-`` counts
    as a sign where no word or number stands right before it.
    """
    found = []
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if before.isalnum() or before in "._" or after.isalnum() or after == "_":
            continue
        whole = match[1]
        if before == "-" and not _ends_term(text, start - 1):
            whole, start = "-" + whole, start - 1
        value = read_number(whole, match[2] or "")
        if value is not None:
            found.append(_Number(start, end, value))
    return found


def _ends_term(text: str, at: int) -> bool:
    """Whether a word, number or closing bracket ends right before ``at`` (``5-3``)."""
    return at > 0 and (text[at - 1].isalnum() or text[at - 1] in ")]._")


def _read_number(sub: Subproblem, text: str) -> float | None:
    """The value a number answer gives, by what the subproblem declares it to be.

    In order: the number written with the subproblem's unit (``52.4%``); for a
    coordinate, the value given to its axis name (``y = 136``, ``y = 120 + 16 = 136``) or
    the number at its place in a point (``(140, 136)``); then the answer's result (see
    :func:`_result`).
    """
    numbers = _numbers(text)
    if sub.unit:
        for number in numbers:
            spaces = _SPACES_AT.match(text, number.end)  # matches, if only nothing
            if spaces is not None and text.startswith(sub.unit, spaces.end()):
                return number.value
    if sub.coordinate is not None:
        axis = _AXES[sub.coordinate]
        for number in numbers:
            named = _AXIS_BEFORE.search(text, max(0, number.start - 8), number.start)
            if named is not None and named[1].lower() == axis:
                stop = _CLAUSE_END.search(text, number.end)
                end = len(text) if stop is None else stop.start()
                clause = [n for n in numbers if number.start <= n.start < end]
                return _result(text, clause, number.start, end)
        point = _POINT.search(text)
        if point is not None:
            whole, _, fraction = point[sub.coordinate + 1].partition(".")
            return read_number(whole, fraction)
    return _result(text, numbers, 0, len(text))


def _result(text: str, numbers: list[_Number], start: int, end: int) -> float | None:
    """The value ``text[start:end]`` (whose numbers are ``numbers``) comes to.

    An equation's result, the number after its last ``=`` when no operator follows it
    (``2*2+5*1 = 9``; not ``9 (= 2*2+5*1)``), else the first number.
    """
    equals = text.rfind("=", start, end)
    if equals >= 0:
        result = next((n for n in numbers if n.start > equals), None)
        if result is not None and _OPERATOR_AFTER.match(text, result.end) is None:
            return result.value
    return numbers[0].value if numbers else None


def _read_label(sub: Subproblem, lowered: str) -> str | None:
    """A label answer: the one accepted label it names, else its words as written.

    With declared :attr:`Subproblem.choices`, an answer naming none of them or several
    different ones (a restated format such as ``Left Down/ Right Up``) reads as ``None``.
    """
    words = " ".join(lowered.replace("/", " ").split())
    if not sub.choices:
        return words
    named = {
        choice.lower()
        for choice in sub.choices
        if _choice_pattern(choice).search(words) is not None
    }
    return named.pop() if len(named) == 1 else None


@lru_cache(maxsize=64)
def _choice_pattern(choice: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in choice.lower().split()]
    return re.compile(r"(?<![^\W_])" + " ".join(words) + r"(?![^\W_])")


def parse_answer(sub: Subproblem, text: str | None) -> Answer | None:
    """Parse an answer string by the subproblem's kind; ``None`` if it cannot be read.

    Example:
        >>> texas = Subproblem(1, "odds", AnswerKind.NUMBER, Metric.ACCURACY, "q", "XX.X%",
        ...                    unit="%")
        >>> parse_answer(texas, "T9s: 52.4%"), parse_answer(texas, "2*2+5*1=9")
        (52.4, 9.0)
    """
    if text is None:
        return None
    raw = text.strip().strip("\"'`").strip()
    if not raw:
        return None
    lowered = raw.lower().strip(" .")
    if sub.kind is AnswerKind.SET:
        if sub.item_pattern is None:
            items = [p.strip() for p in _SEPARATOR.split(raw) if p.strip()]
        else:
            items = re.findall(sub.item_pattern, raw)
        if items:
            return frozenset(normalize_item(i) for i in items)
        return frozenset() if lowered in _NONE_WORDS else None
    if sub.kind is AnswerKind.BOOL:
        words = lowered.split(maxsplit=1)  # the first word decides: split no further
        head = words[0].strip(".,;:") if words else ""
        if head in {"true", "yes"}:
            return True
        if head in {"false", "no"}:
            return False
        return None
    if sub.kind is AnswerKind.NUMBER:
        return _read_number(sub, raw)
    if sub.kind is AnswerKind.LABEL:
        return _read_label(sub, lowered)
    if sub.kind is AnswerKind.MAPPING:
        pairs = [(k.lower(), read_int(v)) for k, v in _PAIR.findall(raw)]
        if not pairs or any(v is None for _, v in pairs):
            return None  # nothing to read, or a number too long to be any answer
        return tuple(sorted((k, v) for k, v in pairs if v is not None))
    raise ValueError(f"unknown answer kind {sub.kind!r}")


def _jsonable(answer: Answer | None) -> JsonValue:
    if isinstance(answer, frozenset):
        return list[JsonValue](sorted(answer))
    if isinstance(answer, tuple):
        return {k: v for k, v in answer}
    return answer


def score_answer(sub: Subproblem, text: str | None, truth: Answer) -> SubproblemScore:
    """Score one intermediate answer against the ground truth.

    Args:
        sub: The subproblem.
        text: The answer text (from :func:`extract_intermediate`), or ``None`` if absent.
        truth: The correct answer from the game's ground truth.

    Returns:
        The score with its confusion counts.

    Example:
        >>> from langgraph_games.games.tictactoe import TicTacToe
        >>> sub = TicTacToe.subproblems[0]
        >>> s = score_answer(sub, "(0,2), (1,1)", frozenset({"(0,2)"}))
        >>> (s.tp, s.fp, s.fn, round(s.value, 3))
        (1, 1, 0, 0.667)
    """
    parsed = parse_answer(sub, text)
    score = partial(
        SubproblemScore, index=sub.index, truth=_jsonable(truth), metric=sub.metric.value
    )
    if sub.kind is AnswerKind.SET:
        if not isinstance(truth, frozenset):
            raise TypeError(f"subproblem {sub.index}: set truth expected, got {truth!r}")
        if not isinstance(parsed, frozenset):
            return score(
                answered=False,
                parsed=None,
                correct=False,
                value=0.0,
                fn=len(truth),
                fp=0 if truth else 1,
            )
        tp = len(parsed & truth)
        fp = len(parsed - truth)
        fn = len(truth - parsed)
        if not parsed and not truth:
            return score(answered=True, parsed=[], correct=True, value=1.0, tn=1)
        value = 2 * tp / (2 * tp + fp + fn)
        if sub.metric is Metric.ACCURACY:
            value = float(parsed == truth)
        return score(
            answered=True,
            parsed=_jsonable(parsed),
            correct=parsed == truth,
            value=value,
            tp=tp,
            fp=fp,
            fn=fn,
        )
    if sub.kind is AnswerKind.BOOL and sub.metric is Metric.F1:
        if not isinstance(truth, bool):
            raise TypeError(f"subproblem {sub.index}: yes/no truth expected, got {truth!r}")
        if not isinstance(parsed, bool):
            return score(
                answered=False,
                parsed=None,
                correct=False,
                value=0.0,
                fn=int(truth),
                fp=int(not truth),
            )
        correct = parsed == truth
        return score(
            answered=True,
            parsed=parsed,
            correct=correct,
            value=float(correct),
            tp=int(parsed and truth),
            fp=int(parsed and not truth),
            fn=int(not parsed and truth),
            tn=int(not parsed and not truth),
        )
    # Accuracy on a scalar answer.
    if parsed is None:
        return score(answered=False, parsed=None, correct=False, value=0.0)
    if sub.kind is AnswerKind.NUMBER:
        if not isinstance(truth, (int, float)) or not isinstance(parsed, float):
            raise TypeError(f"subproblem {sub.index}: numeric truth expected, got {truth!r}")
        correct = abs(parsed - float(truth)) <= sub.tolerance + 1e-9
    else:
        correct = parsed == truth
    return score(answered=True, parsed=_jsonable(parsed), correct=correct, value=float(correct))


class ScoreCounts(TypedDict):
    """The sums over one subproblem's scored answers that its game-level score needs.

    ``count`` answers, ``correct`` of them exactly right, and their summed ``tp``, ``fp``
    and ``fn`` (see :func:`count_scores`, :func:`aggregate_counts`).
    """

    count: int
    correct: int
    tp: int
    fp: int
    fn: int


def count_scores(scores: Iterable[SubproblemScore | Mapping[str, Any]]) -> dict[int, ScoreCounts]:
    """Sum scored answers per subproblem index (what :func:`aggregate_counts` combines).

    Accepts :class:`SubproblemScore` objects or their ``to_dict()`` form; counts may be
    added up over decisions and episodes (:func:`add_counts`) before they are combined.

    Example:
        >>> count_scores([{"index": 1, "correct": True, "tp": 2, "fp": 0, "fn": 0}])
        {1: {'count': 1, 'correct': 1, 'tp': 2, 'fp': 0, 'fn': 0}}
    """
    counts: dict[int, ScoreCounts] = {}
    for score in scores:
        item = score.to_dict() if isinstance(score, SubproblemScore) else score
        into = counts.setdefault(
            _whole(item["index"]), {"count": 0, "correct": 0, "tp": 0, "fp": 0, "fn": 0}
        )
        into["count"] += 1
        into["correct"] += int(bool(item["correct"]))
        into["tp"] += _whole(item.get("tp", 0))
        into["fp"] += _whole(item.get("fp", 0))
        into["fn"] += _whole(item.get("fn", 0))
    return counts


def _whole(value: object) -> int:
    """A score's count field (validated records hold ints; JSON may give ``2.0``)."""
    if isinstance(value, (int, float)):
        return int(value)
    raise TypeError(f"a score's count must be a number, not {value!r}")


def add_counts(into: dict[int, ScoreCounts], more: Mapping[int, ScoreCounts]) -> None:
    """Add ``more`` (per subproblem index) to ``into`` in place."""
    for index, counts in more.items():
        total = into.setdefault(index, {"count": 0, "correct": 0, "tp": 0, "fp": 0, "fn": 0})
        for key in ("count", "correct", "tp", "fp", "fn"):
            total[key] += int(counts[key])


def aggregate_counts(sub: Subproblem, counts: ScoreCounts | None) -> float | None:
    """One subproblem's score over a game from its summed counts (micro-F1 or accuracy).

    ``None`` when no answer was counted.

    Example:
        >>> from langgraph_games.games import make
        >>> sub = make("tictactoe").subproblems[0]  # an F1 subproblem
        >>> aggregate_counts(sub, {"count": 2, "correct": 1, "tp": 1, "fp": 1, "fn": 0})
        0.6666666666666666
    """
    if not counts or not counts["count"]:
        return None
    if sub.metric is Metric.F1:
        denominator = 2 * counts["tp"] + counts["fp"] + counts["fn"]
        return 1.0 if denominator == 0 else 2 * counts["tp"] / denominator
    return counts["correct"] / counts["count"]


def aggregate_scores(
    sub: Subproblem, scores: Iterable[SubproblemScore | Mapping[str, Any]]
) -> float | None:
    """Combine one subproblem's scores over a game (micro-F1 or mean accuracy).

    Accepts :class:`SubproblemScore` objects or their ``to_dict()`` form (of ``sub``).
    Returns ``None`` when there are no scores.
    """
    counts = count_scores({**_dict(s), "index": sub.index} for s in scores)
    return aggregate_counts(sub, counts.get(sub.index))


def _dict(score: SubproblemScore | Mapping[str, Any]) -> Mapping[str, Any]:
    return score.to_dict() if isinstance(score, SubproblemScore) else score
