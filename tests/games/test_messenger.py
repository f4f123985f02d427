"""Messenger levels 1 and 2: placement, movement, rewards, texts, manuals, scores."""

from __future__ import annotations

import dataclasses
import random

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.games.smartplay.messenger import manual
from langgraph_games.games.smartplay.messenger.render import direction, observation_text
from langgraph_games.games.smartplay.messenger.rules import (
    ACTIONS,
    ENTITIES,
    L1_CELLS,
    L2_CELLS,
    MessengerState,
    npc_move,
    step,
)
from langgraph_games.games.smartplay.metrics import episode_metrics
from langgraph_games.testing import check_game

NORTH, SOUTH, WEST, EAST, STAY = range(5)


def level1(**changes: object) -> MessengerState:
    """A hand-built level-1 state: enemy north, message west, goal east of the avatar."""
    base = MessengerState(
        seed=0,
        turn=0,
        level=1,
        enemy="airplane",
        message="robot",
        goal="ship",
        movement=("immovable",) * 3,
        avatar=(5, 5),
        enemy_at=(3, 5),
        message_at=(5, 3),
        goal_at=(5, 7),
        has_message=False,
        last_action=None,
        last_reward=0.0,
        total_reward=0.0,
        outcome=None,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def walk(state: MessengerState, actions: list[int]) -> MessengerState:
    for action in actions:
        state, _ = step(state, action)
    return state


def test_level1_placement_and_message_probability() -> None:
    game = make("messenger", level=1)
    holding = 0
    for seed in range(500):
        state = game.initial_state(seed)
        cells = {state.enemy_at, state.message_at, state.goal_at}
        assert len(cells) == 3 and cells <= set(L1_CELLS)
        assert state.avatar == (5, 5) and set(state.movement) == {"immovable"}
        holding += state.has_message
    assert holding / 500 == pytest.approx(0.2, abs=0.05)


def test_level2_placement() -> None:
    game = make("messenger", level=2)
    movements = set()
    for seed in range(200):
        state = game.initial_state(seed)
        cells = [state.avatar, state.enemy_at, state.message_at, state.goal_at]
        assert sorted(cells) == sorted(L2_CELLS)  # type: ignore[type-var]
        assert not state.has_message
        movements.add(state.movement)
    assert len(movements) == 27  # every chaser/fleeing/immovable combination occurs


@pytest.mark.parametrize(
    ("changes", "path", "reward", "outcome"),
    [
        ({}, [WEST, WEST], 1.0, "won"),  # pick up the message: level 1 ends with +1
        ({"has_message": True}, [WEST, WEST], -1.0, "lost"),  # the message again
        ({"has_message": True}, [EAST, EAST], 1.0, "won"),  # deliver
        ({}, [EAST, EAST], -1.0, "lost"),  # the goal without the message
        ({}, [NORTH, NORTH], -1.0, "lost"),  # the enemy
    ],
)
def test_level1_rewards(
    changes: dict[str, object], path: list[int], reward: float, outcome: str
) -> None:
    state = walk(level1(**changes), path)
    assert (state.last_reward, state.outcome, state.total_reward) == (reward, outcome, reward)
    assert make("messenger").is_terminal(state)


def test_level1_ends_after_four_steps_with_score_zero() -> None:
    session = GameSession("messenger", seed=0)
    for _ in range(4):
        session.step("Do Nothing")
    assert session.done
    metrics = episode_metrics(session)
    assert (metrics["score"], metrics["completed"], metrics["normalized_score"]) == (
        0.0,
        False,
        0.5,
    )
    assert metrics["column"] == "MessengerL1"


def test_observation_text_as_released() -> None:
    state = level1()
    assert observation_text(state) == (
        "You (agent) don't have the message.\n\n"
        "You see:\n"
        "- airplane 2 steps to your north\n"
        "- ship 2 steps to your east\n"
        "- robot 2 steps to your west"
    )
    state = walk(level1(has_message=True, goal_at=(7, 5)), [NORTH])
    assert observation_text(state) == (
        "You took action Move North.\n\n"
        "You (agent) already have the message.\n\n"
        "You see:\n"
        "- airplane 1 steps to your north\n"
        "- ship 3 steps to your south\n"
        "- robot 3 steps to your south-west"
    )
    dead = walk(level1(), [NORTH, NORTH])
    assert "- airplane 0 steps with you" in observation_text(dead)


def test_directions() -> None:
    assert direction((5, 5), (3, 7)) == "north-east"
    assert direction((5, 5), (9, 0)) == "south-west"
    assert direction((5, 5), (5, 0)) == "west"
    assert direction((5, 5), (5, 5)) == ""


def test_entities_are_listed_in_the_released_order() -> None:
    state = level1(enemy="mage", message="dog", goal="ball")
    names = [line.split()[1] for line in observation_text(state).splitlines()[3:]]
    assert names == sorted(names, key=ENTITIES.index) == ["mage", "dog", "ball"]


def level2(movement: tuple[str, str, str], **changes: object) -> MessengerState:
    return level1(level=2, movement=movement, **changes)


def test_chasers_approach_fleeing_entities_retreat_immovable_stay() -> None:
    rng = random.Random(1)
    avatar = (5, 5)
    moved = 0
    for _ in range(400):
        cell = (rng.randrange(10), rng.randrange(10))
        if cell == avatar:
            continue
        distance = abs(cell[0] - 5) + abs(cell[1] - 5)
        chased = npc_move(cell, "chaser", avatar, rng)
        assert abs(chased[0] - 5) + abs(chased[1] - 5) in (distance, distance - 1)
        fled = npc_move(cell, "fleeing", avatar, rng)
        fled_distance = abs(fled[0] - 5) + abs(fled[1] - 5)
        assert fled_distance >= distance or fled == cell or distance == 0
        assert npc_move(cell, "immovable", avatar, rng) == cell
        moved += chased != cell
    assert moved / 400 == pytest.approx(0.5, abs=0.08)  # speed 0.5


def test_fleeing_entity_never_comes_closer_unless_cornered() -> None:
    rng = random.Random(2)
    for _ in range(200):
        new = npc_move((2, 2), "fleeing", (5, 5), rng)
        assert new in {(2, 2), (1, 2), (2, 1)}


def test_level2_pickup_then_delivery() -> None:
    # message west, goal east, enemy far away; all immovable so the path is known.
    state = level2(("immovable",) * 3, enemy_at=(0, 0))
    state = walk(state, [WEST, WEST])
    assert (state.has_message, state.message_at, state.last_reward) == (True, None, 0.5)
    assert state.outcome is None
    assert "already have the message" in observation_text(state)
    assert "robot" not in observation_text(state)  # the message is gone from the map
    state = walk(state, [EAST] * 4)
    assert (state.last_reward, state.outcome, state.total_reward) == (1.0, "won", 1.5)


def test_level2_goal_without_message_and_enemy() -> None:
    state = walk(level2(("immovable",) * 3), [EAST, EAST])
    assert (state.last_reward, state.outcome) == (-1.0, "lost")
    state = walk(level2(("immovable",) * 3), [NORTH, NORTH])
    assert (state.last_reward, state.outcome) == (-1.0, "lost")


def test_level2_chasing_enemy_catches_an_idle_avatar() -> None:
    state = level2(("chaser", "immovable", "immovable"), seed=3)
    while state.outcome is None and state.turn < 64:
        state, _ = step(state, STAY)
    assert state.outcome == "lost" and state.last_reward == -1.0


def test_walking_into_an_entity_is_contact_wherever_it_moves() -> None:
    # The avatar steps north into the enemy's cell; the enemy (any movement) stays, steps
    # aside or swaps with the avatar: it is a contact every time.
    for movement in ("chaser", "fleeing"):
        state = level2((movement, "immovable", "immovable"), enemy_at=(4, 5))
        ends = set()
        for seed in range(40):
            new, _ = step(dataclasses.replace(state, seed=seed), NORTH)
            assert new.outcome == "lost"
            ends.add(new.enemy_at)
        assert len(ends) > 1  # the enemy did move in some of these steps


def test_an_entity_moving_into_the_avatar_is_contact() -> None:
    state = level2(("chaser", "immovable", "immovable"), enemy_at=(5, 4), seed=0)
    outcomes = {step(dataclasses.replace(state, seed=s), STAY)[0].outcome for s in range(40)}
    assert outcomes == {"lost", None}  # caught when it moved (half the time), else not yet


def test_level2_score_is_the_final_reward() -> None:
    scores = set()
    for seed in range(30):
        session = GameSession("messenger", seed=seed, level=2)
        rng = random.Random(seed)
        while not session.done:
            session.step(rng.choice(ACTIONS))
        metrics = episode_metrics(session)
        assert metrics["score"] == session.state.last_reward  # type: ignore[attr-defined]
        assert metrics["completed"] == (metrics["score"] == 1.0)
        assert metrics["column"] == "MessengerL2"
        assert len(session.actions) <= 64
        scores.add(metrics["score"])
    assert -1.0 in scores


def test_manuals_name_entities_by_synonyms_and_hint_movement() -> None:
    game = make("messenger", level=2)
    hints = {
        "chaser": (
            "toward",
            "heading",
            "closing",
            "after",
            "approach",
            "follows",
            "comes",
            "moving",
        )
    }
    for seed in range(40):
        state = game.initial_state(seed)
        lines = manual.manual_lines(state)
        assert len(lines) == 3
        for role, name, movement in zip(
            ("enemy", "message", "goal"),
            (state.enemy, state.message, state.goal),
            state.movement,
            strict=True,
        ):
            matching = [
                line
                for line in lines
                if any(f" {word}" in f" {line}" for word in manual.SYNONYMS[name])
            ]
            assert len(matching) == 1, (name, lines)
            templates = manual.TEMPLATES[role][movement]
            assert any(
                matching[0] == t.format(e=word) for t in templates for word in manual.SYNONYMS[name]
            )
            if movement == "chaser":
                assert any(word in matching[0] for word in hints["chaser"])
        text = game.manual(state)  # type: ignore[attr-defined]
        assert text.startswith(manual.CONTEXT) and manual.ADVICE in text
        assert text.endswith(
            "List of all actions:\n1. Move North\n2. Move South\n3. Move West\n"
            "4. Move East\n5. Do Nothing"
        )


def test_manuals_vary_with_the_seed_and_use_synonyms() -> None:
    game = make("messenger")
    texts = {game.manual(game.initial_state(seed)) for seed in range(20)}  # type: ignore[attr-defined]
    assert len(texts) == 20
    words = " ".join(texts)
    assert any(syn in words for syn in ("plane", "jet", "aircraft", "wizard", "sorcerer"))


def test_level2_conformance() -> None:
    check_game(make("messenger", level=2), seeds=range(10))
