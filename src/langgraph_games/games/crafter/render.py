"""Crafter text views: the SPRING/SmartPlay descriptor for models and a map for people.

The descriptor is the one SPRING's released code used through SmartPlay's Crafter
environment, computed from the world state rather than from pixels::

    You took action move_west.

    You see:
    - grass 1 steps to your west
    - tree 2 steps to your north-east

    You face grass at your front.

    Your status:
    - health: 9/9
    - food: 9/9
    - drink: 9/9
    - energy: 9/9

    You have nothing in your inventory.

"You see" lists, for every kind of material, creature or object in the 9x7 local view
except the player, the nearest instance: its Manhattan distance and its direction
(north/south joined to west/east by "-"). Kinds appear in the package's semantic-id order
(materials water ... furnace, then cow, zombie, skeleton, arrow, plant); among equally near
instances the one further west, then further north, wins, as in SmartPlay's ``argmin``.
"""

from __future__ import annotations

from langgraph_games.games.crafter._live import VIEW_HEIGHT, VIEW_WIDTH, Snapshot
from langgraph_games.games.crafter.data import ACTION_SNAKE_NAMES, VITALS

__all__ = ["SEMANTIC_ORDER", "describe", "local_map", "nearest_objects"]

SEMANTIC_ORDER: tuple[str, ...] = (
    "water",
    "grass",
    "stone",
    "path",
    "sand",
    "tree",
    "lava",
    "coal",
    "iron",
    "diamond",
    "table",
    "furnace",
    "player",
    "cow",
    "zombie",
    "skeleton",
    "arrow",
    "plant",
)
"""Names of the package's semantic ids 1-18, in id order."""

_ORDER = {name: i for i, name in enumerate(SEMANTIC_ORDER)}
_CX, _CY = VIEW_WIDTH // 2, VIEW_HEIGHT // 2

SLEEPING = "You are sleeping, and will not be able take actions until energy is full."
DIED = "You died."

_GLYPHS = {
    "water": "~",
    "grass": ".",
    "stone": "#",
    "path": "_",
    "sand": ":",
    "tree": "T",
    "lava": "%",
    "coal": "c",
    "iron": "i",
    "diamond": "D",
    "table": "t",
    "furnace": "f",
    "cow": "C",
    "zombie": "Z",
    "skeleton": "S",
    "arrow": "*",
    "plant": "p",
    "": " ",
}
_PLAYER_GLYPHS = {(-1, 0): "<", (1, 0): ">", (0, -1): "^", (0, 1): "v"}


def _direction(dx: int, dy: int) -> str:
    parts = []
    if dy < 0:
        parts.append("north")
    elif dy > 0:
        parts.append("south")
    if dx < 0:
        parts.append("west")
    elif dx > 0:
        parts.append("east")
    return "-".join(parts)


def nearest_objects(snap: Snapshot) -> list[tuple[str, int, str]]:
    """``(name, distance, direction)`` of the nearest instance of each kind in view."""
    best: dict[str, tuple[int, int, int]] = {}
    for x in range(VIEW_WIDTH):  # x outer, y inner: SmartPlay's argmin tie-break
        for y in range(VIEW_HEIGHT):
            name = snap.view[y][x]
            if not name or name == "player":
                continue
            dist = abs(x - _CX) + abs(y - _CY)
            if name not in best or dist < best[name][0]:
                best[name] = (dist, x - _CX, y - _CY)
    ordered = sorted(best, key=lambda n: _ORDER.get(n, len(_ORDER)))
    return [(n, best[n][0], _direction(best[n][1], best[n][2])) for n in ordered]


def describe(snap: Snapshot) -> str:
    """The SPRING/SmartPlay text description of a Crafter state (see the module docstring).

    The first line names the action that led here (absent at the start of an episode) and
    says if the player died or is asleep (SmartPlay tests sleep first; a player killed in
    its sleep is reported dead here).
    """
    blocks = []
    head = []
    if snap.last_action is not None:
        head.append(f"You took action {ACTION_SNAKE_NAMES[snap.last_action]}.")
    if snap.dead:
        head.append(DIED)
    elif snap.sleeping:
        head.append(SLEEPING)
    if head:
        blocks.append(" ".join(head))
    seen = nearest_objects(snap)
    if seen:
        lines = [f"- {name} {dist} steps to your {where}" for name, dist, where in seen]
        blocks.append("You see:\n" + "\n".join(lines))
    else:
        blocks.append("You see nothing away from you.")
    fx, fy = snap.facing
    front = snap.view[_CY + fy][_CX + fx] or "the edge of the world"
    blocks.append(f"You face {front} at your front.")
    counts = dict(snap.inventory)
    blocks.append("Your status:\n" + "\n".join(f"- {v}: {counts.get(v, 0)}/9" for v in VITALS))
    items = [(name, n) for name, n in snap.inventory if name not in VITALS and n]
    if items:
        blocks.append("Your inventory:\n" + "\n".join(f"- {name}: {n}" for name, n in items))
    else:
        blocks.append("You have nothing in your inventory.")
    return "\n\n".join(blocks)


def local_map(snap: Snapshot) -> str:
    """The 9x7 local view as characters, north up (the player is ``< > ^ v``, ``z`` asleep)."""
    rows = []
    for y, row in enumerate(snap.view):
        chars = []
        for x, name in enumerate(row):
            if (x, y) == (_CX, _CY):
                chars.append("z" if snap.sleeping else _PLAYER_GLYPHS.get(snap.facing, "@"))
            else:
                chars.append(_GLYPHS.get(name, "?"))
        rows.append("".join(chars))
    return "\n".join(rows)


def render_state(snap: Snapshot, seed: int) -> str:
    """A compact picture for people: vitals, the local map, inventory and achievements."""
    counts = dict(snap.inventory)
    vitals = ", ".join(f"{v} {counts.get(v, 0)}" for v in VITALS)
    status = " (asleep)" if snap.sleeping else " (dead)" if snap.dead else ""
    items = ", ".join(f"{n} {c}" for n, c in snap.inventory if n not in VITALS and c) or "nothing"
    unlocked = ", ".join(snap.unlocked) or "none"
    return (
        f"Crafter seed {seed} step {snap.step}{status}: {vitals}; reward {snap.total_reward:g}\n"
        f"{local_map(snap)}\n"
        f"inventory: {items}\n"
        f"achievements: {unlocked}"
    )
