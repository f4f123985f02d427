"""Pong: physics invariants, interception truth against simulation, views, parsing, outcomes."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from langgraph_games.games import GameSession, IllegalActionError, OptionError, make
from langgraph_games.games.pong import Pong, PongState
from langgraph_games.games.pong.render import frame_text
from langgraph_games.games.pong.rules import (
    LEFT_X,
    LOWER_WALL,
    PADDLE_HEIGHT,
    RIGHT_X,
    UPPER_WALL,
    land_y,
    move_ball,
)
from langgraph_games.games.pong.truth import frames_show_motion
from langgraph_games.games.subproblems import score_answer

ACTIONS = ("Move Up", "Move Down", "Stay Still")
LINES = (RIGHT_X, LEFT_X)


def random_states(count: int, seed: int = 0) -> list[tuple[Pong, PongState]]:
    """States met in seeded random play (two points per match, so serves happen)."""
    game = Pong(points_to_win=2)
    rng = random.Random(seed)
    states = []
    episode = 0
    while len(states) < count:
        state = game.initial_state(episode)
        while not game.is_terminal(state) and len(states) < count:
            states.append((game, state))
            state, _ = game.apply(state, {0: rng.choice(ACTIONS), 1: rng.choice(ACTIONS)})
        episode += 1
    return states


def test_physics_invariants_on_random_play() -> None:
    game = Pong(points_to_win=3)
    rng = random.Random(1)
    for seed in range(40):
        state = game.initial_state(seed)
        while not game.is_terminal(state):
            joint = {0: rng.choice(ACTIONS), 1: rng.choice(ACTIONS)}
            new, events = game.apply(state, joint)
            kinds = {e["type"] for e in events}
            x, y = new.ball
            assert LEFT_X <= x <= RIGHT_X and LOWER_WALL <= y <= UPPER_WALL
            assert all(LOWER_WALL <= p <= UPPER_WALL - PADDLE_HEIGHT for p in new.paddles)
            assert abs(new.velocity[0]) == 4 and new.velocity[1] in (-8, -6, -4, -2, 2, 4, 6, 8)
            for seat in (0, 1):  # paddles move by the speed unless a wall stops them
                step = {"Move Up": 8, "Move Down": -8, "Stay Still": 0}[joint[seat]]
                wanted = state.paddles[seat] + step
                assert new.paddles[seat] == max(LOWER_WALL, min(UPPER_WALL - 16, wanted))
            if "point" in kinds:
                if "serve" in kinds:
                    assert new.ball == (80, 96) and len(new.frames) == 1
                state = new
                continue
            assert x == state.ball[0] + state.velocity[0]
            free_y = state.ball[1] + state.velocity[1]
            if "wall" in kinds:  # a bounce reflects the position and flips vertical speed
                wall = UPPER_WALL if free_y >= UPPER_WALL else LOWER_WALL
                assert y == 2 * wall - free_y
            else:
                assert y == free_y
            if "hit" in kinds:
                assert new.velocity[0] == -state.velocity[0]
            else:
                assert new.velocity[0] == state.velocity[0]
                expected_vy = state.velocity[1] * (-1 if "wall" in kinds else 1)
                assert new.velocity[1] == expected_vy
            state = new


def brute_force_arrival(game: Pong, state: PongState, seat: int) -> int:
    """Step the engine (nobody moves) until the ball reaches ``seat``'s line; its y there."""
    while True:
        state, events = game.apply(state, {0: "Stay Still", 1: "Stay Still"})
        for event in events:
            if event["type"] == "hit" and event["player"] == seat:
                return int(event["y"])
            if event["type"] == "point" and event["player"] == 1 - seat:
                return int(event["y"])
        assert not game.is_terminal(state) or any(e["type"] == "point" for e in events)


def test_interception_truth_matches_simulation() -> None:
    checked = 0
    for game, state in random_states(3000):
        for seat in (0, 1):
            truth = game.ground_truth(state, seat)
            if 2 not in truth:
                continue
            assert truth[2] == brute_force_arrival(game, state, seat)
            checked += 1
    assert checked > 500


def test_closed_form_matches_step_simulation_everywhere() -> None:
    rng = random.Random(3)
    for _ in range(5000):
        y = rng.randint(LOWER_WALL, UPPER_WALL)
        vy = rng.choice((-8, -6, -4, -2, 2, 4, 6, 8))
        steps = rng.randint(0, 30)
        sim_y, sim_vy = y, vy
        for _ in range(steps):
            sim_y, sim_vy, _ = move_ball(sim_y, sim_vy)
        assert land_y(RIGHT_X - 4 * steps, y, 4, vy, RIGHT_X) == sim_y


def test_prompt_worked_example() -> None:
    # Appendix H.2: frames at (75, 144) and (79, 152) cross x = 140 at y = 78 after a bounce.
    assert land_y(79, 152, 4, 8, 140) == 78
    # The example in our own prompt: (96, 128) then (100, 136) arrives at y = 136.
    assert land_y(100, 136, 4, 8, 140) == 136


def test_truth_direction_and_mirror() -> None:
    game = Pong()
    state = PongState(
        seed=0,
        turn=5,
        ball=(100, 136),
        velocity=(4, 8),
        paddles=(100, 60),
        score=(0, 0),
        frames=((92, 120, 100, 60), (96, 128, 100, 60), (100, 136, 100, 60)),
        serves=1,
    )
    assert game.ground_truth(state, 0) == {1: "right up", 2: 136}
    assert game.ground_truth(state, 1) == {1: "left up"}  # going away from the left paddle
    assert "'ball_x': 100" in game.observation(state, 0)
    assert "'ball_x': 60" in game.observation(state, 1)  # mirrored: 160 - 100
    assert frame_text(state.frames[-1], 1).startswith(
        "{'ball_x': 60, 'ball_y': 136, 'player_x': 140, 'player_y': [60, 76], "
        "'opponent_x': 20, 'opponent_y': [100, 116]"
    )
    # The left seat's mirrored truth equals the right seat's truth of the mirrored state.
    mirrored = replace(
        state,
        ball=(60, 136),
        velocity=(-4, 8),
        frames=tuple((160 - x, y, b, a) for x, y, a, b in state.frames),
        paddles=(60, 100),
    )
    assert game.ground_truth(mirrored, 1) == game.ground_truth(state, 0)


def test_no_truth_when_frames_hide_the_motion() -> None:
    game = Pong()
    start = game.initial_state(0)
    assert not frames_show_motion(start) and game.ground_truth(start, 0) == {}
    # A wall bounce in the last step: the frames show a y step that is not the velocity.
    bounced = PongState(
        seed=0,
        turn=9,
        ball=(100, 170),
        velocity=(4, -8),
        paddles=(88, 88),
        score=(0, 0),
        frames=((92, 162, 88, 88), (96, 170, 88, 88), (100, 170, 88, 88)),
        serves=1,
    )
    assert game.ground_truth(bounced, 0) == {}


def test_intermediate_scoring_of_pong_answers() -> None:
    game = Pong()
    direction, landing = game.subproblems
    assert score_answer(direction, "Right Up", "right up").correct
    assert score_answer(direction, "Right/Up", "right up").correct
    assert not score_answer(direction, "Left Up", "right up").correct
    assert score_answer(landing, "136", 136).correct
    assert not score_answer(landing, "137", 136).correct


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**[Action]**\n1 - Move Up", "Move Up"),
        ("[Action] 2 - Move Down", "Move Down"),
        ("[Action]\n0 - Stay Still", "Stay Still"),
        ("[Action] 2", "Move Down"),
        (" 2", "Move Down"),  # a reply that is the number alone
        ("I might move up ... **[Action]** stay still", "Stay Still"),
        ("[Action] 1 - Move Up, since going down would miss", "Move Up"),  # commentary
        ("[Action] 1 - Move Up or 2 - Move Down", None),  # two different actions: ambiguous
        ("no label and two different actions: move up, no, move down", None),
        ("Move Up", "Move Up"),
        ("I have no idea", None),
    ],
)
def test_parse_action(text: str, expected: str | None) -> None:
    game = Pong()
    assert game.parse_action(game.initial_state(0), 0, text) == expected


def test_fallback_is_stay_still() -> None:
    game = Pong()
    assert game.fallback_action(game.initial_state(0), 1, random.Random(0)) == "Stay Still"


def test_scripted_match_outcome_values() -> None:
    # Nobody moves: the serve of seed 0 goes left with vy = +4 and lands at y = 156 at x = 20,
    # above the left paddle [88, 104], so the right paddle (seat 0) scores.
    game = Pong()
    session = GameSession(game, seed=0)
    assert session.state.velocity == (-4, 4)
    while not session.done:
        session.step({0: "Stay Still", 1: "Stay Still"})
    assert len(session.actions) == 15
    assert session.returns == (1.0, -1.0)
    assert [r / game.return_scale for r in session.returns] == [1.0, -1.0]
    # The left paddle moves up 7 times (to [144, 160]) and meets the ball 4 above its centre,
    # so the ball goes back with vy = +4, bounces at the top and reaches x = 140 at y = 76,
    # below the idle right paddle: the left seat scores after 15 + 30 steps.
    session = GameSession(game, seed=0)
    while not session.done:
        left = "Move Up" if len(session.actions) < 7 else "Stay Still"
        session.step({0: "Stay Still", 1: left})
    hits = [e for events in session.events for e in events if e["type"] == "hit"]
    assert hits == [{"type": "hit", "player": 1, "y": 156}]
    assert session.events[-1][-2]["y"] == 76
    assert len(session.actions) == 45
    assert session.returns == (-1.0, 1.0)


def test_step_limit_draw_and_point_limit() -> None:
    game = Pong(max_steps=10)
    session = GameSession(game, seed=0)
    while not session.done:
        session.step({0: "Stay Still", 1: "Stay Still"})
    assert len(session.actions) == 10 and session.returns == (0.0, 0.0)
    longer = Pong(points_to_win=2)
    session = GameSession(longer, seed=0)
    while not session.done:
        session.step({0: "Stay Still", 1: "Stay Still"})
    assert max(session.state.score) == 2 and sum(session.state.score) >= 2


def test_bad_input() -> None:
    game = Pong()
    state = game.initial_state(0)
    with pytest.raises(IllegalActionError, match="Legal actions: Move Down, Move Up, Stay Still"):
        game.apply(state, {0: "jump", 1: "Stay Still"})
    with pytest.raises(IllegalActionError, match="gave no action"):
        game.apply(state, {0: "Stay Still"})
    with pytest.raises(OptionError, match="points_to_win"):
        make("pong", points_to_win=0)
    with pytest.raises(OptionError, match="Valid options"):
        make("pong", paddle=3)
