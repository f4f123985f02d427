"""EvoEmpirBench maze: every mechanic on hand-built maps, exact scores, parsing, options."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, IllegalActionError, OptionError, make
from langgraph_games.games.maze import Maze
from langgraph_games.games.maze.parsing import parse_maze_answer
from langgraph_games.games.maze.render import LEGEND, legend, map_text
from langgraph_games.games.maze.rules import MazeState
from maze_maps import build

OPEN7 = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    "A . . . . . .",
]


def step(game: Maze, state: MazeState, action: int) -> tuple[MazeState, list[dict]]:
    return game.apply(state, {0: str(action)})


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# ----- moves --------------------------------------------------------------------------


def test_off_grid_move_costs_a_step_and_stays() -> None:
    game = Maze()
    state = build(OPEN7)
    after, events = step(game, state, 3)  # down from the bottom row
    assert after.agent == state.agent
    assert after.score == -50 and after.turn == 1
    assert "off_grid" in kinds(events)


def test_path_checked_move_stops_at_a_wall_on_the_way() -> None:
    rows = list(OPEN7)
    rows[6] = "A # . . . . ."
    state = build(rows)
    after, events = step(Maze(), state, 10)  # right 2: the wall is crossed first
    assert after.lives == 2 and after.agent == (6, 0)
    assert after.score == -50 - 1000
    assert "life_lost" in kinds(events)


def test_teleport_jumps_over_the_wall_released_behaviour() -> None:
    rows = list(OPEN7)
    rows[6] = "A # . . . . ."
    after, events = step(Maze(move_mode="teleport"), build(rows), 10)
    assert after.lives == 3 and after.agent == (6, 2)
    assert "life_lost" not in kinds(events)


def test_path_checked_move_collects_coins_on_the_way_teleport_does_not() -> None:
    rows = list(OPEN7)
    rows[6] = "A C C . . . ."
    walked, _ = step(Maze(), build(rows), 10)
    jumped, _ = step(Maze(move_mode="teleport"), build(rows), 10)
    assert walked.coins == 2
    assert jumped.coins == 1  # only the landing cell
    assert walked.agent == jumped.agent == (6, 2)


# ----- exact scores -------------------------------------------------------------------


def test_scripted_episode_exact_scores() -> None:
    rows = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "C . . . . . .",
        "A . # . . . .",
    ]
    game = Maze()
    state = build(rows)
    assert state.explored == 4
    # Up 1: coin (+500), sees (4,0) and (4,1) (+20), step (-50).
    state, _ = step(game, state, 0)
    assert (state.score, state.coins, state.agent) == (470, 1, (5, 0))
    # Right 2 walks (5,1) then (5,2): new cells (4,2), (5,2), (4,3), (5,3), (6,3); the wall
    # at (6,2) is seen but not explorable.
    state, events = step(game, state, 10)
    assert state.agent == (5, 2)
    assert events[-1] == {"type": "reward", "reward": 0, "score": 470, "new_cells": 5}
    # Down 3 leaves the grid: -50, no move.
    state, _ = step(game, state, 5)
    assert (state.score, state.agent) == (420, (5, 2))
    # Down 1 into the wall: -1000 and the step, back to the start.
    state, _ = step(game, state, 3)
    assert (state.score, state.lives, state.agent) == (-630, 2, (6, 0))
    # Right 1 onto (6,1): nothing new to see.
    state, _ = step(game, state, 9)
    assert state.score == -680


def test_goal_pays_2000_and_ends_with_success() -> None:
    rows = [
        ". . . . . . G",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . A",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
    ]
    game = Maze()
    state = build(rows, seen_all=True)
    state, events = step(game, state, 2)  # up 3 reaches (0,6)
    assert game.is_terminal(state) and game.success(state)
    assert state.score == -50 + 2000
    assert "goal" in kinds(events)
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: "0"})


def test_step_limit_ends_the_episode() -> None:
    game = Maze(max_steps=2)
    state = build(OPEN7)
    state, _ = step(game, state, 3)
    assert not game.is_terminal(state)
    state, events = step(game, state, 3)
    assert state.outcome == "timeout" and "timeout" in kinds(events)


# ----- lives and monsters -------------------------------------------------------------


def test_three_lives_then_dead() -> None:
    rows = list(OPEN7)
    rows[5] = "# . . . . . ."
    game = Maze()
    state = build(rows)
    for lives in (2, 1, 0):
        state, events = step(game, state, 0)  # up into the wall
        assert state.lives == lives and state.agent == (6, 0)
    assert state.outcome == "dead" and game.is_terminal(state)
    assert "dead" in kinds(events)


def test_monster_collision_sends_the_agent_back_to_the_start() -> None:
    rows = list(OPEN7)
    rows[6] = ". . A M . . ."
    game = Maze(level=2)
    state = build(rows, level=2, seen_all=True)
    state, events = step(game, state, 9)  # onto the monster
    assert state.lives == 2 and state.agent == (6, 0)
    assert any(e["type"] == "life_lost" and e["cause"] == "monster" for e in events)
    assert state.score == -50 - 1000


def test_collision_with_a_monster_about_to_move_onto_the_agent() -> None:
    rows = list(OPEN7)
    rows[5] = ". . . . M . ."
    rows[6] = ". . A . . . ."
    game = Maze(level=2)
    # The monster at (5,4) has planned to step to (6,4) (moving=True); it completes the move
    # this turn, onto the cell where the agent lands.
    state = build(rows, level=2, planned={(5, 4): (6, 4)})
    state, _events = step(game, state, 10)
    assert state.lives == 2
    assert state.monsters[0][:2] == (6, 4)


def test_monster_alternates_planning_and_moving_from_the_seed() -> None:
    rows = list(OPEN7)
    rows[2] = ". . . M . . ."
    game = Maze(level=2)
    state = build(rows, level=2)
    first, _ = step(game, state, 3)  # off grid: monsters keep still, as released
    assert first.monsters == state.monsters
    planned, _ = step(game, state, 9)
    r, c, nr, nc, moving = planned.monsters[0]
    assert (r, c) == (2, 3) and moving and abs(nr - 2) + abs(nc - 3) == 1
    moved, _ = step(game, planned, 9)
    assert moved.monsters[0] == (nr, nc, nr, nc, False)
    again, _ = step(game, state, 9)
    assert again == planned  # the same seed and turn give the same plan


def test_monster_in_the_way_of_a_long_move_stops_it() -> None:
    rows = list(OPEN7)
    rows[6] = "A M . . . . ."
    state, _events = step(Maze(level=2), build(rows, level=2), 11)
    assert state.lives == 2 and state.agent == (6, 0)


# ----- items --------------------------------------------------------------------------


def test_sword_kills_monsters_and_pays_the_kill_bonus() -> None:
    rows = list(OPEN7)
    rows[6] = ". . A M . . ."
    game = Maze(level=3)
    state = build(rows, level=3, sword=True, seen_all=True)
    state, events = step(game, state, 9)
    assert state.kills == 1 and state.monsters == () and state.lives == 3
    assert state.score == -50 + 500  # the kill bonus the released code never paid (E4)
    assert "kill" in kinds(events)


def test_picking_up_each_item_pays_its_bonus() -> None:
    game = Maze(level=3)
    for symbol, field, bonus in (
        ("S", "shovel_uses", 100),
        ("W", "sword", 200),
        ("N", "magnet", 150),
        ("K", "key", 300),
    ):
        rows = list(OPEN7)
        rows[6] = f"A {symbol} . . . . ."
        state, events = step(game, build(rows, level=3, seen_all=True), 9)
        assert state.score == -50 + bonus, symbol
        assert getattr(state, field) in (True, 3)
        assert state.at((6, 1)) == "."
        assert "item" in kinds(events)


def test_shovel_breaks_three_walls_then_walls_cost_lives_again() -> None:
    rows = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "A # # # # . .",
    ]
    game = Maze(level=3)
    state = build(rows, level=3, shovel_uses=3, seen_all=True)
    for broken in (1, 2, 3):
        state, events = step(game, state, 9)
        assert state.walls_broken == broken and state.agent == (6, broken)
        assert state.at((6, broken)) == "." and "wall_broken" in kinds(events)
    # Each broken wall becomes an explored cell (+10) besides the +500 bonus.
    assert state.score == 3 * (-50 + 500 + 10) and state.shovel_uses == 0
    state, _ = step(game, state, 9)
    assert state.lives == 2 and state.agent == (6, 0)


def test_magnet_pulls_coins_within_two_cells() -> None:
    rows = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . C .",
        ". . C . . . .",
        ". . . . . . .",
        "A . . . . . C",
    ]
    game = Maze(level=3)
    state = build(rows, level=3, magnet=True, seen_all=True)
    state, _events = step(game, state, 10)  # to (6,2): (4,2) is 2 away, (6,6) 4, (3,5) 3
    assert state.coins == 1 and state.at((4, 2)) == "."
    assert state.at((6, 6)) == "C" and state.at((3, 5)) == "C"
    assert state.score == -50 + 500


def test_goal_needs_the_key_on_level_3() -> None:
    rows = [
        ". . . . . . G",
        ". . . . . . A",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
    ]
    game = Maze(level=3)
    state, events = step(game, build(rows, level=3, seen_all=True), 0)
    assert "goal_locked" in kinds(events)
    assert state.agent == (1, 6) and not game.is_terminal(state)
    assert state.score == -50
    with_key, events = step(game, build(rows, level=3, key=True, seen_all=True), 0)
    assert game.success(with_key) and with_key.score == -50 + 2000


def test_locked_goal_in_teleport_mode_stops_one_cell_short() -> None:
    rows = [
        ". . . . . . G",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . A",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
    ]
    state, _ = step(Maze(level=3, move_mode="teleport"), build(rows, level=3, seen_all=True), 2)
    assert state.agent == (1, 6)


# ----- views, parsing, options --------------------------------------------------------


def test_vision_accumulates_into_the_known_map() -> None:
    game = Maze()
    state = game.initial_state(5)
    assert state.seen.count("1") == 4  # the start corner's 3x3 view
    state, _ = step(game, state, 0)
    assert state.seen.count("1") == 6
    text = map_text(state)
    assert text.count("?") == 49 - 6 - 1  # the goal is always shown


def test_full_vision_shows_the_whole_map() -> None:
    partial = Maze(level=3, map_set="eval", map_index=1)
    full = Maze(level=3, map_set="eval", map_index=1, full_vision=True)
    state = partial.initial_state(0)
    assert "?" in partial.observation(state, 0).split("Current position")[0].split("+")[1]
    seen_map = full.observation(state, 0).split("Current position")[0].split("+")[1]
    assert "?" not in seen_map and "K" in seen_map
    assert "whole map" in full.observation(state, 0)


def test_every_map_symbol_is_in_the_legend() -> None:
    for level in (1, 2, 3):
        game = make("maze", level=level, full_vision=True)
        symbols = {s for s, _ in legend(level)}
        for seed in range(20):
            body = map_text(game.initial_state(seed), full_vision=True).splitlines()[2:]
            shown = {ch for line in body for ch in line.split("|")[1].split()}
            assert shown <= symbols, (level, shown - symbols)
    assert len({s for s, _, _ in LEGEND}) == len(LEGEND)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("**Action: 9**", "9"),  # paper Appendix C
        ("I pick Action：4 now", "4"),  # full-width colon
        ("Best is action 7 here", "7"),
        ("My choice: 10", "10"),
        ("so I will go with 11.", "11"),
        ("I will move left two steps", "7"),
        ("Move Down 3 Steps looks safe", "5"),
        ("Action: 15, no wait, choice: 2", "2"),  # out of range falls through
        ("Action: 3 ... Action: 6", "3"),  # the first match, as released
    ],
)
def test_action_parser_follows_the_released_order(text: str, action: str) -> None:
    assert parse_maze_answer(text).action == action


def test_action_parser_reports_unreadable_replies_and_can_pick_the_last() -> None:
    parsed = parse_maze_answer("I am not sure where to go.")
    assert parsed.action is None and "Action: X" in (parsed.reason or "")
    assert parse_maze_answer("Action: 3 ... Action: 6", pick="last").action == "6"
    game = Maze()
    state = game.initial_state(0)
    assert game.parse_action(state, 0, "no idea") is None
    assert game.fallback_action(state, 0, __import__("random").Random(0)) == "0"
    assert game.parse_action(state, 0, " 11 ") == "11"


def test_bad_options_are_rejected_with_the_accepted_values() -> None:
    with pytest.raises(OptionError, match="level"):
        make("maze", level=4)
    with pytest.raises(OptionError, match="1-10"):
        make("maze", map_set="train", map_index=11)
    with pytest.raises(OptionError, match="map_set"):
        make("maze", map_set="test")
    with pytest.raises(IllegalActionError, match="Legal actions"):
        GameSession("maze").step("12")
