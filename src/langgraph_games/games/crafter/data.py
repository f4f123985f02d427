"""Crafter's names and rules as data: actions, achievements, recipes and the tech tree.

The tables mirror ``crafter/data.yaml`` of crafter 1.8.3 (a test checks them against the
installed package), so the canonical action strings, the achievement list and the
tech-tree depths are available without importing ``crafter``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

__all__ = [
    "ACHIEVEMENTS",
    "ACTION_NAMES",
    "ACTION_SNAKE_NAMES",
    "CRAFTER_ACTIONS",
    "ITEMS",
    "MAX_DEPTH",
    "TECH_TREE_DEPTH",
    "VITALS",
    "achievement_requirements",
    "derive_tech_tree_depth",
    "recipes",
]

CRAFTER_ACTIONS: tuple[str, ...] = (
    "noop",
    "move_left",
    "move_right",
    "move_up",
    "move_down",
    "do",
    "sleep",
    "place_stone",
    "place_table",
    "place_furnace",
    "place_plant",
    "make_wood_pickaxe",
    "make_stone_pickaxe",
    "make_iron_pickaxe",
    "make_wood_sword",
    "make_stone_sword",
    "make_iron_sword",
)
"""The package's internal action names, in its action-index order."""

ACTION_NAMES: tuple[str, ...] = (
    "Noop",
    "Move West",
    "Move East",
    "Move North",
    "Move South",
    "Do",
    "Sleep",
    "Place Stone",
    "Place Table",
    "Place Furnace",
    "Place Plant",
    "Make Wood Pickaxe",
    "Make Stone Pickaxe",
    "Make Iron Pickaxe",
    "Make Wood Sword",
    "Make Stone Sword",
    "Make Iron Sword",
)
"""Canonical action strings (SPRING's and SmartPlay's names), in the package's order."""

ACTION_SNAKE_NAMES: tuple[str, ...] = tuple(name.lower().replace(" ", "_") for name in ACTION_NAMES)
"""How the text view reports the last action (``move_west``, ``do``, ...), as SmartPlay does."""

ACHIEVEMENTS: tuple[str, ...] = (
    "collect_coal",
    "collect_diamond",
    "collect_drink",
    "collect_iron",
    "collect_sapling",
    "collect_stone",
    "collect_wood",
    "defeat_skeleton",
    "defeat_zombie",
    "eat_cow",
    "eat_plant",
    "make_iron_pickaxe",
    "make_iron_sword",
    "make_stone_pickaxe",
    "make_stone_sword",
    "make_wood_pickaxe",
    "make_wood_sword",
    "place_furnace",
    "place_plant",
    "place_stone",
    "place_table",
    "wake_up",
)
"""The 22 achievements, in the package's order."""

VITALS: tuple[str, ...] = ("health", "food", "drink", "energy")

ITEMS: tuple[str, ...] = (
    *VITALS,
    "sapling",
    "wood",
    "stone",
    "coal",
    "iron",
    "diamond",
    "wood_pickaxe",
    "stone_pickaxe",
    "iron_pickaxe",
    "wood_sword",
    "stone_sword",
    "iron_sword",
)
"""Inventory entries in the package's order; every one holds 0 to 9."""

# Recipes as in data.yaml. ``collect``: material -> (required items, received items).
_COLLECT: dict[str, tuple[dict[str, int], dict[str, int]]] = {
    "tree": ({}, {"wood": 1}),
    "stone": ({"wood_pickaxe": 1}, {"stone": 1}),
    "coal": ({"wood_pickaxe": 1}, {"coal": 1}),
    "iron": ({"stone_pickaxe": 1}, {"iron": 1}),
    "diamond": ({"iron_pickaxe": 1}, {"diamond": 1}),
    "water": ({}, {"drink": 1}),
    "grass": ({}, {"sapling": 1}),
}
# ``place``: thing -> (used items, target materials).
_PLACE: dict[str, tuple[dict[str, int], tuple[str, ...]]] = {
    "stone": ({"stone": 1}, ("grass", "sand", "path", "water", "lava")),
    "table": ({"wood": 2}, ("grass", "sand", "path")),
    "furnace": ({"stone": 4}, ("grass", "sand", "path")),
    "plant": ({"sapling": 1}, ("grass",)),
}
# ``make``: tool -> (used items, required nearby materials).
_MAKE: dict[str, tuple[dict[str, int], tuple[str, ...]]] = {
    "wood_pickaxe": ({"wood": 1}, ("table",)),
    "stone_pickaxe": ({"wood": 1, "stone": 1}, ("table",)),
    "iron_pickaxe": ({"wood": 1, "coal": 1, "iron": 1}, ("table", "furnace")),
    "wood_sword": ({"wood": 1}, ("table",)),
    "stone_sword": ({"wood": 1, "stone": 1}, ("table",)),
    "iron_sword": ({"wood": 1, "coal": 1, "iron": 1}, ("table", "furnace")),
}


def recipes() -> dict[str, Any]:
    """The collect, place and make rules in the shape of ``crafter/data.yaml``.

    Example:
        >>> recipes()["make"]["wood_pickaxe"]
        {'uses': {'wood': 1}, 'nearby': ['table'], 'gives': 1}
    """
    return {
        "collect": {
            material: {"require": dict(req), "receive": dict(rec)}
            for material, (req, rec) in _COLLECT.items()
        },
        "place": {
            name: {"uses": dict(uses), "where": list(where)}
            for name, (uses, where) in _PLACE.items()
        },
        "make": {
            name: {"uses": dict(uses), "nearby": list(nearby), "gives": 1}
            for name, (uses, nearby) in _MAKE.items()
        },
    }


def achievement_requirements(rules: Mapping[str, Any] | None = None) -> dict[str, tuple[str, ...]]:
    """The achievements each achievement directly depends on.

    An item requirement is met by the achievement that yields the item (``wood`` by
    ``collect_wood``, ``wood_pickaxe`` by ``make_wood_pickaxe``); a nearby table or furnace
    by ``place_table`` / ``place_furnace``; eating a plant needs a planted sapling.

    Args:
        rules: ``collect``/``place``/``make`` tables shaped like ``crafter/data.yaml``
            (default: :func:`recipes`).
    """
    rules = rules if rules is not None else recipes()
    producer: dict[str, str] = {}
    for _material, info in rules["collect"].items():
        for item in info["receive"]:
            producer[item] = f"collect_{item}"
    for tool in rules["make"]:
        producer[tool] = f"make_{tool}"
    needs: dict[str, tuple[str, ...]] = {name: () for name in ACHIEVEMENTS}
    for _material, info in rules["collect"].items():
        for item in info["receive"]:
            needs[f"collect_{item}"] = tuple(producer[r] for r in info["require"])
    for name, info in rules["place"].items():
        needs[f"place_{name}"] = tuple(producer[u] for u in info["uses"])
    for name, info in rules["make"].items():
        needs[f"make_{name}"] = tuple(producer[u] for u in info["uses"]) + tuple(
            f"place_{n}" for n in info["nearby"]
        )
    needs["eat_plant"] = ("place_plant",)
    return {name: tuple(dict.fromkeys(reqs)) for name, reqs in needs.items()}


def derive_tech_tree_depth(rules: Mapping[str, Any] | None = None) -> dict[str, int]:
    """Depth of every achievement in the tech tree, counted from 0.

    An achievement with no prerequisite has depth 0; otherwise it is one more than its
    deepest prerequisite. With Crafter's rules ``collect_wood`` is 0, ``place_table`` 1,
    ``make_wood_pickaxe`` 2, ``collect_stone`` 3, ``make_stone_pickaxe`` 4,
    ``collect_iron`` 5, ``make_iron_pickaxe`` 6 and ``collect_diamond`` 7: the "tech tree of
    depth 7" of the SPRING paper, where Collect Iron sits at depth 5.
    """
    needs = achievement_requirements(rules)
    depth: dict[str, int] = {}

    def visit(name: str, path: tuple[str, ...]) -> int:
        if name in depth:
            return depth[name]
        if name in path:
            raise ValueError(f"achievement requirements form a cycle: {' -> '.join(path)}")
        reqs = needs[name]
        value = 0 if not reqs else 1 + max(visit(r, (*path, name)) for r in reqs)
        depth[name] = value
        return value

    for name in ACHIEVEMENTS:
        visit(name, ())
    return {name: depth[name] for name in ACHIEVEMENTS}


@lru_cache(maxsize=1)
def _depths() -> dict[str, int]:
    return derive_tech_tree_depth()


TECH_TREE_DEPTH: Mapping[str, int] = _depths()
"""Tech-tree depth of each achievement (see :func:`derive_tech_tree_depth`)."""

MAX_DEPTH: int = max(TECH_TREE_DEPTH.values())
