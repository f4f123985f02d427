"""Vector encodings of the SmartPlay games whose views are a few numbers.

Each shows what the text view shows: the progress through the episode and the last
step's outcome (the bandit's odds and the opponent's hand probabilities stay hidden; a
learner that wants the history stacks frames). Messenger has none.
"""

from __future__ import annotations

import numpy as np

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, Observation
from langgraph_games.games.smartplay.bandit import Bandit, BanditState
from langgraph_games.games.smartplay.hanoi import RODS, Hanoi, HanoiState
from langgraph_games.games.smartplay.rock_paper_scissors import (
    ACTIONS as HANDS,
)
from langgraph_games.games.smartplay.rock_paper_scissors import (
    RockPaperScissors,
    RockPaperScissorsState,
)
from langgraph_games.games.state import GameState

__all__ = ["ENCODINGS"]


def _one_hot(index: int | None, size: int) -> list[float]:
    return [1.0 if index == i else 0.0 for i in range(size)]


def _bandit(game: Game[GameState]) -> Encoding:
    assert isinstance(game, Bandit)
    rounds = game.rollout()

    def encode(state: GameState, player: int) -> Observation:
        assert isinstance(state, BanditState)
        values = [state.turn / rounds, *_one_hot(state.last_arm, 2), float(state.last_reward)]
        return np.array(values, dtype=np.float32)

    return Encoding(
        (4,),
        -1.0,
        1.0,
        encode,
        "[pulls made / pulls, last machine one-hot (2), last reward (-1, 0 before the first, 1)]",
    )


def _hanoi(game: Game[GameState]) -> Encoding:
    assert isinstance(game, Hanoi)
    disks, steps = game.num_disks, game.rollout()

    def encode(state: GameState, player: int) -> Observation:
        assert isinstance(state, HanoiState)
        values = np.zeros(disks * len(RODS) + 1, dtype=np.float32)
        for disk, rod in enumerate(state.rods):
            values[disk * len(RODS) + rod] = 1.0
        values[-1] = state.turn / steps
        return values

    return Encoding(
        (disks * len(RODS) + 1,),
        0.0,
        1.0,
        encode,
        "[rod one-hot (A, B, C) of each disk, smallest first, then steps taken / steps]",
    )


def _rock_paper_scissors(game: Game[GameState]) -> Encoding:
    assert isinstance(game, RockPaperScissors)
    rounds = game.rollout()
    best = game.return_scale / rounds  # the most one round can score, over both variants
    hands = len(HANDS)

    def encode(state: GameState, player: int) -> Observation:
        assert isinstance(state, RockPaperScissorsState)
        values = [
            state.turn / rounds,
            *_one_hot(state.last_hand, hands),
            *_one_hot(state.last_opponent, hands),
            state.last_reward / best,
            *(score / best for score in state.scores),
        ]
        return np.array(values, dtype=np.float32)

    return Encoding(
        (2 + 3 * hands,),
        -1.0,
        1.0,
        encode,
        "[rounds played / rounds, own last hand one-hot (R, P, S), opponent's last hand "
        "one-hot, last round's score / 2, each hand's winning score / 2]",
    )


ENCODINGS = {
    "bandit": _bandit,
    "hanoi": _hanoi,
    "rock_paper_scissors": _rock_paper_scissors,
}
