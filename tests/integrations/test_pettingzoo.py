"""PettingZoo adapters: PettingZoo's own API and seed tests, and agreement with the engine."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from langgraph_games.games import GameSession, IllegalActionError, list_games
from langgraph_games.integrations.pettingzoo import (
    GameAECEnv,
    GameParallelEnv,
    aec_env,
    parallel_env,
)

with warnings.catch_warnings():
    # pettingzoo.test loads PettingZoo's own classic examples, which warn about their API.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

MULTI = [info.id for info in list_games() if info.num_players > 1]
TURN_BASED = [info.id for info in list_games() if info.num_players > 1 and not info.simultaneous]
SIMULTANEOUS = [info.id for info in list_games() if info.simultaneous]

# PettingZoo's API test gives advice that a text observation cannot follow: it wants NumPy
# arrays in Box/Discrete spaces, and it flags the all-zero mask a finished agent sees.
# Every other warning fails the test.
ADVICE = [
    "error",
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Action mask numpy array is all zeros",
]


def test_the_game_lists_cover_both_kinds() -> None:
    assert {"pong", "surround"} <= set(SIMULTANEOUS)
    assert {"tictactoe", "connect4", "othello", "checkers", "negotiation", "texas_holdem"} <= set(
        TURN_BASED
    )


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize("game_id", MULTI)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str) -> None:
    api_test(aec_env(game_id), num_cycles=300)
    parallel_api_test(parallel_env(game_id), num_cycles=300)
    seed_test(lambda: aec_env(game_id), num_cycles=60)
    parallel_seed_test(lambda: parallel_env(game_id), num_cycles=60)


def _legal_index(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game_id", TURN_BASED)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_masked_aec_playout_agrees_with_the_engine(game_id: str, seed: int) -> None:
    env = aec_env(game_id)
    env.reset(seed=seed)
    universe = env.unwrapped.episode.universe
    engine = GameSession(game_id, seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            assert engine.done
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert engine.current_players == (seat,)
        assert obs["text"] == engine.observe(seat)
        legal = [universe.actions[i] for i in np.flatnonzero(obs["action_mask"])]
        assert sorted(legal) == sorted(engine.legal_actions(seat))
        index = _legal_index(obs["action_mask"], rng)
        env.step(index)
        engine.step(universe.actions[index])
    assert not env.agents and engine.done
    assert [totals[a] for a in env.possible_agents] == pytest.approx(list(engine.returns))


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_masked_parallel_playout_agrees_with_the_engine(game_id: str, seed: int) -> None:
    env = parallel_env(game_id)
    observations, _ = env.reset(seed=seed)
    universe = env.episode.universe
    engine = GameSession(game_id, seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        for agent, obs in observations.items():
            assert obs["text"] == engine.observe(int(agent[-1]))
        actions = {a: _legal_index(observations[a]["action_mask"], rng) for a in env.agents}
        engine.step({int(a[-1]): universe.actions[i] for a, i in actions.items()})
        observations, rewards, terminations, truncations, _ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert all(terminations.values()) == engine.done
        assert not any(truncations.values())
    assert [totals[a] for a in env.possible_agents] == pytest.approx(list(engine.returns))


def test_reset_with_a_seed_reproduces_the_episode_and_plays_that_game_seed() -> None:
    env = aec_env("negotiation")
    env.reset(seed=11)
    first = env.observe("player_0")["text"]
    assert first == GameSession("negotiation", seed=11).observe(0)
    env.reset()  # drawn from the generator seeded with 11
    drawn = env.infos["player_0"]["game_seed"]
    env.reset(seed=11)
    env.reset()
    assert env.infos["player_0"]["game_seed"] == drawn


def test_illegal_action_plays_the_engines_fallback_and_says_so() -> None:
    env = aec_env("texas_holdem")
    env.reset(seed=0)
    universe = env.unwrapped.episode.universe
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = [i for i in range(len(universe)) if not mask[i]]
    assert illegal, "some action is illegal at the start of a hand"
    agent = env.agent_selection
    env.step(illegal[0])
    info = env.infos[agent]
    # GAMEBoT's Hold'em runner folds when an answer cannot be used.
    assert info == {"action": "Fold", "illegal_action": universe.actions[illegal[0]]}


def test_illegal_action_raises_when_asked_to() -> None:
    env = aec_env("tictactoe", illegal_action="raise")
    env.reset(seed=0)
    env.step(4)
    with pytest.raises(IllegalActionError, match=r"Illegal action '\(1,1\)' for player 1"):
        env.step(4)


def test_bad_action_and_settings_get_clear_errors() -> None:
    env = aec_env("connect4")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"outside the action universe \(0..41\)"):
        env.step(42)
    with pytest.raises(ValueError, match=r"illegal_action must be 'fallback' or 'raise'"):
        aec_env("connect4", illegal_action="skip")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"pong is a simultaneous game: use aec_env"):
        GameAECEnv("pong")
    with pytest.raises(ValueError, match=r"tictactoe is a turn-based game: use parallel_env"):
        GameParallelEnv("tictactoe")
    with pytest.raises(ValueError, match=r"no action for acting agent\(s\) \['player_1'\]"):
        par = GameParallelEnv("pong")
        par.reset(seed=0)
        par.step({"player_0": 0})


def test_max_moves_truncates_every_agent() -> None:
    env = aec_env("othello", max_moves=3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    moves = 0
    for _agent in env.agent_iter(100):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
        else:
            env.step(_legal_index(obs["action_mask"], rng))
            moves += 1
    assert moves == 3 and not env.agents


def test_game_options_reach_the_engine_and_render_shows_the_state() -> None:
    env = parallel_env("pong", render_mode="ansi", points_to_win=2)
    env.reset(seed=0)
    assert env.game.options_dict() == {"points_to_win": 2}
    assert env.render() == env.episode.session.render()
    tic = aec_env("tictactoe", render_mode="ansi")
    tic.reset(seed=0)
    tic.step(4)
    assert tic.render() == GameSession("tictactoe", actions=["(1,1)"]).render()
