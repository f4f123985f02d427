"""Messenger rules (levels 1 and 2), our own implementation of the released dynamics.

The released environment (``messenger-emma``) needs the VGDL engine, which is not on PyPI;
even level 1 fails to import without it. This module re-implements both levels from the
published rules and the released level files:

- A 10x10 grid; positions are ``(row, col)`` with row 0 at the north edge.
- Three entities take the roles enemy, message and goal. Level 1 puts them on three of
  the cells (3,5), (5,3), (5,7), (7,5) around the avatar at (5,5), and the avatar starts
  holding the message with probability 0.2. Level 2 spreads the avatar and the three
  entities over (2,2), (2,7), (7,2), (7,7); the avatar starts without the message.
- Level 1 entities never move. In level 2 each role moves as a chaser (towards the
  avatar), a fleeing entity (away from it) or stays immovable: 27 variants. A mobile entity
  moves at half the avatar's speed: each step it moves one cell with probability 0.5 (the
  released VGDL sprites have ``speed=0.5``). It picks at random among the moves that bring
  it closer (chaser) or farther (fleeing) by Manhattan distance, or among all four when
  none does; a move off the grid leaves it in place, as VGDL's ``stepBack`` at the edge.
- Contact: after everyone moved, the avatar shares a cell with an entity, or stands
  where the entity stood before the step (it walked into the entity, which at half
  speed cannot clear the cell in time; this also covers swapping cells). At most one
  contact counts per step, in the order enemy, message, goal.
- Rewards, as released. Level 1: enemy -1; message +1 if not yet held, else -1; goal +1
  with the message, else -1; every contact ends the episode. Level 2: enemy -1 (end);
  message +0.5 and the avatar now carries it (the message disappears); goal with the
  message +1 (win, end), without it -1 (end).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "ACTIONS",
    "ENTITIES",
    "MOVEMENTS",
    "MessengerState",
    "contact_of",
    "initial",
    "step",
]

SIZE = 10
ACTIONS = ("Move North", "Move South", "Move West", "Move East", "Do Nothing")
_DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1), (0, 0))
# Entity names in the released id order (the order observations list them in).
ENTITIES = (
    "airplane",
    "mage",
    "dog",
    "bird",
    "fish",
    "scientist",
    "thief",
    "ship",
    "ball",
    "robot",
    "queen",
    "sword",
)
# Which entities play which role: the released test split draws the enemy, the message
# and the goal from these groups (we use all 64 combinations, a superset of its 32).
ROLE_POOLS = (
    ("airplane", "scientist", "bird", "mage"),
    ("robot", "queen", "dog", "sword"),
    ("ship", "fish", "thief", "ball"),
)
MOVEMENTS = ("chaser", "fleeing", "immovable")
LEVEL_STEPS = {1: 4, 2: 64}
L1_CELLS = ((3, 5), (5, 3), (5, 7), (7, 5))
L1_AVATAR = (5, 5)
L1_MESSAGE_PROB = 0.2
L2_CELLS = ((2, 2), (2, 7), (7, 2), (7, 7))
ENTITY_SPEED = 0.5
PICKUP_REWARD = 0.5

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MessengerState(GameState):
    """A Messenger episode.

    Attributes:
        level: 1 or 2.
        enemy: Entity name playing the enemy (e.g. ``"airplane"``).
        message: Entity name playing the message.
        goal: Entity name playing the goal.
        movement: How the enemy, message and goal move (``chaser``, ``fleeing``,
            ``immovable``); always immovable on level 1.
        avatar: The avatar's cell.
        enemy_at: The enemy's cell.
        message_at: The message's cell, ``None`` once picked up (level 2).
        goal_at: The goal's cell.
        has_message: Whether the avatar carries the message.
        last_action: Index of the last action in the released list, ``None`` at the start.
        last_reward: The reward of the last step (SmartPlay's score is its final value).
        total_reward: The sum of rewards so far.
        outcome: ``"won"``, ``"lost"`` or ``None`` while the episode runs.
    """

    level: int
    enemy: str
    message: str
    goal: str
    movement: tuple[str, str, str]
    avatar: tuple[int, int]
    enemy_at: tuple[int, int]
    message_at: tuple[int, int] | None
    goal_at: tuple[int, int]
    has_message: bool
    last_action: int | None
    last_reward: float
    total_reward: float
    outcome: str | None

    type_name: ClassVar[str] = "messenger"

    def validate(self) -> tuple[str, str] | None:
        """Known level, entities, movements, cells on the grid and a consistent message."""
        if self.level not in LEVEL_STEPS:
            return ("level", "must be 1 or 2")
        names = (self.enemy, self.message, self.goal)
        if any(n not in ENTITIES for n in names) or len(set(names)) != 3:
            return ("enemy", f"roles must be three different entities of {', '.join(ENTITIES)}")
        if any(m not in MOVEMENTS for m in self.movement):
            return ("movement", f"must be among {', '.join(MOVEMENTS)}")
        if self.level == 1 and set(self.movement) != {"immovable"}:
            return ("movement", "level 1 entities are immovable")
        for name in ("avatar", "enemy_at", "message_at", "goal_at"):
            cell = getattr(self, name)
            if cell is not None and not all(0 <= v < SIZE for v in cell):
                return (name, f"must lie on the {SIZE}x{SIZE} grid")
        if self.message_at is None and not self.has_message:
            return ("message_at", "the message can only be gone once the avatar carries it")
        if self.outcome not in (None, "won", "lost"):
            return ("outcome", "must be null, 'won' or 'lost'")
        if (self.last_action is None) != (self.turn == 0):
            return ("last_action", "must be null exactly at the start")
        return GameState.validate(self)


def initial(seed: int, level: int) -> MessengerState:
    """The start of an episode: roles, movements and placement drawn from the seed."""
    rng = derive_rng(seed, "messenger-setup")
    enemy, message, goal = (rng.choice(pool) for pool in ROLE_POOLS)
    if level == 1:
        cells = rng.sample(L1_CELLS, 3)
        avatar = L1_AVATAR
        has_message = rng.random() < L1_MESSAGE_PROB
        movement = ("immovable", "immovable", "immovable")
    else:
        cells = rng.sample(L2_CELLS, 4)
        avatar = cells.pop()
        has_message = False
        movement = (rng.choice(MOVEMENTS), rng.choice(MOVEMENTS), rng.choice(MOVEMENTS))
    return MessengerState(
        seed=seed,
        turn=0,
        level=level,
        enemy=enemy,
        message=message,
        goal=goal,
        movement=movement,
        avatar=avatar,
        enemy_at=cells[0],
        message_at=cells[1],
        goal_at=cells[2],
        has_message=has_message,
        last_action=None,
        last_reward=0.0,
        total_reward=0.0,
        outcome=None,
    )


def _moved(cell: Cell, delta: tuple[int, int]) -> Cell:
    row, col = cell[0] + delta[0], cell[1] + delta[1]
    return (row, col) if 0 <= row < SIZE and 0 <= col < SIZE else cell


def _distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def npc_move(cell: Cell, movement: str, avatar: Cell, rng: random.Random) -> Cell:
    """Where a level-2 entity goes this step (it may stay)."""
    if movement == "immovable" or rng.random() >= ENTITY_SPEED:
        return cell
    base = _distance(cell, avatar)
    options = []
    for delta in _DELTAS[:4]:
        target = (cell[0] + delta[0], cell[1] + delta[1])
        distance = _distance(target, avatar)
        if (movement == "chaser" and distance < base) or (
            movement == "fleeing" and distance > base
        ):
            options.append(delta)
    return _moved(cell, rng.choice(options or list(_DELTAS[:4])))


def contact_of(after: Cell, npc_before: Cell | None, npc_after: Cell | None) -> bool:
    """Whether the avatar, now at ``after``, meets an entity that moved between two cells."""
    if npc_before is None or npc_after is None:
        return False
    return after in (npc_after, npc_before)


def step(state: MessengerState, action: int) -> tuple[MessengerState, list[dict[str, object]]]:
    """Apply one action (index into :data:`ACTIONS`); return the new state and events."""
    before = state.avatar
    avatar = _moved(before, _DELTAS[action])
    enemy_at, message_at, goal_at = state.enemy_at, state.message_at, state.goal_at
    if state.level == 2:
        rng = derive_rng(state.seed, state.turn, "messenger-npcs")
        enemy_at = npc_move(enemy_at, state.movement[0], avatar, rng)
        if message_at is not None:
            message_at = npc_move(message_at, state.movement[1], avatar, rng)
        goal_at = npc_move(goal_at, state.movement[2], avatar, rng)
    events: list[dict[str, object]] = [
        {"type": "move", "action": ACTIONS[action], "avatar": list(avatar)}
    ]
    reward = 0.0
    outcome: str | None = None
    has_message = state.has_message
    if contact_of(avatar, state.enemy_at, enemy_at):
        reward, outcome = -1.0, "lost"
        events.append({"type": "lose", "cause": "enemy", "entity": state.enemy})
    elif contact_of(avatar, state.message_at, message_at):
        if state.level == 1:
            reward, outcome = (-1.0, "lost") if has_message else (1.0, "won")
            events.append(
                {
                    "type": "lose" if has_message else "win",
                    "cause": "message",
                    "entity": state.message,
                }
            )
        else:
            reward, has_message, message_at = PICKUP_REWARD, True, None
            events.append({"type": "pickup", "entity": state.message})
    elif contact_of(avatar, state.goal_at, goal_at):
        reward, outcome = (1.0, "won") if has_message else (-1.0, "lost")
        events.append(
            {"type": "win" if has_message else "lose", "cause": "goal", "entity": state.goal}
        )
    new = MessengerState(
        seed=state.seed,
        turn=state.turn + 1,
        level=state.level,
        enemy=state.enemy,
        message=state.message,
        goal=state.goal,
        movement=state.movement,
        avatar=avatar,
        enemy_at=enemy_at,
        message_at=message_at,
        goal_at=goal_at,
        has_message=has_message,
        last_action=action,
        last_reward=reward,
        total_reward=state.total_reward + reward,
        outcome=outcome,
    )
    return new, events
