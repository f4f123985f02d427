"""Live ``crafter`` environments behind the pure Crafter engine, and what they saw.

A Crafter state is ``(seed, turn, actions)``; this module turns one into the world it
describes. Three caches, all keyed by what fully determines a world, make that cheap:

- **snapshots**: for every state reached, an immutable :class:`Snapshot` of what the text
  view, the rules and the metrics need (the 9x7 local view, vitals, inventory,
  achievements, reward, done). Observing, checking the end or replaying a known trajectory
  is a dictionary look-up; no environment is touched.
- **live environments**: a few ``crafter.Env`` objects, each positioned at the end of some
  action string. A new state whose actions extend a live environment's actions steps that
  environment forward (normal play: one ``env.step`` per move). Anything else (a branch
  from an older state, a state read back from JSON in a fresh process) starts a copy of
  the seed's freshly generated world and replays the actions.
- **generated worlds**: the world right after ``reset`` is kept per seed and copied. World
  generation itself runs with an exact, faster noise helper
  (:mod:`~langgraph_games.games.crafter._fastnoise`): about 0.4 s instead of 1.5 s.

Two details keep replays exact and fast:

- crafter 1.8.3 keeps the creatures of each chunk in a ``set`` and despawns
  ``creatures[random index]`` of it; a set's order follows memory addresses, so two
  environments with the same seed and actions can despawn different creatures and drift
  apart. The world here keeps those sets in insertion order (:class:`_OrderedWorld`), which
  makes the package deterministic without changing what it samples from.
- the package renders an image on every step, and at night the renderer draws noise from
  the world's random generator. We need no pixels, so the render is replaced by the same
  draw (:func:`_skip_render`): identical random streams, a third of the cost.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from langgraph_games.games.crafter._fastnoise import fast_world_generation
from langgraph_games.games.crafter.data import ACHIEVEMENTS, ITEMS

__all__ = [
    "ACTION_CODES",
    "Snapshot",
    "cache_info",
    "clear_caches",
    "ensure_crafter",
    "set_cache_limits",
    "snapshot",
]

ACTION_CODES = "0123456789abcdefg"
"""One character per action index (0-16) in a state's ``actions`` string."""

VIEW_WIDTH, VIEW_HEIGHT = 9, 7
"""The local view the text descriptor scans: 9 columns (west-east) by 7 rows (north-south)."""

_NOISE_SHAPE = (63, 49)  # the local-view canvas the package renders: (9 x 7 cells) x 7 px

_limits = {"snapshots": 20_000, "live_envs": 64, "worlds": 64}

_lock = threading.RLock()
_snapshots: OrderedDict[tuple[int, int, str], Snapshot] = OrderedDict()
_live: OrderedDict[int, _Live] = OrderedDict()  # keyed by id(), most recently used last
_worlds: OrderedDict[int, Any] = OrderedDict()
_stats = {"worlds_generated": 0, "env_steps": 0, "replays": 0}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What one Crafter state looks like, read from the environment's world state.

    Attributes:
        step: Number of actions applied.
        last_action: Index of the action that led here (``None`` at the start).
        reward: Reward of the last step (``+1`` on a step unlocking something new, plus the
            change of health divided by 10), as the package computes it.
        total_reward: Sum of the rewards so far.
        done: Whether the episode is over (the player died or the length was reached).
        dead: Whether health reached 0.
        sleeping: Whether the player is asleep.
        inventory_counts: The count of every inventory entry, in the order of ``ITEMS``
            (vitals first); :attr:`inventory` pairs them with the names.
        achievement_counts: How often each of the 22 achievements was unlocked, in the
            order of ``ACHIEVEMENTS``; :attr:`achievements` pairs them with the names.
        new_achievements: Achievements unlocked for the first time by the last step.
        position: The player's ``(x, y)``; x grows eastwards, y southwards.
        facing: The player's facing direction ``(dx, dy)``.
        daylight: The package's daylight level in [0, 1].
        view: The 9x7 local view as rows north to south, each west to east; a cell holds
            the creature or object standing there, else its material (``""`` off the map).
    """

    step: int
    last_action: int | None
    reward: float
    total_reward: float
    done: bool
    dead: bool
    sleeping: bool
    inventory_counts: tuple[int, ...]
    achievement_counts: tuple[int, ...]
    new_achievements: tuple[str, ...]
    position: tuple[int, int]
    facing: tuple[int, int]
    daylight: float
    view: tuple[tuple[str, ...], ...]

    @property
    def inventory(self) -> tuple[tuple[str, int], ...]:
        """``(item, count)`` for every inventory entry, vitals first."""
        return tuple(zip(ITEMS, self.inventory_counts, strict=True))

    @property
    def achievements(self) -> tuple[tuple[str, int], ...]:
        """``(name, count)`` for the 22 achievements."""
        return tuple(zip(ACHIEVEMENTS, self.achievement_counts, strict=True))

    def item(self, name: str) -> int:
        """The inventory count of ``name`` (0 if unknown)."""
        return dict(self.inventory).get(name, 0)

    @property
    def unlocked(self) -> tuple[str, ...]:
        """Achievements unlocked at least once, in the package's order."""
        return tuple(name for name, count in self.achievements if count > 0)


class _Live:
    """A live environment positioned after ``actions``."""

    __slots__ = ("actions", "env", "last", "length", "seed", "total_reward")

    def __init__(self, env: Any, seed: int, length: int) -> None:
        self.env = env
        self.seed = seed
        self.length = length
        self.actions = ""
        self.total_reward = 0.0
        self.last = _read(self, 0.0, None, {})


def ensure_crafter() -> Any:
    """Import and return the ``crafter`` package, or explain how to install it.

    Raises:
        ImportError: ``crafter`` is not installed.
    """
    try:
        import crafter
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "The Crafter game needs the 'crafter' package: "
            "pip install -e '.[crafter]' in a source checkout (or pip install crafter==1.8.3)."
        ) from exc
    return crafter


class _InsertionOrderedSet:
    """The part of ``set`` the package uses on chunk contents, in insertion order."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: dict[Any, None] = {}

    def add(self, item: Any) -> None:
        self._items[item] = None

    def remove(self, item: Any) -> None:
        del self._items[item]

    def discard(self, item: Any) -> None:
        self._items.pop(item, None)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)


def _ordered_world_class() -> type:
    from collections import defaultdict

    from crafter import engine  # the optional `crafter` extra: loaded when a world is made

    class _OrderedWorld(engine.World):  # type: ignore[misc]
        def reset(self, seed: int | None = None) -> None:
            super().reset(seed)
            self._chunks: defaultdict[Any, _InsertionOrderedSet] = defaultdict(_InsertionOrderedSet)

    return _OrderedWorld


_world_class: type | None = None


def make_deterministic(env: Any) -> Any:
    """Give a fresh ``crafter.Env`` a world whose chunk contents keep insertion order."""
    global _world_class
    if _world_class is None:
        _world_class = _ordered_world_class()
    env._world.__class__ = _world_class
    return env


def _skip_render(env: Any) -> None:
    """Stand-in for ``Env._obs``: draw the night noise the renderer would, draw no pixels."""
    world = env._world
    if world.daylight < 0.5:
        world.random.uniform(32, 127, _NOISE_SHAPE)


def _fresh_env(seed: int, length: int) -> Any:
    """A copy of the seed's world right after ``reset`` (generated once per seed)."""
    template = _worlds.get(seed)
    if template is None:
        crafter = ensure_crafter()
        template = make_deterministic(crafter.Env(seed=seed))
        template._obs = lambda: _skip_render(template)
        with fast_world_generation():
            template.reset()
        del template._obs
        _stats["worlds_generated"] += 1
        _worlds[seed] = template
        while len(_worlds) > _limits["worlds"]:
            _worlds.popitem(last=False)
    else:
        _worlds.move_to_end(seed)
    env = copy.deepcopy(template, {id(template._textures): template._textures})
    env._length = length
    env._obs = lambda: _skip_render(env)
    return env


def _read(live: _Live, reward: float, last_action: int | None, before: dict[str, int]) -> Snapshot:
    env = live.env
    player = env._player
    world = env._world
    achievements = tuple(int(player.achievements.get(name, 0)) for name in ACHIEVEMENTS)
    new = tuple(
        name
        for name, count in zip(ACHIEVEMENTS, achievements, strict=True)
        if count > 0 and before.get(name, 0) == 0
    )
    x0, y0 = int(player.pos[0]), int(player.pos[1])
    width, height = world.area
    rows = []
    for dy in range(-(VIEW_HEIGHT // 2), VIEW_HEIGHT // 2 + 1):
        row = []
        for dx in range(-(VIEW_WIDTH // 2), VIEW_WIDTH // 2 + 1):
            x, y = x0 + dx, y0 + dy
            if not (0 <= x < width and 0 <= y < height):
                row.append("")
                continue
            material, obj = world[(x, y)]
            row.append(type(obj).__name__.lower() if obj is not None else str(material))
        rows.append(tuple(row))
    health = int(player.health)
    step = len(live.actions)
    return Snapshot(
        step=step,
        last_action=last_action,
        reward=reward,
        total_reward=live.total_reward,
        done=health <= 0 or step >= live.length,
        dead=health <= 0,
        sleeping=bool(player.sleeping),
        inventory_counts=tuple(int(player.inventory.get(name, 0)) for name in ITEMS),
        achievement_counts=achievements,
        new_achievements=new,
        position=(x0, y0),
        facing=(int(player.facing[0]), int(player.facing[1])),
        daylight=float(world.daylight),
        view=tuple(rows),
    )


def _remember(key: tuple[int, int, str], snap: Snapshot) -> None:
    _snapshots[key] = snap
    while len(_snapshots) > _limits["snapshots"]:
        _snapshots.popitem(last=False)


def _step(live: _Live, code: str) -> Snapshot:
    index = ACTION_CODES.index(code)
    before = dict(live.env._player.achievements)
    _obs, reward, _done, _info = live.env.step(index)
    _stats["env_steps"] += 1
    live.actions += code
    live.total_reward = round(live.total_reward + float(reward), 10)
    snap = live.last = _read(live, round(float(reward), 10), index, before)
    _remember((live.seed, live.length, live.actions), snap)
    return snap


def _find_live(seed: int, length: int, actions: str) -> _Live | None:
    best: _Live | None = None
    for live in _live.values():
        if live.seed != seed or live.length != length or not actions.startswith(live.actions):
            continue
        if best is None or len(live.actions) > len(best.actions):
            best = live
    return best


def snapshot(seed: int, length: int, actions: str) -> Snapshot:
    """The snapshot of the world reached from ``seed`` by ``actions``.

    Args:
        seed: The episode seed (the ``crafter.Env`` seed).
        length: The episode length limit.
        actions: One :data:`ACTION_CODES` character per action, in order.

    Raises:
        ImportError: ``crafter`` is not installed.
        ValueError: ``actions`` holds a character that is not an action code.
    """
    key = (seed, length, actions)
    with _lock:
        snap = _snapshots.get(key)
        if snap is not None:
            _snapshots.move_to_end(key)
            return snap
        bad = set(actions) - set(ACTION_CODES)
        if bad:
            raise ValueError(f"actions hold characters that are not action codes: {sorted(bad)}")
        live = _find_live(seed, length, actions)
        if live is None:
            live = _Live(_fresh_env(seed, length), seed, length)
            if actions:
                _stats["replays"] += 1
            _remember((seed, length, ""), live.last)
            _live[id(live)] = live
            while len(_live) > _limits["live_envs"]:
                _live.popitem(last=False)
        _live.move_to_end(id(live))
        for code in actions[len(live.actions) :]:
            _step(live, code)
        return live.last


def clear_caches() -> None:
    """Forget every snapshot, live environment and generated world."""
    with _lock:
        _snapshots.clear()
        _live.clear()
        _worlds.clear()


def set_cache_limits(
    *, snapshots: int | None = None, live_envs: int | None = None, worlds: int | None = None
) -> dict[str, int]:
    """Change how many snapshots, live environments and generated worlds are kept.

    Keep ``live_envs`` at least the number of episodes played at once: an episode whose
    environment was evicted is rebuilt by replay on its next step. Returns the limits.

    Raises:
        ValueError: A limit below 1.
    """
    for key, value in (("snapshots", snapshots), ("live_envs", live_envs), ("worlds", worlds)):
        if value is not None:
            if value < 1:
                raise ValueError(f"{key} must be at least 1, got {value}")
            _limits[key] = value
    return dict(_limits)


def cache_info() -> dict[str, int]:
    """Sizes of the caches and counters of work done since the process started."""
    with _lock:
        return {
            "snapshots": len(_snapshots),
            "live_envs": len(_live),
            "worlds": len(_worlds),
            **_stats,
        }
