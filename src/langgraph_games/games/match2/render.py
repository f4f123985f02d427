"""Match-2 text views and the JSON answer parser.

The observation carries what the released user prompt gave the model: the board as a JSON
2-D list (one row per line here), score, steps remaining, props left, colour targets and
current counts.

Answers are JSON objects ``{"action": {"type": ..., "pos": [i, j], "index": k}}``:
``eliminate``, ``bomb`` and ``hammer`` take ``pos``; ``row`` and ``col`` take ``index``;
``{"action": null}`` declines to act. The released parser read the first ```` ```json ````
fenced block; its 2025 version also read a bare object, which is the default here
(``require_fence=True`` restores the older rule).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.match2.rules import COLOURS, PROPS, SIZE, Match2State

__all__ = ["ACTION_TYPES", "board_json", "observation_text", "parse_match2_answer", "render_text"]

ACTION_TYPES = ("eliminate", *PROPS)
# The block is stripped after the match: a ``\s*`` before the lazy ``(.*?)`` would make a
# fence followed by a long run of spaces and no closing fence take quadratic time.
_FENCE = re.compile(r"```json(.*?)```", re.DOTALL)


def board_json(board: str) -> str:
    """The board as a JSON 2-D list, one row per line."""
    rows = [json.dumps(list(board[r * SIZE : (r + 1) * SIZE])) for r in range(SIZE)]
    return "[" + ",\n ".join(rows) + "]"


def _by_colour(values: tuple[int, ...]) -> str:
    return json.dumps(dict(zip(COLOURS, values, strict=True)))


def observation_text(state: Match2State, props: bool) -> str:
    """Board, score, steps, inventory, targets and counts."""
    inventory = (
        json.dumps(dict(zip(PROPS, state.inventory, strict=True)))
        if props
        else "none (props are disabled in this variant)"
    )
    return "\n".join(
        [
            "Board (row 0 at the top, column 0 at the left):",
            board_json(state.board),
            f"Score: {state.score}",
            f"Steps remaining: {state.steps_left} of {state.max_steps}",
            f"Inventory: {inventory}",
            f"Color targets: {_by_colour(state.targets)}",
            f"Current color counts: {_by_colour(state.counts)}",
        ]
    )


def render_text(state: Match2State) -> str:
    """A compact board with indices and a status line."""
    lines = ["  " + " ".join(str(c) for c in range(SIZE))]
    for r in range(SIZE):
        lines.append(f"{r} " + " ".join(state.board[r * SIZE : (r + 1) * SIZE]))
    progress = ", ".join(
        f"{colour} {count}/{target}"
        for colour, count, target in zip(COLOURS, state.counts, state.targets, strict=True)
    )
    status = f"score {state.score}, steps left {state.steps_left}/{state.max_steps}, {progress}"
    if state.outcome:
        status += f", outcome {state.outcome}"
    return "\n".join(lines) + "\n" + status


_OBJECT_START = re.compile(r"\{\s*\"")
MAX_OBJECT_TRIES = 64
"""Object starts tried for a bare answer, from the chosen end (each try may read far)."""


def _bare_object(text: str, pick: Literal["first", "last"]) -> Any:
    """The first (or last) JSON object in ``text`` with an ``action`` key, or ``None``.

    Only a ``{`` followed by a key can start one, and at most :data:`MAX_OBJECT_TRIES`
    of those are tried, from the chosen end: a failed try costs up to the rest of the
    text, so trying every ``{`` of a reply made of them took quadratic time.
    """
    decoder = json.JSONDecoder()
    starts = [m.start() for m in _OBJECT_START.finditer(text)]
    if pick == "last":
        starts.reverse()
    for start in starts[:MAX_OBJECT_TRIES]:
        try:
            value, _ = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and "action" in value:
            return value
    return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_match2_answer(
    text: str, *, require_fence: bool = False, pick: Literal["first", "last"] = "first"
) -> ParsedAnswer:
    r"""Read a Match-2 action from a model's JSON answer.

    Args:
        text: The model's reply.
        require_fence: Only read a ```` ```json ```` fenced block (the first released rule).
        pick: Which answer counts when there are several: ``"first"`` as released, or
            ``"last"``.

    Returns:
        The canonical action (``eliminate,r,c``, ``row,k``, ``col,k``, ``bomb,r,c`` or
        ``hammer,r,c``), or no action with the reason.

    Example:
        >>> parse_match2_answer('```json\n{"action": {"type": "eliminate", "pos": [4, 3]}}\n```')
        ParsedAnswer(action='eliminate,4,3', reason=None)
        >>> parse_match2_answer('{"action": {"type": "row", "index": 9}}').reason
        'index must be a whole number 0-7 for row'
    """
    candidates: list[Any] = []
    malformed = False
    for block in _FENCE.findall(text):
        try:
            candidates.append(json.loads(block.strip()))
        except (ValueError, RecursionError):
            malformed = True
    if not candidates and not require_fence:
        bare = _bare_object(text, pick)
        candidates = [] if bare is None else [bare]
    if not candidates:
        if malformed:
            return ParsedAnswer(None, "the ```json block is not valid JSON")
        where = "```json block" if require_fence else "JSON object"
        return ParsedAnswer(None, f'no {where} with an "action" key found')
    answer = candidates[0] if pick == "first" else candidates[-1]
    if not isinstance(answer, dict) or "action" not in answer:
        return ParsedAnswer(None, 'the JSON answer has no "action" key')
    action = answer["action"]
    if action is None:
        return ParsedAnswer(None, 'the answer declined to act ({"action": null})')
    if not isinstance(action, dict):
        return ParsedAnswer(None, '"action" must be an object or null')
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        return ParsedAnswer(
            None, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}"
        )
    if kind in ("row", "col"):
        index = _int(action.get("index"))
        if index is None or not 0 <= index < SIZE:
            return ParsedAnswer(None, f"index must be a whole number 0-{SIZE - 1} for {kind}")
        return ParsedAnswer(f"{kind},{index}")
    pos = action.get("pos")
    coords = [_int(v) for v in pos] if isinstance(pos, list) and len(pos) == 2 else []
    if len(coords) != 2 or any(v is None or not 0 <= v < SIZE for v in coords):
        return ParsedAnswer(None, f"pos must be [row, col] with whole numbers 0-{SIZE - 1}")
    return ParsedAnswer(f"{kind},{coords[0]},{coords[1]}")
