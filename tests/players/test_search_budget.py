"""Search work is bounded where a server plays for others: minimax's node budget, the caps."""

from __future__ import annotations

import pytest

from langgraph_games import GameSession
from langgraph_games.players import MinimaxPlayer, make_player, request_for
from langgraph_games.players.budget import SERVED_MAX_NODES, within_budget
from langgraph_games.players.errors import PlayerSettingError
from langgraph_games.players.poker_equity import EquityPlayer
from langgraph_games.tools.manager import GameManager


def test_a_budget_bounds_the_nodes_of_any_depth_and_keeps_the_deepest_finished_search() -> None:
    session = GameSession("othello", seed=0)
    deep = MinimaxPlayer(depth=30, max_nodes=5_000)
    decision = deep.decide(request_for(session))
    assert deep.nodes <= 5_000 + 64 and decision.action in session.legal_actions(0)  # + leaves
    reached = decision.info["searched_depth"]
    assert 2 <= reached < 30
    # The deepest finished search is a plain search of that depth (same seed, same move).
    plain = MinimaxPlayer(depth=reached).decide(request_for(session))
    assert plain.action == decision.action


@pytest.mark.parametrize(("game", "actions"), [("tictactoe", []), ("connect4", ["(0,3)"])])
def test_a_budget_the_search_fits_in_changes_nothing(game: str, actions: list[str]) -> None:
    session = GameSession(game, seed=1, actions=actions)
    bounded = MinimaxPlayer(max_nodes=1_000_000).decide(request_for(session))
    assert bounded.action == MinimaxPlayer().decide(request_for(session)).action


def test_the_budget_is_a_setting_and_servers_cap_work() -> None:
    assert make_player("minimax:max_nodes=500").describe()["max_nodes"] == 500
    with pytest.raises(PlayerSettingError, match="max_nodes must be a positive number"):
        make_player("minimax:max_nodes=0")
    assert within_budget(MinimaxPlayer(depth=30)).max_nodes == SERVED_MAX_NODES
    assert within_budget(MinimaxPlayer(max_nodes=100)).max_nodes == 100  # a lower one is kept
    assert within_budget(EquityPlayer(samples=10_000_000)).samples <= 3_000
    manager = GameManager(bounded=True)
    manager.start("othello", seat=0, opponent="minimax:depth=30")
    assert manager._current().opponents[1].describe()["max_nodes"] == SERVED_MAX_NODES
    free = GameManager()
    free.start("othello", seat=0, opponent="minimax:depth=30")
    assert "max_nodes" not in free._current().opponents[1].describe()
