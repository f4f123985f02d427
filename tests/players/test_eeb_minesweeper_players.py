"""Known behaviour of the maze explorer, the greedy Match-2 player and the Minesweeper solver."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession
from langgraph_games.players import (
    Match2Greedy,
    MazeExplorer,
    MinesweeperSolver,
    Player,
    RandomPlayer,
    make_player,
    request_for,
)


def run(session: GameSession, player: Player, limit: int = 500) -> GameSession:
    while not session.done and len(session.actions) < limit:
        decision = player.decide(request_for(session))
        assert decision.action in session.legal_actions()
        session.step(decision.action)
    return session


def walked_into_walls(session: GameSession) -> int:
    return sum(1 for events in session.events for e in events if e["type"] == "wall")


@pytest.mark.parametrize("level", [1, 2, 3])
def test_maze_explorer_solves_the_evaluation_maps(level: int) -> None:
    maps = range(1, 31) if level == 1 else range(1, 31, 3)
    wins = 0
    for index in maps:
        session = run(
            GameSession("maze", seed=index, level=level, map_set="eval", map_index=index),
            MazeExplorer(),
        )
        wins += session.state.outcome == "goal"
        assert walked_into_walls(session) == 0  # it only walks on cells it has seen
    assert wins == len(maps)


def test_maze_explorer_with_full_vision_and_teleport() -> None:
    for seed in range(10):
        session = run(
            GameSession("maze", seed=seed, level=3, full_vision=True, move_mode="teleport"),
            MazeExplorer(),
        )
        assert session.state.outcome == "goal"


def test_maze_explorer_beats_random_play() -> None:
    explorer = [
        run(GameSession("maze", seed=s, level=2), MazeExplorer()).state.score for s in range(8)
    ]
    rand = [
        run(GameSession("maze", seed=s, level=2), RandomPlayer(seed=s)).state.score
        for s in range(8)
    ]
    assert sum(explorer) > sum(rand) + 8 * 1000


def test_match2_greedy_clears_easy_levels_and_beats_random() -> None:
    cleared = 0
    for index in range(1, 31, 2):
        session = run(
            GameSession("match2", seed=index, map_set="eval", map_index=index), Match2Greedy()
        )
        cleared += session.state.outcome == "cleared"
    assert cleared >= 14
    greedy = sum(
        run(GameSession("match2", seed=s, difficulty="medium"), Match2Greedy()).state.outcome
        == "cleared"
        for s in range(10)
    )
    rand = sum(
        run(GameSession("match2", seed=s, difficulty="medium"), RandomPlayer(seed=s)).state.outcome
        == "cleared"
        for s in range(10)
    )
    assert greedy >= rand + 5


def test_match2_greedy_skips_props_when_told() -> None:
    session = GameSession("match2", seed=2, difficulty="hard")
    for _ in range(6):
        decision = Match2Greedy(props=False).decide(request_for(session))
        assert decision.action is not None and decision.action.startswith("eliminate")
        session.step(decision.action)


def test_minesweeper_solver_never_steps_invalid_and_only_loses_on_guesses() -> None:
    wins = 0
    for seed in range(60):
        session = GameSession("minesweeper", seed=seed, rows=9, cols=9, mines=3)
        solver = MinesweeperSolver()
        while not session.done:
            decision = solver.decide(request_for(session))
            session.step(decision.action)
            if session.state.status == "lost":
                assert decision.info["reason"].startswith("guess")
        assert session.state.invalid_steps == 0
        wins += session.state.status == "won"
    assert wins >= 54


def test_minesweeper_solver_flags_every_mine_for_the_paper_win() -> None:
    won = 0
    for seed in range(10):
        session = run(
            GameSession("minesweeper", seed=seed, rows=5, cols=5, mines=2), MinesweeperSolver()
        )
        if session.state.status == "won":
            won += 1
            flags = [i for i, ch in enumerate(session.state.view) if ch == "F"]
            assert flags == list(session.state.mines)
            assert "?" not in session.state.view
    assert won >= 7


def test_players_refuse_other_games_and_are_registered() -> None:
    for spec, game in (
        ("maze_explorer", "maze"),
        ("match2_greedy", "match2"),
        ("minesweeper_solver", "minesweeper"),
    ):
        player = make_player(spec)
        assert player.describe()["kind"] == spec
        assert player.decide(request_for(GameSession(game))).action is not None
        with pytest.raises(ValueError, match="only"):
            player.decide(request_for(GameSession("tictactoe")))
