"""Constrained answers: hold a model's final answer to one of the legal moves.

Two forms of the same constraint, both off unless a strategy asks for them:

- :func:`answer_grammar` builds a llama.cpp GBNF grammar for the embedded model: free
  reasoning text of bounded length, then the final label (``Chosen Move:``), exactly one
  legal move, and the end of the reply. Passed to :class:`~langgraph_games.models.local.
  LocalChatModel` as ``model.bind(grammar=...)``.
- :func:`answer_response_format` builds an OpenAI-style ``response_format`` (a JSON schema
  with a free ``reasoning`` string and a ``move`` from an enum of the legal moves) for
  endpoints with structured output; :func:`structured_reply_text` turns the JSON reply
  back into the text form every reader expects (``reasoning`` then ``Chosen Move: X``).

The rule for the reasoning bound: the reasoning may use at most ``max_tokens`` minus the
answer's length in characters. A token is at least one character, so the answer always
fits in the completion budget and a constrained reply always ends with a legal move.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games._json import JsonObject
from langgraph_games.models.local import LocalChatModel

__all__ = [
    "MAX_REASONING_CHARS",
    "answer_grammar",
    "answer_line",
    "answer_response_format",
    "can_constrain",
    "constrained_model",
    "constraint_kind",
    "gbnf_literal",
    "reasoning_budget",
    "structured_reply_text",
]

MAX_REASONING_CHARS = 600
"""The longest reasoning a grammar allows the local model, whatever its ``max_tokens``."""

_ANSWER_MARGIN = 8
"""Characters kept free besides the label and the longest move (separator, newline)."""


def gbnf_literal(text: str) -> str:
    r"""``text`` as a GBNF string literal (quotes, backslashes and control characters escaped).

    Example:
        >>> print(gbnf_literal('say "(1,1)"\n'))
        "say \"(1,1)\"\n"
    """
    out = []
    for char in text:
        if char in {'"', "\\"}:
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def answer_line(label: str, move: str) -> str:
    """The final line of an answer: ``label`` (with one colon) and the move.

    Example:
        >>> answer_line("Chosen Move", "(1,1)"), answer_line("Proposal:", "2 1 0")
        ('Chosen Move: (1,1)', 'Proposal: 2 1 0')
    """
    head = label if label.endswith(":") else f"{label}:"
    return f"{head} {move}"


def _check_moves(legal: Sequence[str]) -> list[str]:
    moves = list(dict.fromkeys(legal))
    if not moves:
        raise ValueError("a constrained answer needs at least one legal move; none were given")
    if any(not move or "\n" in move for move in moves):
        raise ValueError(f"legal moves must be non-empty single lines; got {moves!r}")
    return moves


def reasoning_budget(max_tokens: int, label: str, legal: Sequence[str]) -> int:
    """Characters of reasoning that leave room for the answer within ``max_tokens``."""
    longest = max(len(answer_line(label, move)) for move in _check_moves(legal))
    return max(0, max_tokens - longest - _ANSWER_MARGIN)


def answer_grammar(label: str, legal: Sequence[str], *, max_reasoning_chars: int = 600) -> str:
    """A GBNF grammar: reasoning, a newline, ``label: <one legal move>``, end.

    Args:
        label: The final label (``"Chosen Move"``; a trailing colon is not doubled).
        legal: The legal moves, each a single line of text; duplicates are ignored.
        max_reasoning_chars: Upper bound on the reasoning before the final line (0: the
            reply is the final line alone).

    Raises:
        ValueError: No legal moves, an empty or multi-line move, or a negative bound.

    Example:
        >>> print(answer_grammar("Chosen Move", ["(0,0)", "(1,1)"], max_reasoning_chars=0))
        root ::= "Chosen Move: " move
        move ::= "(0,0)" | "(1,1)"
    """
    moves = _check_moves(legal)
    if max_reasoning_chars < 0:
        raise ValueError(f"max_reasoning_chars must be 0 or more, got {max_reasoning_chars}")
    head = answer_line(label, "")
    alternatives = " | ".join(gbnf_literal(move) for move in moves)
    if max_reasoning_chars == 0:
        return f"root ::= {gbnf_literal(head)} move\nmove ::= {alternatives}"
    return (
        f'root ::= reasoning "\\n" {gbnf_literal(head)} move\n'
        f"reasoning ::= [^\\x00]{{0,{max_reasoning_chars}}}\n"
        f"move ::= {alternatives}"
    )


def answer_response_format(legal: Sequence[str], *, name: str = "game_answer") -> JsonObject:
    """An OpenAI ``response_format``: free ``reasoning`` and a ``move`` among ``legal``.

    Raises:
        ValueError: No legal moves, or an empty or multi-line move.
    """
    moves = _check_moves(legal)
    schema: JsonObject = {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "description": "your analysis of the position"},
            "move": {"type": "string", "enum": [*moves], "description": "your move"},
        },
        "required": ["reasoning", "move"],
        "additionalProperties": False,
    }
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


def structured_reply_text(reply: str, label: str) -> str | None:
    r"""The text form of a structured reply: ``reasoning``, a newline, ``label: move``.

    Returns:
        The text, or ``None`` when ``reply`` is not a JSON object with a string ``move``
        (the caller then reads the raw reply, and its reader reports what is wrong).

    Example:
        >>> structured_reply_text('{"reasoning": "centre", "move": "(1,1)"}', "Chosen Move")
        'centre\nChosen Move: (1,1)'
        >>> structured_reply_text("Chosen Move: (1,1)", "Chosen Move") is None
        True
    """
    try:
        data = json.loads(reply)
    except (ValueError, RecursionError):  # RecursionError: brackets nested too deep
        return None
    if not isinstance(data, dict) or not isinstance(data.get("move"), str):
        return None
    reasoning = data.get("reasoning")
    line = answer_line(label, data["move"])
    if isinstance(reasoning, str) and reasoning.strip():
        return f"{reasoning.rstrip()}\n{line}"
    return line


def can_constrain(model: BaseChatModel) -> bool:
    """Whether :func:`constrained_model` can hold ``model`` to a legal move.

    True for the local llama.cpp model (grammar) and for models that send extra request
    fields through a ``model_kwargs`` dictionary (``ChatOpenAI`` and OpenAI-compatible
    endpoints: ``response_format``).
    """
    if isinstance(model, LocalChatModel):
        return True
    return isinstance(getattr(model, "model_kwargs", None), dict)


def constraint_kind(model: BaseChatModel) -> str:
    """``"grammar"`` for the local model, ``"json_schema"`` for an endpoint.

    Raises:
        ValueError: The model can be constrained neither way (see :func:`can_constrain`).
    """
    if isinstance(model, LocalChatModel):
        return "grammar"
    if can_constrain(model):
        return "json_schema"
    raise ValueError(
        f"constrained answers need the local model (a GBNF grammar) or an OpenAI-compatible "
        f"endpoint (a JSON-schema response_format); {type(model).__name__} is neither"
    )


def constrained_model(model: BaseChatModel, label: str, legal: Sequence[str]) -> BaseChatModel:
    """A copy of ``model`` whose replies must end with ``label: <one of legal>``.

    The local model gets :func:`answer_grammar` (reasoning bounded by
    :func:`reasoning_budget` of its ``max_tokens``, at most :data:`MAX_REASONING_CHARS`);
    an endpoint gets :func:`answer_response_format` in its ``model_kwargs`` and answers in
    JSON, which :func:`structured_reply_text` turns back into text. The copy keeps the
    model's endpoint, so its rate limits and retries still apply.

    Raises:
        ValueError: The model cannot be constrained, or ``legal`` is empty or malformed.
    """
    if isinstance(model, LocalChatModel):
        budget = min(MAX_REASONING_CHARS, reasoning_budget(model.max_tokens, label, legal))
        grammar = answer_grammar(label, legal, max_reasoning_chars=budget)
        return model.model_copy(update={"grammar": grammar})
    constraint_kind(model)  # raises for a model that cannot be constrained
    extra = dict(getattr(model, "model_kwargs", {}))
    extra["response_format"] = answer_response_format(legal)
    return model.model_copy(update={"model_kwargs": extra})
