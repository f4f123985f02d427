"""InsightForce's reflection prompt and a defensive reader of its reply (Agent-ExpVer).

After GeoLink plays a level, InsightForce is shown the episode's metrics and what the
player thought at a few steps (the released inputs: the first five steps, the middle one
when there are more than ten, the last three when there are more than five, 200
characters of reasoning each; we add each shown step's action, reward and events, the
lessons the player had, and the lessons that were reverted so they are not proposed
again) and asks for one JSON object: the experience summary, one sentence "Due to <cause>,
<consequence> happened. Next time, I should <improvement>.", and as many lessons as the
game shows (the paper: "as many as you can identify"), each typed by the model as advice
or observation (:mod:`~langgraph_games.graphs.expver.lessons`).

The prompt is ours. A reply that is not that JSON (a model that ignores the format) is
read by :func:`parse_reflection`, the paper's three sections (``Experience Summary:``,
``Strengths:``, ``Weaknesses:``), written for weak models (the default local model has
135M parameters): headers in Markdown or any case, bullets of any kind, a summary without
its header when a "Due to ..." sentence is there; it drops echoes of the prompt's own
template and its fill-in markers (e.g. "<cause>"), caps lengths and counts, and says why
when nothing is usable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from langgraph_games.graphs.episode.records import Step
from langgraph_games.memory.records import Lesson
from langgraph_games.models.messages import reply_too_long

__all__ = [
    "Reflection",
    "experience_lessons",
    "parse_reflection",
    "reflection_messages",
    "select_steps",
]

SUMMARY_TEMPLATE = "Due to <cause>, <consequence> happened. Next time, I should <improvement>."
MAX_SUMMARY = 400
MAX_ITEM = 200
MAX_ITEMS = 10
MIN_TEXT = 8

_SYSTEM = (
    "You are a coach who reviews one game of {game} played by an AI agent. Find the cause "
    "of what happened and turn it into advice the agent can follow in its next games. "
    "Be concrete and brief."
)

_FORMAT = (
    "Answer with one JSON object, nothing else:\n"
    '{"summary": "Due to <cause>, <consequence> happened. Next time, I should <improvement>.", '
    '"lessons": [{"type": "advice", "section": "weakness", "text": "<one sentence>", '
    '"situation": "<when it applies>", "action": "<what to do>"}]}\n'
    "List as many lessons as this game shows (strengths and weaknesses). A lesson of type "
    '"advice" tells the agent what to do in its next games ("Keep ...", "Avoid ...", '
    '"Read the map before moving."); write strengths and weaknesses as advice where you '
    'can. A lesson that only says what happened in this game ("Lost a life to a wall") is '
    'of type "observation".'
)

_REVERTED = (
    "Lessons that were tried before and taken back because the test games went worse "
    "with them (do not propose these again):"
)


def select_steps(count: int, first: int = 5, last: int = 3) -> list[int]:
    """Indices of the steps shown to InsightForce: the released choice.

    The first ``first`` steps, the middle step when there are more than ten, and the last
    ``last`` steps when there are more than five; each once, in order.

    Example:
        >>> select_steps(4), select_steps(8), select_steps(20)
        ([0, 1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 10, 17, 18, 19])
    """
    chosen = list(range(min(first, count)))
    if count > 10:
        chosen.append(count // 2)
    if count > 5:
        chosen += list(range(max(0, count - last), count))
    return sorted(set(chosen))


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _step_line(step: Step, chars: int) -> str:
    decision = (step.get("decisions") or {}).get("0")
    attempts = (decision.get("attempts") if decision else None) or []
    outputs = (attempts[-1].get("raw_outputs") if attempts else None) or [""]
    reasoning = _clip(str(outputs[-1]), chars) or "(no answer)"
    action = (step.get("actions") or {}).get("0")
    parts = [f"Step {int(step.get('step', 0)) + 1}: action {action}"]
    notes = []
    for event in step.get("events") or []:
        kind = str(event.get("type", ""))
        if kind == "reward":
            parts.append(f"reward {event.get('reward')} (score {event.get('score')})")
        elif kind == "move":
            parts[0] += f" ({event.get('name')})" if event.get("name") else ""
        elif kind:
            notes.append(kind)
    if decision and decision.get("fallback"):
        notes.append("answer unreadable, fallback move played")
    if notes:
        parts.append("events: " + ", ".join(notes))
    return "; ".join(parts) + f'. Reasoning: "{reasoning}"'


def _metric_text(metrics: Mapping[str, object]) -> str:
    shown = []
    for key, value in metrics.items():
        if isinstance(value, bool):
            shown.append(f"{key}: {'yes' if value else 'no'}")
        elif isinstance(value, float):
            shown.append(f"{key}: {value:.3g}")
        elif isinstance(value, (int, str)):
            shown.append(f"{key}: {value}")
    return ", ".join(shown)


def reflection_messages(
    game_name: str,
    metrics: Mapping[str, object],
    trajectory: Sequence[Step],
    *,
    truths: Sequence[str] = (),
    reverted: Sequence[str] = (),
    first: int = 5,
    last: int = 3,
    chars: int = 200,
) -> list[tuple[str, str]]:
    """The system and user messages asking InsightForce to reflect on one episode.

    Args:
        game_name: How to name the game.
        metrics: The episode's metrics (success, score, steps, ...).
        trajectory: The episode loop's steps (decisions, actions, events).
        truths: The lessons the player had in its prompt.
        reverted: Lessons reverted earlier in the run (eq. 6): listed as lessons not to
            propose again.
        first: Steps shown from the start.
        last: Steps shown from the end (when there are more than five).
        chars: Characters of reasoning shown per step.

    Example:
        >>> msgs = reflection_messages("Maze", {"success": False, "score": -100}, [])
        >>> msgs[0][0], '"summary": "Due to' in msgs[1][1]
        ('system', True)
    """
    steps = [trajectory[i] for i in select_steps(len(trajectory), first, last)]
    lines = [f"Result of the game: {_metric_text(metrics)}."]
    if truths:
        lines.append("Lessons the agent already had:")
        lines += [f"- {t}" for t in truths]
    if reverted:
        lines.append(_REVERTED)
        lines += [f"- {t}" for t in reverted]
    if steps:
        lines.append(f"Some of its {len(trajectory)} steps:")
        lines += [_step_line(step, chars) for step in steps]
    else:
        lines.append("The agent took no step.")
    lines.append("")
    lines.append(_FORMAT)
    return [("system", _SYSTEM.format(game=game_name)), ("user", "\n".join(lines))]


@dataclass
class Reflection:
    """What could be read from InsightForce's reply.

    Attributes:
        summary: The experience summary ("" when none was usable).
        strengths: Usable strength items.
        weaknesses: Usable weakness items.
        problem: Why nothing was usable (``None`` when something was).
        dropped: Items left out and why (echo, unfilled template slot, too short, duplicate).
        lessons: The items typed as advice or observation (by the reflecting model).
        typed: Whether the reply was the typed JSON form.
    """

    summary: str = ""
    strengths: list[str] = field(default_factory=list)
    weaknesses: list[str] = field(default_factory=list)
    problem: str | None = None
    dropped: list[str] = field(default_factory=list)
    lessons: list[Lesson] = field(default_factory=list)
    typed: bool = False

    @property
    def usable(self) -> bool:
        """Whether there is anything to verify."""
        return bool(self.summary or self.strengths or self.weaknesses or self.lessons)


# One character class before the section name (two adjacent ones, ``[\s#>*_]*[\s*_]*``,
# backtrack quadratically on a long run of spaces).
_HEADER = re.compile(
    r"^[\s#>*_]*(?:\d+[.)][\s*_]*)?(experience\s+summary|summary|experience|strengths?|weakness(?:es)?)"
    r"[\s*_]*(?:[:：]|$)[\s*_]*(.*)$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s+")
_PLACEHOLDER = re.compile(r"<[^<>]{1,40}>|\[(?:cause|consequence|improvement)[^\]]*\]", re.I)
_DUE_TO = re.compile(r"\bdue to\b", re.I)
_NEXT_TIME = re.compile(r"\bnext time\b[^.!?\n]*(?:[.!?]|$)", re.I | re.M)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n|$")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_ADVICE = re.compile(r"\bnext time\b|\bshould\b", re.I)
_TEMPLATE_WORDS = {
    "one thing that went well",
    "one thing that went badly",
    "write one sentence per item about this game only",
    "answer with exactly these three sections in this order",
    "list as many strengths and weaknesses as this game shows one per line",
    "write each one as advice for the next game what to keep doing or what to do instead "
    "in one sentence about this game only",
    "one sentence",
    "when it applies",
    "what to do",
}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _section(name: str) -> str:
    name = name.lower()
    if name.startswith("strength"):
        return "strengths"
    if name.startswith("weakness"):
        return "weaknesses"
    return "summary"


def _tidy(text: str) -> str:
    text = _BULLET.sub("", text)
    text = text.strip().strip("*_`\"' ").strip()
    return " ".join(text.split())


def _keep(text: str, limit: int, dropped: list[str]) -> str | None:
    if not text:
        return None
    if _PLACEHOLDER.search(text):
        dropped.append(f"unfilled slot: {text[:60]}")
        return None
    if _norm(text) in _TEMPLATE_WORDS or _norm(text) == _norm(SUMMARY_TEMPLATE):
        dropped.append(f"echo: {text[:60]}")
        return None
    if len(text) < MIN_TEXT or not re.search(r"[A-Za-z]{3}", text):
        dropped.append(f"too short: {text[:60]}")
        return None
    return _clip(text, limit)


def _due_to_sentence(text: str) -> str:
    """The summary of a reply without headers.

    A "Due to ..." sentence (through its "Next time ..." sentence) found anywhere; else the
    first piece of advice ("next time", "should") with the sentence before it (its cause).
    """
    start = _DUE_TO.search(text)
    if start is not None:
        rest = text[start.start() :]
        later = _NEXT_TIME.search(rest, 0, MAX_SUMMARY)
        if later is not None:
            return _tidy(rest[: later.end()])
        end = _SENTENCE_END.search(rest)
        return _tidy(rest[: end.end() if end else len(rest)])
    sentences = [x for x in _SENTENCES.split(" ".join(text.split())) if x]
    for i, sentence in enumerate(sentences):
        if _ADVICE.search(sentence):
            return _tidy(" ".join(sentences[max(0, i - 1) : i + 1]))
    return ""


def parse_reflection(text: str) -> Reflection:
    r"""Read InsightForce's three sections defensively.

    Example:
        >>> r = parse_reflection(
        ...     "**Experience Summary:** Due to haste, I hit a wall. Next time, I should look."
        ...     "\nStrengths:\n- Found two coins\nWeaknesses:\n* Lost a life to a wall")
        >>> r.summary
        'Due to haste, I hit a wall. Next time, I should look.'
        >>> r.strengths, r.weaknesses
        (['Found two coins'], ['Lost a life to a wall'])
        >>> parse_reflection("Action: 9").problem
        'no-sections'
    """
    result = Reflection()
    if reply_too_long(text) is not None:
        result.problem = f"too-long ({len(text):,} characters)"
        return result
    if not text.strip():
        result.problem = "empty"
        return result
    sections: dict[str, list[str]] = {"summary": [], "strengths": [], "weaknesses": []}
    current: str | None = None
    found = False
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            found = True
            current = _section(header.group(1))
            rest = header.group(2).strip()
            if rest:
                sections[current].append(rest)
            continue
        if current is not None and line.strip():
            sections[current].append(line)
    summary = " ".join(_tidy(x) for x in sections["summary"]).strip()
    if not summary:
        summary = _due_to_sentence(text)
    kept = _keep(summary, MAX_SUMMARY, result.dropped)
    result.summary = kept or ""
    seen = {_norm(result.summary)} if result.summary else set()
    for name in ("strengths", "weaknesses"):
        items: list[str] = getattr(result, name)
        for raw in sections[name]:
            item = _keep(_tidy(raw), MAX_ITEM, result.dropped)
            if item is None:
                continue
            if _norm(item) in seen:
                result.dropped.append(f"duplicate: {item[:60]}")
                continue
            if len(items) >= MAX_ITEMS:
                result.dropped.append(f"over {MAX_ITEMS} items: {item[:60]}")
                continue
            seen.add(_norm(item))
            items.append(item)
    if not result.usable:
        result.problem = "no-sections" if not found and not summary else "nothing-usable"
    return result


def experience_lessons(
    summary: str, strengths: Sequence[str], weaknesses: Sequence[str]
) -> list[str]:
    """An experience as prompt lessons for the verification replay (after the truths).

    Example:
        >>> experience_lessons("Due to haste, I hit a wall.", ["Found coins"], [])
        ['From my last attempt at this level: Due to haste, I hit a wall.', \
'What went well there: Found coins']
    """
    lessons = [f"From my last attempt at this level: {summary}"] if summary else []
    lessons += [f"What went well there: {s}" for s in strengths]
    lessons += [f"What went badly there: {w}" for w in weaknesses]
    return lessons
