"""Rock-Paper-Scissors against a biased opponent, as SmartPlay runs it.

The opponent plays rock, paper and scissors with hidden probabilities; a win with a
given hand scores that hand's score, a loss costs the opponent's winning hand's score, a
tie scores 0. The paper shuffles the paired list ``[(p1, s1), (p2, s2), (p3, s3)]`` per
episode; here the shuffle comes from the seed. An episode is 50 rounds.

Variants (option ``variant``):

- ``basic`` (``RockPaperScissorBasic-v0``): probabilities 0.2, 0.2, 0.6, all scores 1.
- ``different_score`` (``RockPaperScissorDifferentScore-v0``): probabilities 0.3, 0.3,
  0.4 with scores 1, 2, 1. The released class crashes on construction; this is a working
  version.

Score (SmartPlay): how many rounds chose the optimal hand. The optimal hand maximises
the true expected score. The released formula is that expectation plus a constant (the
sum of ``p * s`` over the hands), so it picks the same hand; only at an exact tie, where
the released code left the choice to floating-point rounding, does ours take the first
of rock, paper, scissors. Human 43, minimum 0 (``basic``).

The manual names each hand with its own score; the released one printed the second and
third scores against the wrong hands, harmless only while scores are equal.

Text views, as released::

    New round begins.
    You chose Rock, and the opponent chose Paper. You lost and received score -1.
    New round begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from langgraph_games.games.base import Event, GameOptions
from langgraph_games.games.registry import register
from langgraph_games.games.smartplay._base import SmartPlayGame
from langgraph_games.games.state import GameState, derive_rng

__all__ = ["RockPaperScissors", "RockPaperScissorsOptions", "RockPaperScissorsState"]

ACTIONS = ("Rock", "Paper", "Scissor")
ROUNDS = 50
VARIANTS: dict[str, tuple[tuple[float, float, float], tuple[int, int, int]]] = {
    "basic": ((0.2, 0.2, 0.6), (1, 1, 1)),
    "different_score": ((0.3, 0.3, 0.4), (1, 2, 1)),
}
# BEATS[a] is the hand that a beats: rock blunts scissors, paper wraps rock, scissors cut paper.
BEATS = (2, 0, 1)


def outcome(mine: int, theirs: int) -> int:
    """+1 if hand ``mine`` beats ``theirs``, -1 if it loses, 0 on a tie (0 R, 1 P, 2 S)."""
    if mine == theirs:
        return 0
    return 1 if BEATS[mine] == theirs else -1


def round_score(mine: int, theirs: int, scores: tuple[int, ...]) -> int:
    """My score for one round: my hand's score on a win, minus theirs on a loss."""
    result = outcome(mine, theirs)
    return scores[mine] if result > 0 else -scores[theirs] if result < 0 else 0


def expected_scores(probs: tuple[float, ...], scores: tuple[int, ...]) -> tuple[float, ...]:
    """Expected score of each of my hands against the opponent's mix."""
    return tuple(
        sum(p * round_score(mine, theirs, scores) for theirs, p in enumerate(probs))
        for mine in range(3)
    )


def optimal_hand(probs: tuple[float, ...], scores: tuple[int, ...]) -> int:
    """The hand with the largest expected score (the first of R, P, S on a tie)."""
    values = expected_scores(probs, scores)
    best = max(values)
    return next(i for i, v in enumerate(values) if abs(v - best) < 1e-12)


class RockPaperScissorsOptions(GameOptions):
    """Options of Rock-Paper-Scissors."""

    variant: Literal["basic", "different_score"] = Field(
        "basic",
        description="basic: opponent 0.2/0.2/0.6, scores 1/1/1; "
        "different_score: opponent 0.3/0.3/0.4, scores 1/2/1 (shuffled per episode)",
    )


@dataclass(frozen=True, slots=True)
class RockPaperScissorsState(GameState):
    """A Rock-Paper-Scissors episode.

    Attributes:
        probs: The opponent's probability of rock, paper and scissors.
        scores: The score of a win with rock, paper and scissors.
        last_hand: My hand in the last round (0 R, 1 P, 2 S), ``None`` before the first.
        last_opponent: The opponent's hand in the last round.
        last_reward: My score in the last round.
        total_reward: The sum of my round scores.
        optimal_rounds: How many rounds chose the optimal hand (the SmartPlay score).
    """

    probs: tuple[float, float, float]
    scores: tuple[int, int, int]
    last_hand: int | None
    last_opponent: int | None
    last_reward: int
    total_reward: int
    optimal_rounds: int

    type_name: ClassVar[str] = "rock_paper_scissors"

    def validate(self) -> tuple[str, str] | None:
        """A probability distribution, positive scores, consistent counters."""
        if not all(0.0 <= p <= 1.0 for p in self.probs) or abs(sum(self.probs) - 1.0) > 1e-9:
            return ("probs", "must be three probabilities summing to 1")
        if not all(s > 0 for s in self.scores):
            return ("scores", "must be positive")
        hands = (None, 0, 1, 2)
        if self.last_hand not in hands or self.last_opponent not in hands:
            return ("last_hand", "must be null, 0, 1 or 2")
        if (self.last_hand is None) != (self.turn == 0) or (self.last_opponent is None) != (
            self.turn == 0
        ):
            return ("last_hand", "must be null exactly before the first round")
        if not 0 <= self.optimal_rounds <= self.turn or self.turn > ROUNDS:
            return ("optimal_rounds", "must lie between 0 and the number of rounds")
        return GameState.validate(self)


@register
class RockPaperScissors(SmartPlayGame[RockPaperScissorsState]):
    """SmartPlay's Rock-Paper-Scissors against a biased opponent, 50 rounds."""

    id = "rock_paper_scissors"
    name = "Rock-Paper-Scissors"
    description = "50 rounds against an opponent with hidden, biased (shuffled) hand probabilities."
    Options = RockPaperScissorsOptions
    options: RockPaperScissorsOptions
    State = RockPaperScissorsState
    history_length = 50
    # The most an episode can score over both variants: 50 wins with a hand scoring 2.
    return_scale = float(ROUNDS * 2)

    @property
    def _variant(self) -> str:
        return self.options.variant

    def initial_state(self, seed: int = 0) -> RockPaperScissorsState:
        """Shuffle the (probability, score) pairs over the three hands, from the seed."""
        probs, scores = VARIANTS[self._variant]
        pairs = list(zip(probs, scores, strict=True))
        derive_rng(seed, "rps-pairs").shuffle(pairs)
        return RockPaperScissorsState(
            seed=seed,
            turn=0,
            probs=(pairs[0][0], pairs[1][0], pairs[2][0]),
            scores=(pairs[0][1], pairs[1][1], pairs[2][1]),
            last_hand=None,
            last_opponent=None,
            last_reward=0,
            total_reward=0,
            optimal_rounds=0,
        )

    def action_list(self, state: RockPaperScissorsState) -> tuple[str, ...]:
        """``Rock``, ``Paper``, ``Scissor`` (the released names)."""
        return ACTIONS

    def manual_text(self, state: RockPaperScissorsState) -> str:
        """The rules with each hand's score next to that hand."""
        rock, paper, scissors = state.scores
        return (
            "You are playing Rock Paper Scissors against an opponent. In every round you and "
            "the opponent each pick rock, paper or scissors, and the round is decided like this:\n"
            f"Rock beats scissors: winning with rock scores {rock}.\n"
            f"Paper beats rock: winning with paper scores {paper}.\n"
            f"Scissors beat paper: winning with scissors scores {scissors}.\n"
            "When you lose a round, you lose the score of the opponent's winning hand.\n"
            "When both pick the same hand, the round is a draw and scores 0.\n"
            "Make your total score as large as you can."
        )

    def rollout(self) -> int:
        """50 rounds."""
        return ROUNDS

    def optimal_hand(self, state: RockPaperScissorsState) -> int:
        """The hand with the best expected score this episode (0 R, 1 P, 2 S)."""
        return optimal_hand(state.probs, state.scores)

    def _apply(
        self, state: RockPaperScissorsState, actions: Mapping[int, str]
    ) -> tuple[RockPaperScissorsState, list[Event]]:
        mine = ACTIONS.index(actions[0])
        rng = derive_rng(state.seed, state.turn, "rps-opponent")
        theirs = rng.choices(range(3), weights=state.probs)[0]
        reward = round_score(mine, theirs, state.scores)
        optimal = mine == optimal_hand(state.probs, state.scores)
        new = RockPaperScissorsState(
            seed=state.seed,
            turn=state.turn + 1,
            probs=state.probs,
            scores=state.scores,
            last_hand=mine,
            last_opponent=theirs,
            last_reward=reward,
            total_reward=state.total_reward + reward,
            optimal_rounds=state.optimal_rounds + int(optimal),
        )
        event: Event = {
            "type": "round",
            "hand": ACTIONS[mine],
            "opponent": ACTIONS[theirs],
            "result": _RESULT[outcome(mine, theirs)],
            "reward": reward,
            "optimal": optimal,
        }
        return new, [event]

    def is_terminal(self, state: RockPaperScissorsState) -> bool:
        """After 50 rounds."""
        return state.turn >= ROUNDS

    def returns(self, state: RockPaperScissorsState) -> tuple[float, ...]:
        """The sum of round scores so far."""
        return (float(state.total_reward),)

    def observation(self, state: RockPaperScissorsState, player: int) -> str:
        """The released text: the last round's hands, result and score, then a new round."""
        if state.last_hand is None or state.last_opponent is None:
            return "New round begins."
        result = _RESULT[outcome(state.last_hand, state.last_opponent)]
        return (
            f"You chose {ACTIONS[state.last_hand]}, and the opponent chose "
            f"{ACTIONS[state.last_opponent]}. You {result} and received score "
            f"{state.last_reward}.\nNew round begins."
        )

    def render(self, state: RockPaperScissorsState) -> str:
        """Rounds, scores and the hidden opponent mix."""
        mix = ", ".join(f"{a} {p}" for a, p in zip(ACTIONS, state.probs, strict=True))
        return (
            f"round {state.turn}/{ROUNDS}  opponent: {mix}  scores {list(state.scores)}  "
            f"total {state.total_reward}  optimal rounds {state.optimal_rounds}"
        )


_RESULT = {1: "won", -1: "lost", 0: "tied"}
