"""The papers' metrics on scripted episodes, and their tables."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.games.match2 import metrics as match2_metrics
from langgraph_games.games.maze import metrics as maze_metrics
from langgraph_games.games.minesweeper import metrics as minesweeper_metrics
from langgraph_games.players import Match2Greedy, MazeExplorer, request_for
from maze_maps import build
from table_support import tables


def finished(game_id: str, player: object, **options: object) -> GameSession:
    session = GameSession(game_id, **options)
    while not session.done:
        session.step(player.decide(request_for(session)).action)  # type: ignore[attr-defined]
    return session


def test_maze_episode_metrics_on_a_scripted_episode() -> None:
    session = GameSession("maze", seed=0)
    # Replace the map by the scripted one of test_maze (coin above the start, a wall).
    rows = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "C . . . . . .",
        "A . # . . . .",
    ]
    session.states[0] = build(rows)
    for action in ("0", "10", "5", "3"):
        session.step(action)
    m = maze_metrics.episode_metrics(session, api_calls=4)
    assert m["score"] == -630 and m["steps"] == 4 and m["lives"] == 2
    assert m["coins"] == 1 and m["gold"] == 0.2 and not m["success"]
    assert m["explored_cells"] == 11 and m["exploration"] == pytest.approx(11 / 48)
    # Released evaluation score: 500 coins + 10 new cells + ... - 50 steps.
    assert m["custom_score"] == 500 + 10 * (11 - 4) - 50 * 4
    assert m["api_calls"] == 4 and m["outcome"] == "unfinished"


def test_maze_aggregate_and_table() -> None:
    rows = [
        maze_metrics.episode_metrics(
            finished("maze", MazeExplorer(), seed=i, level=1, map_set="eval", map_index=i)
        )
        for i in range(1, 6)
    ]
    agg = maze_metrics.aggregate(rows)
    assert agg["Samp."] == 5 and agg["Suc.Rate"] == 100.0
    assert agg["A.Score"] == pytest.approx(sum(r["score"] for r in rows) / 5)
    assert 0 < agg["A.Explor."] <= 100 and agg["Rem.HP"] == 3.0
    custom = maze_metrics.aggregate(rows, score_key="custom_score")
    assert custom["A.Score"] == pytest.approx(sum(r["custom_score"] for r in rows) / 5)
    table = maze_metrics.format_table({"maze_explorer": agg})
    header, row = tables(table)[0]
    assert header == ["Model", *maze_metrics.COLUMNS]
    assert row[:3] == ["maze_explorer", "5", "100.00"]


def test_match2_metrics_with_api_counts() -> None:
    session = finished("match2", Match2Greedy(), seed=3)
    m = match2_metrics.episode_metrics(session, api_calls=20, valid_responses=15)
    state = session.state
    assert m["success"] == (state.outcome == "cleared")
    assert m["score_per_step"] == pytest.approx(state.score / state.steps_used)
    assert m["clear_per_step"] == pytest.approx(state.cleared / state.steps_used)
    assert m["remaining_ratio"] == pytest.approx(state.steps_left / state.max_steps)
    assert m["api_efficiency"] == 0.75
    plain = match2_metrics.episode_metrics(session)
    assert plain["api_efficiency"] is None
    agg = match2_metrics.aggregate([m, plain])
    assert agg["API Eff."] == 75.0 and agg["Sample"] == 2
    assert "-" in match2_metrics.format_table({"no counts": match2_metrics.aggregate([plain])})
    with pytest.raises(ValueError):
        match2_metrics.episode_metrics(session, api_calls=3, valid_responses=4)
    with pytest.raises(TypeError):
        match2_metrics.episode_metrics(GameSession("maze"))


def test_minesweeper_metrics_and_table1() -> None:
    win = GameSession("minesweeper", rows=3, cols=3, mines=1, seed=0)
    mine = win.state.mines[0]
    win.step("invalid:answer")
    for i in range(9):
        if i != mine and win.state.view[i] == "?":
            win.step(f"r,{i // 3},{i % 3}")
    win.step(f"f,{mine // 3},{mine % 3}")
    assert win.state.status == "won"
    m = minesweeper_metrics.episode_metrics(win, rejected_answers=2)
    assert m["win"] and m["invalid_steps"] == 1 + 2 and m["steps"] == len(win.actions) + 2
    lost = GameSession("minesweeper", rows=3, cols=3, mines=1, seed=0)
    lost.step(f"r,{mine // 3},{mine % 3}")
    n = minesweeper_metrics.episode_metrics(lost)
    agg = minesweeper_metrics.aggregate([m, n])
    assert agg["Winning Rate"] == 0.5 and agg["Average Steps"] == (m["steps"] + 1) / 2
    table = minesweeper_metrics.format_table1({(1, "Baseline"): agg, (1, "+ Memory"): agg})
    assert [row[:3] for row in tables(table)[0]] == [
        ["Mines", "Model", "Winning Rate"],
        ["1", "Baseline", "0.50"],
        ["1", "+ Memory", "0.50"],
    ]
    with pytest.raises(TypeError):
        minesweeper_metrics.episode_metrics(GameSession("match2"))


def test_metrics_of_an_unfinished_episode() -> None:
    session = GameSession(make("maze", level=2), seed=4)
    assert maze_metrics.episode_metrics(session)["outcome"] == "unfinished"
