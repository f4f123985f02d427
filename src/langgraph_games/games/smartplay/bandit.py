"""Two-armed Bandit as SmartPlay runs it (``BanditTwoArmedHighLowFixed-v0``).

Two slot machines pay out with probabilities 0.8 and 0.2; a pull that pays gives +1, one
that does not gives -1. Which machine is the good one is shuffled per episode from the
seed (the paper shuffles the paired list ``[(p1, r1), (p2, r2)]``). An episode is 50
pulls and never ends early.

Score (SmartPlay): how many pulls chose the optimal arm, the one with the larger expected
reward ``p * r - (1 - p)``. Human 45, minimum 0.

Text views, as released::

    A new round begins.
    You pulled slot machine 2, you received reward -1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games.base import Event
from langgraph_games.games.registry import register
from langgraph_games.games.smartplay._base import SmartPlayGame
from langgraph_games.games.state import GameState, derive_rng

__all__ = ["Bandit", "BanditState"]

PAYOUT_PROBABILITIES = (0.8, 0.2)
PAYOUT = 1
ROUNDS = 50
ACTIONS = ("Pull slot machine 1.", "Pull slot machine 2.")

MANUAL = (
    "Two slot machines stand in front of you in a casino. Each pull of a machine either "
    "pays you or costs you, and the two machines are not equally generous. Your goal is to "
    "win as much as you can from them."
)


@dataclass(frozen=True, slots=True)
class BanditState(GameState):
    """A bandit episode.

    Attributes:
        probs: Payout probability of machine 1 and machine 2 (this episode's shuffle).
        last_arm: The machine pulled last (0 or 1), ``None`` before the first pull.
        last_reward: The reward of the last pull (0 before the first).
        total_reward: The sum of rewards so far.
        optimal_pulls: How many pulls chose the optimal machine (the SmartPlay score).
    """

    probs: tuple[float, float]
    last_arm: int | None
    last_reward: int
    total_reward: int
    optimal_pulls: int

    type_name: ClassVar[str] = "bandit"

    def validate(self) -> tuple[str, str] | None:
        """Probabilities in [0, 1]; counters consistent with the number of pulls."""
        if not all(0.0 <= p <= 1.0 for p in self.probs):
            return ("probs", "must lie in [0, 1]")
        if (self.last_arm is None) != (self.turn == 0) or self.last_arm not in (None, 0, 1):
            return ("last_arm", "must be null before the first pull and 0 or 1 after")
        if not 0 <= self.optimal_pulls <= self.turn or self.turn > ROUNDS:
            return ("optimal_pulls", "must lie between 0 and the number of pulls")
        if abs(self.total_reward) > self.turn or self.last_reward not in (-1, 0, 1):
            return ("total_reward", "does not fit the number of pulls")
        return GameState.validate(self)


def optimal_arm(probs: tuple[float, ...], payout: float = PAYOUT) -> int:
    """The machine with the largest expected reward ``p * r - (1 - p)`` (first on a tie)."""
    values = [p * payout - (1.0 - p) for p in probs]
    return values.index(max(values))


@register
class Bandit(SmartPlayGame[BanditState]):
    """SmartPlay's two-armed bandit: 50 pulls, arms paying +1 with p = 0.8 or 0.2, else -1."""

    id = "bandit"
    name = "Two-armed Bandit"
    description = "Two slot machines (p = 0.8 and 0.2, shuffled); +1 or -1 per pull; 50 pulls."
    State = BanditState
    history_length = 50
    return_scale = float(ROUNDS)

    def initial_state(self, seed: int = 0) -> BanditState:
        """Shuffle which machine is the generous one, from the seed."""
        probs = list(PAYOUT_PROBABILITIES)
        derive_rng(seed, "bandit-arms").shuffle(probs)
        return BanditState(
            seed=seed,
            turn=0,
            probs=(probs[0], probs[1]),
            last_arm=None,
            last_reward=0,
            total_reward=0,
            optimal_pulls=0,
        )

    def action_list(self, state: BanditState) -> tuple[str, ...]:
        """``Pull slot machine 1.`` and ``Pull slot machine 2.``."""
        return ACTIONS

    def manual_text(self, state: BanditState) -> str:
        """Two machines, earn the most."""
        return MANUAL

    def rollout(self) -> int:
        """50 pulls."""
        return ROUNDS

    def optimal_arm(self, state: BanditState) -> int:
        """The optimal machine of this episode (0 or 1)."""
        return optimal_arm(state.probs)

    def _apply(
        self, state: BanditState, actions: Mapping[int, str]
    ) -> tuple[BanditState, list[Event]]:
        arm = ACTIONS.index(actions[0])
        paid = derive_rng(state.seed, state.turn, "pull").random() < state.probs[arm]
        reward = PAYOUT if paid else -1
        optimal = arm == optimal_arm(state.probs)
        new = BanditState(
            seed=state.seed,
            turn=state.turn + 1,
            probs=state.probs,
            last_arm=arm,
            last_reward=reward,
            total_reward=state.total_reward + reward,
            optimal_pulls=state.optimal_pulls + int(optimal),
        )
        return new, [{"type": "pull", "arm": arm + 1, "reward": reward, "optimal": optimal}]

    def is_terminal(self, state: BanditState) -> bool:
        """After 50 pulls."""
        return state.turn >= ROUNDS

    def returns(self, state: BanditState) -> tuple[float, ...]:
        """The sum of rewards so far."""
        return (float(state.total_reward),)

    def observation(self, state: BanditState, player: int) -> str:
        """The released text: the last pull and its reward, or the start of the round."""
        if state.last_arm is None:
            return "A new round begins."
        arm, reward = state.last_arm + 1, state.last_reward
        return f"You pulled slot machine {arm}, you received reward {reward}."

    def render(self, state: BanditState) -> str:
        """Pulls, rewards and the hidden probabilities."""
        p1, p2 = state.probs
        return (
            f"pull {state.turn}/{ROUNDS}  machine 1 p={p1}  machine 2 p={p2}  "
            f"total reward {state.total_reward}  optimal pulls {state.optimal_pulls}"
        )
