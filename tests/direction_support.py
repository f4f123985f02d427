"""A lesson-dependent scripted model for maze training: which way to turn first.

Two lessons contradict each other: "move right first, then up" and "move up first, then
right". On the fixed level-1 maps a greedy walk in one order reaches the goal where the
other gets stuck: right-first on training maps 1, 3, 4, 5, 7, 8, 9, 10 and 18 of the 30
evaluation maps (60%); up-first on training maps 1, 2, 4, 6, 8, 10 and 22 evaluation maps
(73%). One scripted model plays every role:

- GeoLink follows the direction lesson named *last* in its prompt (so a replay follows
  the experience it verifies), greedily: the first open neighbour in the lesson's order;
  without one it walks off the grid (left);
- InsightForce, after a failed play, proposes the order that reaches the goal on that map
  (right-first where both do), as the paper's three text sections;
- the typing call types every item as advice;
- the relation check answers carelessly "same" for the two direction lessons (the guard
  must see the flipped order) and "unrelated" for anything else; the old merge prompt (of
  versions before the relation check) gets ``SEPARATE``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from expver_support import known_map
from langgraph_games.models import ScriptedChatModel

RIGHT_FIRST = "move right first, then up"
UP_FIRST = "move up first, then right"
UP_ONLY = {2, 6}
"""Training maps where only up-first reaches the goal (right-first: 3, 5, 7, 9)."""

_STEP = {"UP": ((-1, 0), "0"), "RIGHT": ((0, 1), "9")}
_MAP = re.compile(r"map_id: train-L1-(\d+)")
_PAIR = re.compile(r"New lesson \(A\): (.*)\nLesson on the list \(B\): (.*)")


def summary(lesson: str) -> str:
    return f"Due to turning the wrong way, I got stuck. Next time, I should {lesson}."


def _last_lesson(system: str) -> str | None:
    found = [(system.rfind(x), x) for x in (RIGHT_FIRST, UP_FIRST) if x in system]
    return max(found)[1] if found else None


def _greedy(user: str, lesson: str) -> str:
    rows, agent, _ = known_map(user)
    order = ("RIGHT", "UP") if lesson == RIGHT_FIRST else ("UP", "RIGHT")
    size = len(rows)
    for name in order:
        (dr, dc), action = _STEP[name]
        r, c = agent[0] + dr, agent[1] + dc
        if 0 <= r < size and 0 <= c < size and rows[r][c] != "#":
            return action
    return "6"


def _reflect(user: str) -> str:
    found = _MAP.search(user)
    lesson = UP_FIRST if found and int(found.group(1)) in UP_ONLY else RIGHT_FIRST
    return f"Experience Summary: {summary(lesson)}\nStrengths:\nWeaknesses:"


def _relation(user: str) -> str:
    found = _PAIR.search(user)
    both = found is not None and all(
        RIGHT_FIRST in x or UP_FIRST in x for x in (found.group(1), found.group(2))
    )
    return json.dumps({"relation": "same" if both else "unrelated", "reason": "scripted"})


def direction_script(messages: Sequence[BaseMessage]) -> str:
    """Every role, told apart by the system prompt."""
    system, user = str(messages[0].content), str(messages[-1].content)
    if "one lesson per meaning" in system:
        return _relation(user)
    if "(called truths)" in system:
        return "SEPARATE"
    if "You sort notes" in system:
        count = len(re.findall(r"^\d+\. ", user, flags=re.MULTILINE))
        return json.dumps({"types": ["advice"] * count})
    if system.startswith("You are a coach"):
        return _reflect(user)
    lesson = _last_lesson(system)
    action = "6" if lesson is None else _greedy(user, lesson)
    return f"I follow my lesson. Action: {action}"


def install_direction_coach(monkeypatch: Any) -> None:
    """Every model spec resolves to :func:`direction_script`."""
    import langgraph_games.eval.running.players as eval_players

    def load(spec: str, **settings: Any) -> ScriptedChatModel:
        return ScriptedChatModel(script=direction_script, name_=spec)

    monkeypatch.setattr(eval_players, "load_chat_model", load)
