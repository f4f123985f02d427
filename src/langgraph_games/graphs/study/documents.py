"""Documents for the study graph: reading, paragraphs, answer items, context blocks.

Pure text functions, no model: what SPRING's paper-study module needs around its model
calls, and useful on their own (e.g. :func:`context_blocks` to build an ablation context).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from langgraph_games.models.messages import reply_too_long

__all__ = [
    "Format",
    "StudyError",
    "context_blocks",
    "detect_format",
    "format_block",
    "is_yes",
    "merge_items",
    "read_document",
    "split_items",
    "split_paragraphs",
]

Format = Literal["auto", "latex", "markdown", "text"]


class StudyError(ValueError):
    """A document that cannot be studied: unreadable, empty, or without paragraphs."""


# ----- documents ------------------------------------------------------------------------


def read_document(path: str | Path) -> str:
    """Read a document as UTF-8 text.

    Raises:
        StudyError: The path does not exist, is not a file, cannot be read or is not UTF-8
            text (the message names the path and the reason).
    """
    path = Path(path)
    if not path.exists():
        raise StudyError(f"cannot read document {str(path)!r}: no such file")
    if not path.is_file():
        raise StudyError(f"cannot read document {str(path)!r}: not a file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StudyError(f"cannot read document {str(path)!r}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StudyError(
            f"cannot read document {str(path)!r}: not UTF-8 text (byte {exc.start})"
        ) from exc


def detect_format(text: str) -> Literal["latex", "markdown", "text"]:
    r"""Guess a document's format from its markup.

    Example:
        >>> detect_format(r"\section{Intro} Hi."), detect_format("# Title"), detect_format("Hi.")
        ('latex', 'markdown', 'text')
    """
    if re.search(r"\\(documentclass|begin\{|section\*?\{|subsection\*?\{|paragraph\{)", text):
        return "latex"
    if re.search(r"(?m)^(#{1,6} |```|[-*] |\d+\. )", text):
        return "markdown"
    return "text"


_LATEX_HEADING = re.compile(r"^\\(part|chapter|(sub)*section|paragraph)\*?\{[^}]*\}\s*$")
_MD_HEADING = re.compile(r"^#{1,6} .*$")


def _latex_body(text: str) -> str:
    lines = [re.sub(r"(?<!\\)%.*$", "", line) for line in text.splitlines()]
    body = "\n".join(lines)
    start = body.find("\\begin{document}")
    if start >= 0:
        body = body[start + len("\\begin{document}") :]
        end = body.find("\\end{document}")
        body = body[:end] if end >= 0 else body
    return body


def split_paragraphs(text: str, format: Format = "auto") -> list[str]:
    r"""Split a document into paragraphs (blocks separated by blank lines).

    LaTeX loses its comments and anything outside ``document``; Markdown code fences stay
    whole. A heading alone is joined to the paragraph after it, and blocks without three
    letters are dropped.

    Example:
        >>> split_paragraphs("# Rules\n\nEat to live.\n\n\nDrink water.")
        ['# Rules\nEat to live.', 'Drink water.']
    """
    fmt = detect_format(text) if format == "auto" else format
    if fmt == "latex":
        text = _latex_body(text)
    blocks: list[list[str]] = [[]]
    fenced = False
    for line in text.splitlines():
        if fmt == "markdown" and line.lstrip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].append(line.rstrip())
    paragraphs: list[str] = []
    pending: list[str] = []
    heading = _LATEX_HEADING if fmt == "latex" else _MD_HEADING
    for block in blocks:
        if not block:
            continue
        if len(block) == 1 and heading.match(block[0].strip()) and fmt != "text":
            pending.append(block[0].strip())
            continue
        paragraph = "\n".join([*pending, *block]).strip()
        pending = []
        if len(re.findall(r"[^\W\d_]", paragraph)) >= 3:
            paragraphs.append(paragraph)
    return paragraphs


# ----- answers --------------------------------------------------------------------------

_MARKER = re.compile(r"^\s*(?:\(?\d+[.)]|[-*\u2022]|\(?[a-z][.)])\s+", re.IGNORECASE)


def split_items(answer: str) -> list[str]:
    r"""Split an answer into list items; lines without a marker continue the previous item.

    An answer with no list markers at all gives one item per non-empty line; an answer
    too long to read (:func:`~langgraph_games.models.messages.reply_too_long`) gives none.

    Example:
        >>> split_items("1. Eat cows\n   when hungry\n2) Drink water\n- Sleep")
        ['Eat cows when hungry', 'Drink water', 'Sleep']
    """
    if reply_too_long(answer or "") is not None:
        return []
    lines = [line for line in (answer or "").splitlines() if line.strip()]
    if not any(_MARKER.match(line) for line in lines):
        return [line.strip() for line in lines]
    items: list[str] = []
    for line in lines:
        if _MARKER.match(line):
            items.append(_MARKER.sub("", line, count=1).strip())
        elif items:
            items[-1] = f"{items[-1]} {line.strip()}"
        else:
            items.append(line.strip())
    return [item for item in items if item]


def _normalise(item: str) -> str:
    return re.sub(r"[\W_]+", " ", item.lower()).strip()


def merge_items(answers: Sequence[str]) -> list[str]:
    r"""Items of all answers in order, without items whose normalised text repeats.

    Example:
        >>> merge_items(["1. Drink water.\n2. Eat cows", "- drink water\n- Sleep at night"])
        ['Drink water.', 'Eat cows', 'Sleep at night']
    """
    seen: set[str] = set()
    merged: list[str] = []
    for answer in answers:
        for item in split_items(answer):
            key = _normalise(item)
            if key and key not in seen:
                seen.add(key)
                merged.append(item)
    return merged


def format_block(question: str, items: Sequence[str]) -> str:
    """One context block: ``Question: q``, ``Answer:`` and the numbered items."""
    listed = "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1)) or "(nothing found)"
    return f"Question: {question}\nAnswer:\n{listed}"


def context_blocks(context: str) -> dict[str, str]:
    """Split a context made by the study graph back into question -> answer text.

    Useful to build SPRING's ablations from a studied context (e.g. keep only the actions
    question's block).
    """
    blocks: dict[str, str] = {}
    for part in re.split(r"\n\n(?=Question: )", context.strip()):
        if part.startswith("Question: ") and "\nAnswer:\n" in part:
            question, answer = part[len("Question: ") :].split("\nAnswer:\n", 1)
            blocks[question] = answer
    return blocks


def is_yes(answer: str) -> bool:
    """Whether the first word of an answer is "yes" (case-insensitive)."""
    words = re.findall(r"[a-z]+", answer.lower())
    return bool(words) and words[0] == "yes"
