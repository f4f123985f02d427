"""Crafter metrics: the score formula on known success rates, episodes, summaries."""

from __future__ import annotations

import math

import pytest

from langgraph_games.games.crafter.data import ACHIEVEMENTS
from langgraph_games.games.crafter.metrics import (
    achievement_depth,
    crafter_score,
    success_rates,
    summarize,
)


def test_score_on_known_success_rates() -> None:
    assert crafter_score([100.0] * 22) == pytest.approx(100.0)
    assert crafter_score([0.0] * 22) == 0.0
    # One achievement always, the rest never: exp(ln(101) / 22) - 1.
    assert crafter_score([100.0] + [0.0] * 21) == pytest.approx(101 ** (1 / 22) - 1)
    # The geometric mean of (1 + s_i), minus 1.
    rates = [50.0, 10.0, 3.0, 0.0]
    expected = math.prod(1 + r for r in rates) ** (1 / 4) - 1
    assert crafter_score(rates) == pytest.approx(expected)
    mapping = dict.fromkeys(ACHIEVEMENTS, 0.0) | {"collect_wood": 100.0}
    assert crafter_score(mapping) == pytest.approx(101 ** (1 / 22) - 1)


def test_score_rejects_bad_rates() -> None:
    with pytest.raises(ValueError, match="at least one"):
        crafter_score([])
    with pytest.raises(ValueError, match=r"\[0, 100\]"):
        crafter_score([0.5, 120.0])
    with pytest.raises(ValueError, match="lack achievements: collect_coal"):
        crafter_score({"collect_wood": 10.0})


def test_success_rates_and_depth() -> None:
    episodes = [
        {"unlocked": {"collect_wood": 3, "place_table": 9}},
        {"unlocked": ["collect_wood"]},
        {"unlocked": {}},
        {"unlocked": {"collect_wood": 1, "collect_drink": 4}},
    ]
    rates = success_rates(episodes)
    assert rates["collect_wood"] == 75.0 and rates["place_table"] == 25.0
    assert rates["collect_drink"] == 25.0 and rates["collect_diamond"] == 0.0
    assert achievement_depth([]) == 0
    assert achievement_depth(["collect_drink", "wake_up"]) == 0
    assert achievement_depth(["collect_wood", "place_table", "collect_iron"]) == 5
    assert achievement_depth(["collect_diamond"]) == 7
    with pytest.raises(ValueError, match="unknown achievement 'jump'"):
        achievement_depth(["jump"])
    with pytest.raises(ValueError, match="at least one episode"):
        success_rates([])


def test_summary_rows() -> None:
    episodes = [
        {"reward": 2.1, "length": 150, "unlocked": {"collect_wood": 3}, "depth": 0, "calls": 9},
        {
            "reward": 4.0,
            "length": 250,
            "unlocked": {"collect_wood": 2, "place_table": 5, "make_wood_pickaxe": 9},
            "depth": 2,
            "calls": 11,
        },
    ]
    row = summarize(episodes)
    assert row["episodes"] == 2 and row["depth_max"] == 2 and row["depth_mean"] == 1.0
    assert row["reward_mean"] == pytest.approx(3.05) and row["reward_std"] == pytest.approx(0.95)
    assert row["unlock_rates"]["collect_wood"] == 100.0
    assert row["unlock_rates"]["place_table"] == 50.0
    assert row["calls_mean"] == 10.0 and row["length_mean"] == 200.0
    rates = [100.0, 50.0, 50.0] + [0.0] * 19
    assert row["score"] == pytest.approx(crafter_score(rates))
    with pytest.raises(ValueError):
        summarize([])


def test_episode_metrics_of_a_scripted_episode() -> None:
    pytest.importorskip("crafter")
    from langgraph_games.games import GameSession
    from langgraph_games.games.crafter.metrics import episode_metrics

    actions = ["Move North"] * 3 + ["Move West"] * 3 + ["Do", "Move West", "Do", "Place Table"]
    session = GameSession("crafter", seed=0, actions=actions)
    record = episode_metrics(session, calls=90, defaulted=1)
    assert record["unlocked"] == {"collect_wood": 7, "place_table": 10}
    assert record["reward"] == 2.0 and record["length"] == 10 and record["depth"] == 1
    assert record["num_unlocked"] == 2 and not record["died"] and not record["done"]
    # Unlocked after steps 7 and 10 of 10: 1 counted on steps 7-9, 2 on step 10.
    assert record["smartplay_score"] == 3 * 1 + 1 * 2
    assert record["calls"] == 90 and record["defaulted"] == 1
    with pytest.raises(TypeError, match="Crafter session"):
        episode_metrics(GameSession("tictactoe"))
