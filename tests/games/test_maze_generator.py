"""Maze generator: determinism, solvability, contents, and the pinned fixed sets."""

from __future__ import annotations

import hashlib

import pytest

from langgraph_games.games.maze.generator import (
    DEFAULT_SIZES,
    MAP_SETS,
    MazeMap,
    fixed_map,
    generate_map,
    reachable,
)
from langgraph_games.games.state import derive_rng


def fingerprint(maps: list[MazeMap]) -> str:
    text = "|".join(
        f"{m.map_id}:{m.size}:{sorted(m.walls)}:{m.coins}:{m.monsters}:{m.items}" for m in maps
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def all_fixed(size: int | None = None) -> list[MazeMap]:
    return [
        fixed_map(name, level, index, size)
        for name, count in sorted(MAP_SETS.items())
        for level in (1, 2, 3)
        for index in range(1, count + 1)
    ]


def check_map(m: MazeMap) -> None:
    room = reachable(m.size, m.walls, m.start)
    assert m.goal in room, m.map_id
    assert m.start not in m.walls and m.goal not in m.walls
    objects = [*m.coins, *m.monsters, *(cell for _, cell in m.items)]
    assert len(set(objects)) == len(objects), "objects overlap"
    assert set(objects) <= room - {m.start, m.goal}, "an object is walled off"
    assert len(m.coins) == 5
    assert len(m.monsters) == (0 if m.level == 1 else 2)
    assert [name for name, _ in m.items] == (
        ["key", "shovel", "sword", "magnet"] if m.level == 3 else []
    )
    for r, c in m.monsters:
        assert max(abs(r - m.start[0]), abs(c - m.start[1])) > 1, "monster next to the start"


def test_fixed_sets_have_the_released_sizes_and_are_solvable() -> None:
    maps = all_fixed()
    assert len(maps) == 3 * (30 + 10)
    for m in maps:
        assert m.size == DEFAULT_SIZES[m.level]
        check_map(m)
    assert len({(m.walls, m.coins) for m in maps}) == len(maps), "duplicate maps"


def test_fixed_sets_are_pinned() -> None:
    # Changing the generator changes every evaluation set; bump the game version then.
    assert fingerprint(all_fixed()) == "4436bf2a09dc0763"
    assert fingerprint(all_fixed(9)) == "c859c9ab7a20427f"


def test_generation_is_deterministic() -> None:
    fixed_map.cache_clear()
    again = all_fixed()
    fixed_map.cache_clear()
    assert fingerprint(again) == fingerprint(all_fixed())
    one = generate_map(derive_rng("x", 1), 9, 2)
    two = generate_map(derive_rng("x", 1), 9, 2)
    assert one == two


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("size", [7, 9, 11, 15])
def test_generated_maps_are_solvable(level: int, size: int) -> None:
    walls = []
    for seed in range(60):
        m = generate_map(derive_rng("solvable", level, size, seed), size, level)
        check_map(m)
        walls.append(len(m.walls))
    assert min(walls) >= 2  # some obstacle pieces are always placed


def test_bad_fixed_map_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="1-30"):
        fixed_map("eval", 1, 31)
    with pytest.raises(ValueError, match="map set"):
        fixed_map("test", 1, 1)
    with pytest.raises(ValueError, match="level"):
        fixed_map("eval", 4, 1)
