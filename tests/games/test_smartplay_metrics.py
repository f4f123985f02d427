"""SmartPlay metrics: settings, normalisation, capability scores, Table 2 / Table 4."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession
from langgraph_games.games.smartplay import metrics
from langgraph_games.games.smartplay.metrics import (
    CAPABILITIES,
    COLUMNS,
    SETTINGS,
    SmartPlayOutcome,
    aggregate_episodes,
    capability_scores,
    episode_metrics,
    format_table,
    normalize_score,
    smartplay_table,
)
from table_support import tables


def test_released_settings() -> None:
    assert COLUMNS == (
        "Bandit",
        "RPS",
        "Hanoi",
        "MessengerL1",
        "MessengerL2",
        "Crafter",
        "Minecraft",
    )
    human = {c: SETTINGS[c].human for c in COLUMNS}
    minimum = {c: SETTINGS[c].minimum for c in COLUMNS}
    assert human == {
        "Bandit": 45,
        "RPS": 43,
        "Hanoi": 3,
        "MessengerL1": 1,
        "MessengerL2": 1,
        "Crafter": 2680,
        "Minecraft": 1,
    }
    assert minimum["MessengerL1"] == minimum["MessengerL2"] == -1
    assert {minimum[c] for c in ("Bandit", "RPS", "Hanoi", "Crafter", "Minecraft")} == {0}
    assert [SETTINGS[c].steps for c in COLUMNS] == [50, 50, 30, 4, 64, 10_000, 200]
    assert [SETTINGS[c].trials for c in COLUMNS] == [20, 20, 10, 100, 100, 10, 20]
    assert not SETTINGS["Minecraft"].runnable
    assert all(len(SETTINGS[c].challenges) == len(CAPABILITIES) == 9 for c in COLUMNS)


def test_paper_table3_columns() -> None:
    # Paper Table 3, rows in CAPABILITIES order; MessengerL2 is the "MessengerL2+" column.
    table3 = {
        "Bandit": (1, 1, 1, 1, 2, 3, 2, 1, 1),
        "RPS": (2, 1, 3, 1, 2, 3, 3, 1, 1),
        "Hanoi": (2, 3, 2, 3, 1, 1, 1, 2, 1),
        "MessengerL2": (3, 2, 2, 2, 2, 2, 1, 1, 2),
        "Crafter": (4, 3, 3, 3, 3, 2, 4, 3, 2),
        "Minecraft": (1, 1, 2, 1, 3, 2, 1, 2, 3),
    }
    for column, levels in table3.items():
        assert SETTINGS[column].challenges == levels, column


def test_normalisation_reproduces_the_papers_table2_from_table4() -> None:
    # GPT-4-0314 raw scores (Table 4) against its normalised ones (Table 2).
    raw = {"Bandit": 43.86, "RPS": 42.05, "Hanoi": 2.7, "MessengerL2": 0.93, "Crafter": 845.6}
    table2 = {"Bandit": 0.97, "RPS": 0.98, "Hanoi": 0.90, "MessengerL2": 0.97, "Crafter": 0.32}
    for column, score in raw.items():
        assert normalize_score(column, score) == pytest.approx(table2[column], abs=0.005)
    assert normalize_score("MessengerL1", -1.0) == 0.0
    assert normalize_score("NoSuchSetting", 3.0) is None


def test_capability_scores_code_and_paper_weighting() -> None:
    normalized = {"Bandit": 1.0, "RPS": 0.5, "Hanoi": 0.0}
    code = capability_scores(normalized)
    paper = capability_scores(normalized, weighting="paper")
    # Long text: levels 1, 2, 2 -> code weights 0, 1, 1; paper weights 1, 2, 2.
    assert code["Long Text Understanding"] == pytest.approx(0.25)
    assert paper["Long Text Understanding"] == pytest.approx((1 + 1.0) / 5)
    # Spatial reasoning: all level 1 -> no weight in the code's formula.
    assert code["Spatial Reasoning"] is None
    assert paper["Spatial Reasoning"] == pytest.approx(0.5)
    # Understanding the odds: levels 3, 3, 1 -> code weights 2, 2, 0.
    assert code["Understanding the Odds"] == pytest.approx(0.75)
    assert list(code) == list(CAPABILITIES)
    everything = capability_scores({c: 0.8 for c in COLUMNS})
    assert all(v == pytest.approx(0.8) for v in everything.values())
    with pytest.raises(ValueError, match="weighting"):
        capability_scores(normalized, weighting="other")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="challenge profile"):
        capability_scores({"RPSDifferentScore": 1.0})


def _rps_episode(seed: int, optimal_rounds: int) -> GameSession:
    from langgraph_games.games.smartplay.rock_paper_scissors import ACTIONS, optimal_hand

    session = GameSession("rock_paper_scissors", seed=seed)
    best = optimal_hand(session.state.probs, session.state.scores)  # type: ignore[attr-defined]
    for i in range(50):
        session.step(ACTIONS[best if i < optimal_rounds else (best + 1) % 3])
    return session


def test_aggregation_and_tables() -> None:
    episodes_a = [episode_metrics(_rps_episode(s, k)) for s, k in ((0, 43), (1, 21))]
    hanoi = GameSession("hanoi")
    for _ in range(30):
        hanoi.step("Move the top disk of rod A to the top of rod C")
        if hanoi.done:
            break
    episodes_a.append(episode_metrics(hanoi, invalid_answers=3))
    assert episodes_a[-1]["invalid_answers"] == 3
    assert episodes_a[-1]["score"] == 1.0  # only the smallest disk sits on C

    summary = aggregate_episodes(episodes_a)
    assert summary["RPS"].episodes == 2
    assert summary["RPS"].score == 32.0
    assert summary["RPS"].normalized_score == pytest.approx(32 / 43)
    assert summary["RPS"].completion_rate == 0.0
    assert summary["Hanoi"].normalized_score == pytest.approx(1 / 3)

    episodes_b = [episode_metrics(_rps_episode(2, 50))]
    rows = smartplay_table({"model-a": episodes_a, "model-b": episodes_b})
    assert [list(r) for r in rows] == [["player", *COLUMNS]] * 2
    assert rows[0]["RPS"] == pytest.approx(32 / 43) and rows[0]["Bandit"] is None
    assert rows[1]["RPS"] == pytest.approx(50 / 43)
    raw = smartplay_table({"model-a": episodes_a}, normalized=False)
    assert raw[0]["RPS"] == 32.0 and raw[0]["Hanoi"] == 1.0

    header, first, _ = tables(format_table(rows))[0]
    assert header[0] == "player"
    assert first[:4] == ["model-a", "-", "0.74", "0.33"]
    assert first[-1] == "-"  # Minecraft is never filled


def test_a_game_plugs_in_its_scorer(monkeypatch: pytest.MonkeyPatch) -> None:
    # How the Crafter engine joins: register a scorer under its id and column.
    monkeypatch.setattr(metrics, "_REGISTRY", dict(metrics._REGISTRY))  # undone after
    with pytest.raises(ValueError, match="not a SmartPlay game"):
        episode_metrics(GameSession("tictactoe"))

    def scorer(session: GameSession) -> SmartPlayOutcome:
        return SmartPlayOutcome(score=1340.0, completed=False, reward=len(session.actions))

    metrics.register_smartplay_game("tictactoe", scorer, "Crafter")
    result = episode_metrics(GameSession("tictactoe", actions=["(0,0)"]))
    assert result["column"] == "Crafter"
    assert result["normalized_score"] == pytest.approx(0.5)
    assert result["reward"] == 1
