"""Every registered game passes the conformance checker and matches its golden playthrough."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_games.games import make
from langgraph_games.testing import ConformanceError, check_game, playthrough

GOLDEN = Path(__file__).parent / "golden"


def test_conformance(game_id: str) -> None:
    report = check_game(game_id, seeds=range(20))
    assert report.playouts == 20
    assert report.steps > 20
    assert report.problems == []


def test_golden_playthrough(game_id: str) -> None:
    versioned = make(game_id).versioned_id
    path = GOLDEN / f"{versioned}-seed0.txt"
    assert path.exists(), f"missing golden file; run python {GOLDEN / 'regenerate.py'}"
    assert playthrough(game_id, seed=0) == path.read_text(encoding="utf-8"), (
        f"{game_id} changed its playthrough; if intended, regenerate with "
        f"python {GOLDEN / 'regenerate.py'} and review the diff"
    )


def test_checker_reports_a_broken_game() -> None:
    from langgraph_games.games.tictactoe import TicTacToe, TicTacToeState

    class UnsortedTicTacToe(TicTacToe):
        id = "broken_tictactoe"

        def legal_actions(self, state: TicTacToeState, player: int) -> tuple[str, ...]:
            return tuple(reversed(super().legal_actions(state, player)))

    with pytest.raises(ConformanceError, match="not sorted and unique"):
        check_game(UnsortedTicTacToe(), seeds=[0])
