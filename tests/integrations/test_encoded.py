"""Encoded observations: env checkers, exact arrays on known positions, play-outs, refusals."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from langgraph_games.games import list_games
from langgraph_games.games.encoding import encoded_games
from langgraph_games.integrations.episode import MAX_ENCODED_ACTIONS
from langgraph_games.integrations.gymnasium import GameEnv, env_id
from langgraph_games.integrations.pettingzoo import aec_env, parallel_env

with warnings.catch_warnings():
    # pettingzoo.test loads PettingZoo's own classic examples, which warn about their API.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, parallel_api_test, seed_test

PLAYERS = {info.id: info.num_players for info in list_games()}
SINGLE = [g for g in encoded_games() if PLAYERS[g] == 1]
MULTI = [g for g in encoded_games() if PLAYERS[g] > 1]

# PettingZoo's API test advises plain Box observations (its own board games, which carry a
# mask in a Dict as these do, are exempted by name) and flags all-zero arrays: the empty
# board at the start and the mask of a finished agent. Every other warning fails the test.
ADVICE = [
    "error",
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation numpy array is all zeros",
    "ignore:Action mask numpy array is all zeros",
]


def test_the_encoded_games_are_the_board_and_small_single_player_games() -> None:
    assert set(encoded_games()) == {
        "tictactoe", "connect4", "othello", "checkers",
        "maze", "minesweeper", "hanoi", "bandit", "rock_paper_scissors",
    }  # fmt: skip


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("game_id", SINGLE)
def test_gymnasium_env_checker_passes_encoded(game_id: str) -> None:
    env = gymnasium.make(env_id(game_id), observation="encoded")
    assert isinstance(env.observation_space, spaces.Box)
    assert env.observation_space.dtype == np.float32
    check_env(env.unwrapped)


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize("game_id", MULTI)
def test_pettingzoo_api_test_passes_encoded(game_id: str) -> None:
    api_test(aec_env(game_id, observation="encoded"), num_cycles=200)
    parallel_api_test(parallel_env(game_id, observation="encoded"), num_cycles=200)
    seed_test(lambda: aec_env(game_id, observation="encoded"), num_cycles=40)


def _play(env: Any, moves: list[str]) -> None:
    names = env.unwrapped.episode.universe.actions
    for move in moves:
        env.step(names.index(move))


def test_tictactoe_planes_are_exact_from_both_seats() -> None:
    env = aec_env("tictactoe", observation="encoded")
    env.reset(seed=0)
    _play(env, ["(0,0)", "(1,1)", "(0,2)"])  # X, O, X
    x_marks = [[1, 0, 1], [0, 0, 0], [0, 0, 0]]
    o_marks = [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    seen_by_x = env.observe("player_0")["observation"]
    seen_by_o = env.observe("player_1")["observation"]
    assert seen_by_x.dtype == np.float32 and seen_by_x.shape == (2, 3, 3)
    assert seen_by_x.tolist() == [x_marks, o_marks]
    assert seen_by_o.tolist() == [o_marks, x_marks]
    assert env.observe("player_1")["action_mask"].tolist() == [0, 1, 0, 1, 0, 1, 1, 1, 1]


def test_connect4_planes_keep_row_zero_at_the_bottom() -> None:
    env = aec_env("connect4", observation="encoded")
    env.reset(seed=0)
    _play(env, ["(0,3)", "(1,3)", "(0,0)"])  # X in column 3, O on top of it, X in column 0
    mine = env.observe("player_1")["observation"][0]
    theirs = env.observe("player_1")["observation"][1]
    assert np.argwhere(mine).tolist() == [[1, 3]]
    assert np.argwhere(theirs).tolist() == [[0, 0], [0, 3]]


def test_hanoi_one_hot_rods_and_progress() -> None:
    env = GameEnv("hanoi", observation="encoded")
    obs, info = env.reset(seed=0)
    assert obs.tolist() == [1, 0, 0, 1, 0, 0, 1, 0, 0, 0]
    move = env.action_names().index("Move the top disk of rod A to the top of rod C")
    obs, *_, info = env.step(move)
    assert obs.tolist() == pytest.approx([0, 0, 1, 1, 0, 0, 1, 0, 0, 1 / 30])
    assert info["action_mask"].tolist() == env.action_masks().tolist()
    legal = {env.action_names()[i] for i in np.flatnonzero(info["action_mask"])}
    assert legal == set(env.episode.session.legal_actions(0))


def test_maze_planes_match_the_text_map() -> None:
    text_env = GameEnv("maze")
    env = GameEnv("maze", observation="encoded")
    obs, _ = env.reset(seed=5)
    text, _ = text_env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(6):
        symbols = _map_symbols(text["text"], env.game.size)  # type: ignore[attr-defined]
        for (row, col), symbol in symbols.items():
            layers = set(np.flatnonzero(obs[:10, row, col]).tolist())
            expected = {"?": {0}, "#": {1}, "C": {2}, "M": {7}, "A": {8}, "G": {9}, ".": set()}
            if symbol == "G":  # the goal plane is set under whatever the text shows
                assert 9 in layers
            elif symbol in expected:
                assert layers == expected[symbol], (row, col, symbol)
        assert obs[10, 0, 0] == pytest.approx(env.episode.session.state.lives / 3)
        index = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, *_ = env.step(index)
        text, *_ = text_env.step(index)


def _map_symbols(text: str, size: int) -> dict[tuple[int, int], str]:
    rows = [line for line in text.splitlines() if "|" in line][:size]
    return {
        (row, col): symbol
        for row, line in enumerate(rows)
        for col, symbol in enumerate(line.split("|", 1)[1].split())
    }


def test_minesweeper_planes_follow_the_players_view() -> None:
    env = GameEnv("minesweeper", observation="encoded", rows=4, cols=5, mines=2)
    obs, _ = env.reset(seed=2)
    assert obs.shape == (6, 4, 5) and obs[0].sum() == 20
    state = env.episode.session.state
    safe = next(i for i in range(20) if i not in state.mines)  # type: ignore[attr-defined]
    obs, *_ = env.step(env.action_names().index(f"r,{safe // 5},{safe % 5}"))
    view = env.episode.session.state.view  # type: ignore[attr-defined]
    for index, char in enumerate(view):
        row, col = divmod(index, 5)
        assert obs[0, row, col] == (char == "?")
        assert obs[2, row, col] == char.isdigit()
        assert obs[3, row, col] == pytest.approx(int(char) / 8 if char.isdigit() else 0.0)
    assert obs[5].tolist() == np.full((4, 5), 1 / 20, dtype=np.float32).tolist()


@pytest.mark.parametrize("game_id", SINGLE)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_masked_gymnasium_episodes_stay_in_the_space(game_id: str, seed: int) -> None:
    env = GameEnv(game_id, observation="encoded")
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, terminated, steps = 0.0, False, 0
    while not terminated:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"], env.action_masks())
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        assert "illegal_action" not in info and not truncated
        total += float(reward)
        steps += 1
        assert steps < 2000
    assert env.observation_space.contains(obs)
    assert total == pytest.approx(env.episode.session.returns[0])


@pytest.mark.parametrize("game_id", MULTI)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_masked_aec_episodes_stay_in_the_space(game_id: str, seed: int) -> None:
    env = aec_env(game_id, observation="encoded")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert steps < 2000
    assert env.unwrapped.episode.done


def test_text_stays_the_default() -> None:
    assert isinstance(GameEnv("maze").observation_space, spaces.Dict)
    assert set(aec_env("tictactoe").observation_space("player_0").spaces) == {
        "text",
        "action_mask",
    }
    assert set(aec_env("tictactoe", observation="encoded").observation_space("player_0")) == {
        "observation",
        "action_mask",
    }


def test_games_without_an_encoding_and_bad_modes_are_refused() -> None:
    with pytest.raises(ValueError, match=r"crafter has no encoded observation; games with one: "):
        GameEnv("crafter", observation="encoded")
    with pytest.raises(ValueError, match=r"pong has no encoded observation.*tictactoe"):
        parallel_env("pong", observation="encoded")
    with pytest.raises(ValueError, match=rf"12544 actions.*\({MAX_ENCODED_ACTIONS}\)"):
        aec_env("negotiation", observation="encoded")
    with pytest.raises(ValueError, match="observation must be 'text' or 'encoded', got 'pixels'"):
        GameEnv("maze", observation="pixels")  # type: ignore[arg-type]
    # text mode still works for each of them
    GameEnv("crafter")
    aec_env("negotiation")


def test_ppo_trains_on_the_encoded_maze_without_a_wrapper() -> None:
    sb3 = pytest.importorskip("stable_baselines3")
    env = gymnasium.make(env_id("maze"), observation="encoded", max_episode_steps=40)
    model = sb3.PPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=2, seed=0, verbose=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, deterministic=True)
    assert env.action_space.contains(int(action))
