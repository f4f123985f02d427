"""Messenger manuals, written for this project.

A manual has the game's objective, one sentence per role (enemy, message, goal) that
names the entity by a synonym and, on level 2, hints at how it moves, an advice
paragraph, and the action list. The released environment draws its sentences from
crowd-sourced descriptions; ours come from the templates below, chosen from the seed.
On level 1 the sentences say nothing about movement or call the entity still (the
released level 1 also drew from its "immovable" and "unknown" sentences).
"""

from __future__ import annotations

from langgraph_games.games.smartplay.messenger.rules import MessengerState
from langgraph_games.games.state import derive_rng

__all__ = ["ADVICE", "CONTEXT", "SYNONYMS", "manual_lines", "manual_text"]

CONTEXT = (
    "In MESSENGER every entity plays one of three roles: enemy, message or goal. Your job is "
    "to pick up the message and carry it to the goal while staying away from the enemy. "
    "Running into the enemy at any time, or reaching the goal before you hold the message, "
    "loses the game with a reward of -1."
)

ADVICE = (
    "Advice: start by listing the objects you can see. Match each of them with one of the "
    "descriptions above and decide whether touching it helps or hurts you. The descriptions "
    "may call an object by another name, so look for synonyms."
)

SYNONYMS: dict[str, tuple[str, ...]] = {
    "airplane": ("airplane", "plane", "jet", "aircraft"),
    "mage": ("mage", "wizard", "sorcerer", "magician"),
    "dog": ("dog", "hound", "canine", "puppy"),
    "bird": ("bird", "eagle", "hawk", "sparrow"),
    "fish": ("fish", "shark", "salmon", "trout"),
    "scientist": ("scientist", "researcher", "chemist", "professor"),
    "thief": ("thief", "robber", "burglar", "crook"),
    "ship": ("ship", "boat", "vessel", "sailboat"),
    "ball": ("ball", "sphere", "orb", "globe"),
    "robot": ("robot", "android", "machine", "automaton"),
    "queen": ("queen", "monarch", "empress", "ruler"),
    "sword": ("sword", "blade", "saber", "katana"),
}

# TEMPLATES[role][movement]: sentences with {e} for the entity's name.
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "enemy": {
        "chaser": (
            "the {e} is heading your way, and it is a deadly enemy.",
            "watch out for the {e} closing in on you: it is the enemy.",
            "a lethal foe keeps coming after you, and it is the {e}.",
        ),
        "fleeing": (
            "the {e} keeps running away from you, yet it is a dangerous enemy.",
            "the deadly adversary is the {e} that escapes from you.",
            "the fleeing {e} is your foe.",
        ),
        "immovable": (
            "the {e} stays in one place and is deadly to touch.",
            "the enemy is the {e}, which never moves.",
            "a dangerous foe waits without moving: the {e}.",
        ),
        "unknown": (
            "the {e} is the enemy, so keep away from it.",
            "the {e} is a deadly opponent.",
        ),
    },
    "message": {
        "chaser": (
            "the {e} coming toward you carries the secret message.",
            "the classified note is with the {e}, which approaches you.",
            "the {e} that follows you has the document you need.",
        ),
        "fleeing": (
            "the {e} holding the secret document tries to get away from you.",
            "the message is carried by the {e} that runs from you.",
            "the runaway {e} has the classified note.",
        ),
        "immovable": (
            "the {e} that stays still holds the secret message.",
            "you can collect the classified document from the motionless {e}.",
            "the message sits with the {e}, which does not move.",
        ),
        "unknown": (
            "the {e} has the message you need.",
            "the secret document is with the {e}.",
        ),
    },
    "goal": {
        "chaser": (
            "the {e} moving toward you is the goal you must reach.",
            "the crucial target, the {e}, comes in your direction.",
            "the {e} that approaches you is where the message must go.",
        ),
        "fleeing": (
            "the {e} that flees from you is the goal.",
            "deliver the message to the {e}, the target that keeps running away.",
            "the vital objective is the {e}, and it escapes from you.",
        ),
        "immovable": (
            "the goal is the {e}, which does not move.",
            "the stationary {e} is where the message has to go.",
            "bring the message to the {e}; it never leaves its place.",
        ),
        "unknown": (
            "the {e} is the goal.",
            "bring the message to the {e}; it is the objective.",
        ),
    },
}

ROLES = ("enemy", "message", "goal")


def manual_lines(state: MessengerState) -> tuple[str, ...]:
    """One sentence per role, in an order shuffled from the seed."""
    rng = derive_rng(state.seed, "messenger-manual")
    names = (state.enemy, state.message, state.goal)
    lines = []
    for role, name, movement in zip(ROLES, names, state.movement, strict=True):
        kinds = ("immovable", "unknown") if state.level == 1 else (movement,)
        pool = [t for kind in kinds for t in TEMPLATES[role][kind]]
        sentence = rng.choice(pool).format(e=rng.choice(SYNONYMS[name]))
        lines.append(sentence)
    rng.shuffle(lines)
    return tuple(lines)


def manual_text(state: MessengerState) -> str:
    """Objective, the role sentences and the advice (the action list is added by the game)."""
    return f"{CONTEXT}\n\n" + "\n".join(manual_lines(state)) + f"\n\n{ADVICE}"
