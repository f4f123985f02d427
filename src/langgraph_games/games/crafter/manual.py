"""A Crafter manual written from the package's rules, for the study graph and as context.

SPRING read the LaTeX source of the Crafter paper; that text cannot be shipped, so the
default document is this one: a few paragraphs on how the game works, in our words, and
the actions, materials and achievements with their requirements generated from the
recipe tables (:mod:`langgraph_games.games.crafter.data`, checked against
``crafter/data.yaml``). Any other document works with the study graph too.
"""

from __future__ import annotations

from langgraph_games.games.crafter.data import (
    ACHIEVEMENTS,
    ACTION_NAMES,
    TECH_TREE_DEPTH,
    achievement_requirements,
    recipes,
)

__all__ = ["action_descriptions", "crafter_manual"]

_OVERVIEW = (
    "Crafter is a survival game on a 64 by 64 grid of terrain that is generated anew for "
    "every episode. You see the cells around you, the objects and creatures on them, and "
    "your inventory. The goal is to unlock as many of the 22 achievements as possible, such "
    "as collecting wood, making a pickaxe or defeating a zombie, while staying alive."
)
_VITALS = (
    "You have four vital statistics, each from 0 to 9: health, food, drink and energy. Food "
    "and drink fall slowly over time and energy falls while you are awake. Eat a cow or a "
    "ripe plant to restore food, face water and interact with it to drink, and sleep to "
    "restore energy. While food, drink and energy are all above zero your health recovers "
    "slowly; when any of them reaches zero your health drops instead. When health reaches "
    "zero the episode ends."
)
_DANGERS = (
    "Zombies appear on grassland, far more often at night, walk towards you and hurt you when "
    "they are next to you, badly so while you sleep. Skeletons live in the dark tunnels of "
    "caves and shoot arrows. Walking into lava is deadly. A day lasts 300 steps and the "
    "night is dark and dangerous, so sleeping in an enclosed spot (for example surrounded by "
    "placed stone) is safer. You can fight creatures by facing them and interacting; swords "
    "make you stronger."
)
_INTERACTION = (
    "You always face one of the four neighbouring cells: moving turns you towards the "
    "direction of the move, and if the cell there is free grass, sand or path you step "
    "onto it. The Do action interacts with the cell you face: it collects a material, "
    "attacks a creature, drinks water or eats a ripe plant. Tools are made with the Make "
    "actions while a crafting table (and for iron tools also a furnace) is nearby, and "
    "tables, furnaces, stones and saplings are put on the cell you face with the Place "
    "actions. An action whose requirements are not met does nothing."
)

_MOVE = {
    "Move West": "west",
    "Move East": "east",
    "Move North": "north",
    "Move South": "south",
}


def _items(amounts: dict[str, int]) -> str:
    return " and ".join(f"{n} {item.replace('_', ' ')}" for item, n in amounts.items())


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun.replace('_', ' ')}"


def action_descriptions() -> dict[str, str]:
    """One sentence per action (what it does and what it needs), from the recipe tables.

    Example:
        >>> action_descriptions()["Make Wood Pickaxe"]
        'Make a wood pickaxe; uses 1 wood; needs a nearby table.'
    """
    rules = recipes()
    out: dict[str, str] = {}
    for name in ACTION_NAMES:
        if name == "Noop":
            out[name] = "Do nothing for one step."
        elif name in _MOVE:
            way = _MOVE[name]
            out[name] = f"Turn {way} and step {way} if that cell is free grass, sand or path."
        elif name == "Do":
            out[name] = (
                "Interact with the facing cell: collect its material (if you have the "
                "tool it needs), attack the creature there, drink water or eat a ripe plant."
            )
        elif name == "Sleep":
            out[name] = "Sleep until your energy is full; you wake up early if you get hurt."
        elif name.startswith("Place "):
            thing = name.split(" ", 1)[1].lower()
            uses, where = rules["place"][thing]["uses"], rules["place"][thing]["where"]
            out[name] = (
                f"Place a {thing} on the facing cell; uses {_items(uses)}; "
                f"the cell must be {', '.join(where[:-1])} or {where[-1]}."
                if len(where) > 1
                else f"Place a {thing} on the facing cell; uses {_items(uses)}; "
                f"the cell must be {where[0]}."
            )
        else:
            tool = name.split(" ", 1)[1].lower().replace(" ", "_")
            info = rules["make"][tool]
            nearby = " and a nearby ".join(info["nearby"])
            out[name] = f"Make {_a(tool)}; uses {_items(info['uses'])}; needs a nearby {nearby}."
    return out


def _collect_lines() -> list[str]:
    lines = []
    for material, info in recipes()["collect"].items():
        gets = _items(info["receive"])
        needs = " and ".join(_a(t) for t in info["require"]) or "nothing"
        chance = " (not every time)" if material == "grass" else ""
        lines.append(f"- {material}: gives {gets}{chance}; needs {needs}.")
    return lines


def _achievement_lines() -> list[str]:
    needs = achievement_requirements()
    lines = []
    for name in sorted(ACHIEVEMENTS, key=lambda n: (TECH_TREE_DEPTH[n], n)):
        reqs = ", ".join(needs[name]) or "nothing"
        lines.append(f"- {name} (depth {TECH_TREE_DEPTH[name]}): first requires {reqs}.")
    return lines


def crafter_manual() -> str:
    """The default Crafter document, in Markdown (paragraphs separated by blank lines)."""
    actions = action_descriptions()
    sections = [
        "# Crafter",
        _OVERVIEW,
        "## Survival",
        _VITALS,
        _DANGERS,
        "## Interacting with the world",
        _INTERACTION,
        "## Actions",
        "There are 17 actions:\n" + "\n".join(f"- {n}: {actions[n]}" for n in ACTION_NAMES),
        "## Materials",
        "Facing a material and using Do collects it:\n" + "\n".join(_collect_lines()),
        "## Achievements",
        "Each achievement counts once per episode. The depth is its level in the technology "
        "tree and the requirements are the achievements that must come first:\n"
        + "\n".join(_achievement_lines()),
    ]
    return "\n\n".join(sections) + "\n"
