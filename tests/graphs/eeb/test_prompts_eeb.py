"""EvoEmpirBench prompt builders: structure, one legend, truths and feedback slots, parsing."""

from __future__ import annotations

import re

import pytest

from langgraph_games.games import make
from langgraph_games.games.maze.render import legend
from langgraph_games.graphs.eeb.prompts import (
    match2_messages,
    match2_system_prompt,
    maze_messages,
    maze_system_prompt,
    maze_user_prompt,
    parse_match2_action,
    parse_maze_action,
)
from maze_maps import build


@pytest.mark.parametrize("level", [1, 2, 3])
def test_maze_prompt_structure_follows_the_paper(level: int) -> None:
    game = make("maze", level=level)
    state = game.initial_state(1)
    (role_s, system), (role_u, user) = maze_messages(game, state)
    assert (role_s, role_u) == ("system", "user")
    assert f"{game.size}x{game.size} grid" in system
    order = [
        "Current Game State:",
        "Current position (row,col)",
        "Game Status:",
        "Movement:",
        "Actions:",
        "Scoring:",
        "Rules:",
        "How to answer:",
    ]
    positions = [user.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert game.observation(state, 0) in user
    assert user.rstrip().endswith("moves right by one cell).")
    assert ("monster" in user.lower()) == (level >= 2)
    assert ("key" in user.lower()) == (level == 3)
    for action in range(12):
        assert f"- {action}: Move " in user


def test_maze_prompt_and_map_share_one_legend() -> None:
    game = make("maze", level=3, full_vision=True)
    system = maze_system_prompt(game)
    listed = dict(re.findall(r"^- (\S): (.+)$", system, flags=re.MULTILINE))
    assert listed == dict(legend(3))
    user = maze_user_prompt(game, game.initial_state(0))
    assert "shovel (S)" in user and "magnet (N)" in user and "key (K)" in user
    assert "(T)" not in user  # the released prompt called the shovel T


def test_truths_and_feedback_slots() -> None:
    game = make("maze")
    state = game.initial_state(0)
    system, user = (
        text
        for _, text in maze_messages(
            game, state, truths=["Walls cost lives.", "Coins first."], feedback="no action found"
        )
    )
    assert system.endswith("1. Walls cost lives.\n2. Coins first.")
    assert user.endswith("no action found\nPlease answer again.")
    assert "Lessons" not in maze_system_prompt(game)


def test_full_vision_and_move_mode_are_described() -> None:
    full = make("maze", full_vision=True, move_mode="teleport")
    system, user = (text for _, text in maze_messages(full, full.initial_state(0)))
    assert "whole map" in system and "whole map" in user
    assert "jumps straight to the target" in user


def test_match2_prompts() -> None:
    game = make("match2", difficulty="hard")
    state = game.initial_state(0)
    (_, system), (_, user) = match2_messages(game, state, truths=["Use the bomb late."])
    assert "n * 5 + 3 * max(0, n - 2)" in system and "bomb" in system and "```json" in system
    assert system.endswith("1. Use the bomb late.")
    assert user.startswith("Board (row 0 at the top")
    assert f"Steps remaining: {state.steps_left}" in user
    no_props = match2_system_prompt(make("match2", props=False))
    assert "hammer" not in no_props and '"type": "eliminate"' in no_props


def test_parsers_return_the_canonical_action_or_the_reason() -> None:
    assert parse_maze_action("Moving right. Action: 9").action == "9"
    assert parse_maze_action("nothing").action is None
    assert parse_maze_action("Action: 1, then Action: 2", pick="last").action == "2"
    polite = "I'm sorry, the wall blocks me. Action: 3"
    assert parse_maze_action(polite).action == "3"
    assert parse_maze_action(polite, detect_refusal=True).action is None
    assert parse_match2_action('```json\n{"action": {"type": "row", "index": 3}}\n```') == (
        "row,3",
        None,
    )
    assert "declined" in (parse_match2_action('{"action": null}').reason or "")


WALL_ON_THE_WAY = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    "A # . . . . .",
]


@pytest.mark.parametrize("mode", ["path_checked", "teleport"])
def test_the_prompt_says_what_a_wall_on_the_way_does(mode: str) -> None:
    game = make("maze", move_mode=mode)
    state = build(WALL_ON_THE_WAY)
    after, _ = game.apply(state, {0: "10"})  # right 2: the wall is on the way
    rule = next(line for line in maze_user_prompt(game, state).splitlines() if "2 or 3" in line)
    if mode == "path_checked":  # the paper: a wall "costs life if hit"
        assert after.lives == state.lives - 1 and after.agent == state.start
        assert "is hit, which costs a life" in rule and "stops" not in rule
    else:  # the released move jumps over it
        assert after.lives == state.lives and after.agent == (6, 2)
        assert "over whatever lies between" in rule
