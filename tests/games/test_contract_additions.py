"""Contract details added with the Pong/Surround/Texas/Negotiation games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from langgraph_games.games import StateFormatError, make
from langgraph_games.games.negotiation import Negotiation
from langgraph_games.games.pong import PongState
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import Answer
from langgraph_games.testing import ConformanceError, check_game


@dataclass(frozen=True, slots=True)
class PairState(GameState):
    pair: tuple[int, str]

    type_name: ClassVar[str] = "pair"


def test_fixed_length_tuples_round_trip_and_are_checked() -> None:
    state = PairState(seed=1, turn=2, pair=(3, "x"))
    assert PairState.from_json(state.to_json()) == state
    with pytest.raises(StateFormatError, match=r"field 'pair\[1\]' must be a string"):
        PairState.from_dict({"seed": 1, "turn": 2, "pair": [3, 4]})
    with pytest.raises(StateFormatError, match="must have 2 items"):
        PairState.from_dict({"seed": 1, "turn": 2, "pair": [3]})
    pong = make("pong")
    start = pong.initial_state(5)
    assert pong.state_from_json(pong.state_to_json(start)) == start
    with pytest.raises(StateFormatError, match="field 'ball'"):
        PongState.from_dict({**start.to_dict(), "ball": [300, 96]})


def test_conformance_reports_a_subproblem_never_answered() -> None:
    class SilentNegotiation(Negotiation):
        id = "silent_negotiation"

        def action_ground_truth(self, state: object, player: int, action: str) -> dict[int, Answer]:
            return {}

    with pytest.raises(ConformanceError, match="subproblem 2 never had a ground truth"):
        check_game(SilentNegotiation(), seeds=[0, 1])


def test_conformance_reports_an_undeclared_subproblem() -> None:
    class ChattyNegotiation(Negotiation):
        id = "chatty_negotiation"

        def ground_truth(self, state: object, player: int) -> dict[int, Answer]:
            return {7: 1}

    with pytest.raises(ConformanceError, match="undeclared subproblem 7"):
        check_game(ChattyNegotiation(), seeds=[0])
