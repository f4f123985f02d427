"""Gymnasium adapter: Gymnasium's env checker, registration, and agreement with the engine."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from langgraph_games.games import GameSession, IllegalActionError, list_games
from langgraph_games.integrations.gymnasium import GameEnv, env_id, register_envs

SINGLE = [info.id for info in list_games() if info.num_players == 1]
# Crafter's default episode is 10,000 steps; a short one keeps the play-outs quick.
PLAYOUT_OPTIONS: dict[str, dict[str, Any]] = {"crafter": {"length": 60}}


def test_every_single_player_game_is_registered() -> None:
    assert {
        "bandit", "crafter", "hanoi", "match2", "maze", "messenger", "minesweeper",
        "rock_paper_scissors",
    } <= set(SINGLE)  # fmt: skip
    ids = register_envs()
    assert ids == [env_id(g) for g in SINGLE]
    assert "langgraph_games/Maze-v1" in ids and "langgraph_games/RockPaperScissors-v1" in ids
    assert all(i in gymnasium.registry for i in ids)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("game_id", SINGLE)
def test_gymnasium_env_checker_passes(game_id: str) -> None:
    env = gymnasium.make(env_id(game_id))
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped, GameEnv)


@pytest.mark.parametrize("game_id", SINGLE)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_masked_playout_agrees_with_the_engine(game_id: str, seed: int) -> None:
    options = PLAYOUT_OPTIONS.get(game_id, {})
    env = GameEnv(game_id, **options)
    obs, info = env.reset(seed=seed)
    assert info == {"game_seed": seed}
    engine = GameSession(game_id, seed=seed, **options)
    rng = np.random.default_rng(seed)
    total, terminated, steps = 0.0, False, 0
    while not terminated:
        assert obs["text"] == engine.observe(0)
        legal = [env.action_names()[i] for i in np.flatnonzero(obs["action_mask"])]
        assert sorted(legal) == sorted(engine.legal_actions(0))
        assert np.array_equal(obs["action_mask"], env.action_masks())
        index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(index)
        engine.step(env.action_names()[index])
        assert info == {"action": env.action_names()[index]} and not truncated
        total += float(reward)
        steps += 1
        assert steps < 2000
    assert engine.done
    assert total == pytest.approx(engine.returns[0])


def test_make_through_the_module_prefix_and_time_limit_truncation() -> None:
    env = gymnasium.make(
        "langgraph_games.integrations.gymnasium:langgraph_games/Hanoi-v1",
        max_episode_steps=2,
        disks=4,
    )
    env.reset(seed=5)
    assert env.unwrapped.game.options_dict() == {"disks": 4}  # type: ignore[attr-defined]
    # Four disks take at least 15 moves, so only the time limit can end two steps.
    first, second = env.step(0), env.step(1)
    assert (first[2], first[3]) == (False, False)
    assert (second[2], second[3]) == (False, True)


def test_illegal_action_plays_the_fallback_or_raises() -> None:
    env = GameEnv("match2")
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    # Without 'invalid' moves, Match-2 falls back to a random legal move (seeded by the state).
    assert info["illegal_action"] == env.action_names()[illegal]
    assert info["action"] in GameSession("match2", seed=2).legal_actions(0)
    strict = GameEnv("match2", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError, match=r"Legal actions: eliminate,"):
        strict.step(illegal)


def test_step_after_the_end_and_multiplayer_games_are_refused() -> None:
    env = GameEnv("messenger")
    env.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(0)
    with pytest.raises(RuntimeError, match=r"the episode is over; call reset\(\)"):
        env.step(0)
    with pytest.raises(ValueError, match=r"tictactoe has 2 players.*pettingzoo"):
        GameEnv("tictactoe")


def test_render_returns_the_games_picture() -> None:
    env = GameEnv("hanoi", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == GameSession("hanoi").render()


def test_a_view_outside_the_text_space_is_refused_with_the_fix() -> None:
    narrow = GameEnv("hanoi", charset="ABC \n")
    with pytest.raises(ValueError, match=r"characters outside the observation space's charset"):
        narrow.reset(seed=0)
    short = GameEnv("hanoi", max_text_length=20)
    with pytest.raises(ValueError, match=r"more than the observation space's max_text_length=20"):
        short.reset(seed=0)
