"""Tower of Hanoi as SmartPlay runs it (``Hanoi3Disk-v0``).

Disks ``0`` (smallest) to ``n - 1`` start on rod A; the goal is all of them on rod C. The
six actions move the top disk of one rod onto another. A move from an empty rod or onto a
smaller disk changes nothing and costs -1; reaching the goal gives +100 and ends the
episode. An episode has at most 30 steps.

Score (SmartPlay): the number of disks on rod C at the last step. Human 3, minimum 0
(3 disks). Completion: the stack was moved.

Options: ``disks`` (default 3, the paper's setting) and ``steps`` (default 30); with
more disks the minimum solution needs ``2**n - 1`` moves, so raise ``steps`` with them.

Text views, as released (bottom of each rod on the left)::

    Current configuration:
    - A: |bottom, [2, 1, 0], top|
    - B: |bottom, [], top|
    - C: |bottom, [], top|

and after a move ``You tried to move the top disk of rod a to the top of rod c. Current
configuration:`` followed by the rods (the released code lower-cases the whole action).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from langgraph_games.games.base import Event, GameOptions
from langgraph_games.games.registry import register
from langgraph_games.games.smartplay._base import SmartPlayGame
from langgraph_games.games.state import GameState

__all__ = ["Hanoi", "HanoiOptions", "HanoiState"]

RODS = "ABC"
MOVES = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))
ACTIONS = tuple(f"Move the top disk of rod {RODS[a]} to the top of rod {RODS[b]}" for a, b in MOVES)
INVALID_REWARD = -1
GOAL_REWARD = 100


class HanoiOptions(GameOptions):
    """Options of the Tower of Hanoi."""

    disks: int = Field(3, ge=1, le=10, description="number of disks (the paper uses 3)")
    steps: int = Field(30, ge=1, le=10_000, description="steps per episode (the paper uses 30)")


@dataclass(frozen=True, slots=True)
class HanoiState(GameState):
    """A Tower of Hanoi episode.

    Attributes:
        rods: The rod (0 A, 1 B, 2 C) of each disk, smallest disk first.
        last_move: Index of the last action in the released list, ``None`` at the start.
        last_valid: Whether the last action moved a disk.
        total_reward: The sum of rewards so far.
        solved: Whether every disk is on rod C (the episode then ends).
    """

    rods: tuple[int, ...]
    last_move: int | None
    last_valid: bool
    total_reward: int
    solved: bool

    type_name: ClassVar[str] = "hanoi"

    def validate(self) -> tuple[str, str] | None:
        """Rods are 0-2, the goal flag matches the rods, the last move is a known action."""
        if not self.rods or any(r not in (0, 1, 2) for r in self.rods):
            return ("rods", "must hold a rod number 0, 1 or 2 for every disk")
        if self.solved != all(r == 2 for r in self.rods):
            return ("solved", "does not match the rods")
        if self.last_move is not None and not 0 <= self.last_move < len(MOVES):
            return ("last_move", f"must be null or 0..{len(MOVES) - 1}")
        if (self.last_move is None) != (self.turn == 0):
            return ("last_move", "must be null exactly at the start")
        return GameState.validate(self)


def disks_on(rods: tuple[int, ...], rod: int) -> list[int]:
    """Disks on ``rod``, smallest first (so the top disk is the first one)."""
    return [disk for disk, where in enumerate(rods) if where == rod]


def move_allowed(rods: tuple[int, ...], source: int, target: int) -> bool:
    """The source rod has a disk and its top disk is smaller than the target's top disk."""
    moving = disks_on(rods, source)
    below = disks_on(rods, target)
    return bool(moving) and (not below or below[0] > moving[0])


def describe_rods(rods: tuple[int, ...]) -> str:
    """The released three-line picture, bottom of each rod first."""
    return "\n".join(
        f"- {RODS[rod]}: |bottom, {disks_on(rods, rod)[::-1]}, top|" for rod in range(3)
    )


@register
class Hanoi(SmartPlayGame[HanoiState]):
    """SmartPlay's Tower of Hanoi: move the stack from rod A to rod C within 30 steps."""

    id = "hanoi"
    name = "Tower of Hanoi"
    description = "Move the disks from rod A to rod C; invalid moves cost -1; 30 steps."
    Options = HanoiOptions
    options: HanoiOptions
    State = HanoiState
    history_length = 5
    return_scale = float(GOAL_REWARD)

    @property
    def num_disks(self) -> int:
        """How many disks this game uses."""
        return self.options.disks

    def initial_state(self, seed: int = 0) -> HanoiState:
        """Every disk on rod A."""
        return HanoiState(
            seed=seed,
            turn=0,
            rods=(0,) * self.num_disks,
            last_move=None,
            last_valid=True,
            total_reward=0,
            solved=False,
        )

    def action_list(self, state: HanoiState) -> tuple[str, ...]:
        """The six moves A->B, A->C, B->A, B->C, C->A, C->B in the released wording."""
        return ACTIONS

    def manual_text(self, state: HanoiState) -> str:
        """Set-up, rules, an example of allowed and refused moves, start and goal."""
        n = self.num_disks
        start = (0,) * n
        goal = (2,) * n
        return (
            "Tower of Hanoi: there are three rods, A, B and C, and disks of different sizes "
            "that can sit on any rod. Each rod is written from its bottom (left) to its top "
            "(right), and disks are numbered by size, 0 being the smallest.\n"
            "At the start every disk is on rod A, the largest at the bottom. Your task is to "
            "move the whole stack to rod C under these rules:\n"
            " - You move one disk at a time.\n"
            " - A move takes the top disk of one rod and puts it on top of another rod, "
            "which may be empty.\n"
            " - A disk may never rest on a smaller disk.\n"
            "Example: with the rods\n"
            "- A: |bottom, [0], top|\n"
            "- B: |bottom, [1], top|\n"
            "- C: |bottom, [2], top|\n"
            "the top disk of B (1) may go to C, whose top disk (2) is larger, but not to A, "
            "whose top disk (0) is smaller.\n"
            "The starting configuration is:\n"
            f"{describe_rods(start)}\n"
            "and the goal configuration is:\n"
            f"{describe_rods(goal)}\n"
            "A move that breaks the rules leaves the disks where they are."
        )

    def rollout(self) -> int:
        """30 steps unless the ``steps`` option says otherwise."""
        return self.options.steps

    def _apply(
        self, state: HanoiState, actions: Mapping[int, str]
    ) -> tuple[HanoiState, list[Event]]:
        index = ACTIONS.index(actions[0])
        source, target = MOVES[index]
        valid = move_allowed(state.rods, source, target)
        rods = state.rods
        events: list[Event] = []
        if valid:
            disk = disks_on(rods, source)[0]
            rods = (*rods[:disk], target, *rods[disk + 1 :])
        solved = all(r == 2 for r in rods)
        reward = GOAL_REWARD if solved else 0 if valid else INVALID_REWARD
        events.append(
            {
                "type": "move",
                "from": RODS[source],
                "to": RODS[target],
                "valid": valid,
                "reward": reward,
            }
        )
        if solved:
            events.append({"type": "solved"})
        new = HanoiState(
            seed=state.seed,
            turn=state.turn + 1,
            rods=rods,
            last_move=index,
            last_valid=valid,
            total_reward=state.total_reward + reward,
            solved=solved,
        )
        return new, events

    def is_terminal(self, state: HanoiState) -> bool:
        """Solved, or out of steps."""
        return state.solved or state.turn >= self.rollout()

    def returns(self, state: HanoiState) -> tuple[float, ...]:
        """The sum of rewards so far."""
        return (float(state.total_reward),)

    def observation(self, state: HanoiState, player: int) -> str:
        """The released text: what was tried, then the rods."""
        if state.last_move is None:
            head = "Current configuration:"
        else:
            head = f"You tried to {ACTIONS[state.last_move].lower()}. Current configuration:"
        return f"{head}\n{describe_rods(state.rods)}"

    def render(self, state: HanoiState) -> str:
        """The rods and the step count."""
        status = "solved" if state.solved else f"step {state.turn}/{self.rollout()}"
        return f"{describe_rods(state.rods)}\n{status}, total reward {state.total_reward}"
