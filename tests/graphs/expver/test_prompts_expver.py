"""InsightForce's prompt (the released step selection) and its defensive reply reader."""

from __future__ import annotations

import re
from typing import Any

import pytest

from langgraph_games.graphs.expver.prompts import (
    SUMMARY_TEMPLATE,
    parse_reflection,
    reflection_messages,
    select_steps,
)


def step(i: int, reasoning: str, action: str = "9", **extra: Any) -> dict[str, Any]:
    events = [
        {"type": "move", "action": action, "name": "Move RIGHT 1 step"},
        {"type": "reward", "reward": -40, "score": -40 * (i + 1), "new_cells": 1},
        *extra.pop("events", []),
    ]
    decision = {"attempts": [{"raw_outputs": [reasoning]}], "fallback": extra.pop("fallback", None)}
    return {"step": i, "decisions": {"0": decision}, "actions": {"0": action}, "events": events}


@pytest.mark.parametrize(
    ("count", "chosen"),
    [
        (0, []),
        (3, [0, 1, 2]),
        (6, [0, 1, 2, 3, 4, 5]),
        (10, [0, 1, 2, 3, 4, 7, 8, 9]),
        (11, [0, 1, 2, 3, 4, 5, 8, 9, 10]),
        (100, [0, 1, 2, 3, 4, 50, 97, 98, 99]),
    ],
)
def test_steps_shown_are_the_released_choice(count: int, chosen: list[int]) -> None:
    assert select_steps(count) == chosen


def test_the_prompt_holds_metrics_lessons_and_the_chosen_steps() -> None:
    trajectory = [step(i, f"thinking {i} " + "x" * 300) for i in range(12)]
    trajectory[11] = step(
        11, "bad", events=[{"type": "life_lost", "cause": "wall"}], fallback="game"
    )
    metrics = {"success": False, "score": -480, "exploration": 0.25, "map_id": "m1", "x": None}
    [(role, system), (_, user)] = reflection_messages(
        "EvoEmpirBench Maze", metrics, trajectory, truths=["Avoid walls."], chars=50
    )
    assert role == "system" and "one game of EvoEmpirBench Maze" in system
    assert user.startswith(
        "Result of the game: success: no, score: -480, exploration: 0.25, map_id: m1."
    )
    assert "Lessons the agent already had:\n- Avoid walls." in user
    shown = [int(n) for n in re.findall(r"^Step (\d+):", user, flags=re.MULTILINE)]
    assert shown == [1, 2, 3, 4, 5, 7, 10, 11, 12]
    assert (
        'Step 1: action 9 (Move RIGHT 1 step); reward -40 (score -40). Reasoning: "thinking 0 x'
        in (user)
    )
    first = next(line for line in user.splitlines() if line.startswith("Step 1:"))
    assert first.endswith('..."') and len(first.split("Reasoning: ")[1]) == 52
    last = next(line for line in user.splitlines() if line.startswith("Step 12:"))
    assert "events: life_lost, answer unreadable, fallback move played" in last
    assert user.endswith(
        'A lesson that only says what happened in this game ("Lost a life to a wall") is of '
        'type "observation".'
    )
    assert "List as many lessons as this game shows" in user
    assert "taken back" not in user  # no reverted lessons yet
    assert f'"summary": "{SUMMARY_TEMPLATE}"' in user


def test_an_empty_episode() -> None:
    [_, (_, user)] = reflection_messages("Maze", {"score": 0}, [])
    assert "The agent took no step." in user


READ = [
    (
        "Experience Summary: Due to haste, I hit a wall. Next time, I should look first.\n"
        "Strengths:\n- Found two coins\n- Kept all lives\nWeaknesses:\n- Hit one wall",
        "Due to haste, I hit a wall. Next time, I should look first.",
        ["Found two coins", "Kept all lives"],
        ["Hit one wall"],
    ),
    (  # Markdown headers, content on the next lines, numbered and other bullets
        "### Experience Summary\nDue to going right, I found the goal.\nNext time, I should "
        "do it faster.\n\n**Strengths:**\n1. Reached the goal\n2) Avoided walls\n"
        "**Weakness**\n• Too many steps taken",
        "Due to going right, I found the goal. Next time, I should do it faster.",
        ["Reached the goal", "Avoided walls"],
        ["Too many steps taken"],
    ),
    (  # no headers at all: the "Due to ..." sentence through its "Next time ..." sentence
        "Let me think. Due to the wall at (5,1), I lost a life.\nNext time, I should check "
        "the map first. Also I liked it.",
        "Due to the wall at (5,1), I lost a life. Next time, I should check the map first.",
        [],
        [],
    ),
    (  # no headers, no "Due to": the first advice and the sentence before it
        "The maze was hard. I walked into the wall twice. I should look at the map first. "
        "Then I should go right.",
        "I walked into the wall twice. I should look at the map first.",
        [],
        [],
    ),
    (  # "Experience:" and singular headers, bullets repeated or echoing the prompt
        "Experience: Due to luck, I won.\nStrength: <one thing that went well>\n"
        "- Explored the left side\n- explored the left side!\nWeaknesses:\n- ok\n"
        "- Due to luck, I won.",
        "Due to luck, I won.",
        ["Explored the left side"],
        [],
    ),
]


@pytest.mark.parametrize(("reply", "summary", "strengths", "weaknesses"), READ)
def test_replies_are_read(
    reply: str, summary: str, strengths: list[str], weaknesses: list[str]
) -> None:
    parsed = parse_reflection(reply)
    assert (parsed.summary, parsed.strengths, parsed.weaknesses) == (
        summary,
        strengths,
        weaknesses,
    )
    assert parsed.problem is None and parsed.usable


def test_what_is_dropped_is_said() -> None:
    parsed = parse_reflection(
        "Experience Summary: Due to luck, I won.\nStrengths:\n- <one thing that went well>\n"
        "- ok\n- Due to luck, I won.\nWeaknesses:\n"
        + "".join(f"- Mistake number {i}\n" for i in range(12))
    )
    assert parsed.weaknesses == [f"Mistake number {i}" for i in range(10)]
    assert parsed.dropped == [
        "unfilled slot: <one thing that went well>",
        "too short: ok",
        "duplicate: Due to luck, I won.",
        "over 10 items: Mistake number 10",
        "over 10 items: Mistake number 11",
    ]


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("Action: 9", "no-sections"),
        ("The game is a puzzle with a twist. The puzzle is a maze.", "no-sections"),
        (
            f"Experience Summary: {SUMMARY_TEMPLATE}\nStrengths:\n- <x>\nWeaknesses:\n",
            "nothing-usable",
        ),
        ("Experience Summary: Due to [cause], [consequence] happened.", "nothing-usable"),
        ("Summary: ok\nStrengths:\n- no", "nothing-usable"),
    ],
)
def test_unusable_replies(reply: str, problem: str) -> None:
    parsed = parse_reflection(reply)
    assert parsed.problem == problem and not parsed.usable


def test_lengths_are_capped() -> None:
    long = "Due to " + "a very long cause " * 40 + "."
    parsed = parse_reflection(f"Experience Summary: {long}\nStrengths:\n- {'b' * 300}")
    assert 390 < len(parsed.summary) <= 400 and parsed.summary.endswith("...")
    assert len(parsed.strengths[0]) == 200


def test_reverted_lessons_are_listed_as_not_to_propose_again() -> None:
    [_, (_, user)] = reflection_messages(
        "Maze", {"score": 0}, [], truths=["Avoid walls."], reverted=["Run for the goal."]
    )
    lines = user.splitlines()
    at = lines.index(
        "Lessons that were tried before and taken back because the test games went worse "
        "with them (do not propose these again):"
    )
    assert lines[at + 1] == "- Run for the goal." and lines[at - 1] == "- Avoid walls."
