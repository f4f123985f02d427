"""EvoEmpirBench prompts for the maze and Match-2, as pure functions, and their answer parsers.

The structure follows the paper's Appendix B and the released agent; the wording is ours.

Maze: a system prompt (role, the map legend, priorities, the level's characteristics and a
slot for truths from memory) and a user prompt (the game state from the engine's
observation, the movement system and the twelve actions, the scoring table, the rules of
the level and the answer format ``Action: X``). The legend is the engine's
:data:`~langgraph_games.games.maze.render.LEGEND`, so prompt and map never disagree (the
released prompt and map did). The agent sees no dialogue history: each
decision is one system and one user message, as released.

Match-2: a system prompt with the rules, the props (left out in the NoProps variant) and
the JSON answer format, and a user prompt with the board and counters.

Truths (Agent-ExpVer's validated lessons) go into the system prompt as a numbered list;
``feedback`` (why the previous answer was refused) goes at the end of the user prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.match2 import Match2, Match2State
from langgraph_games.games.match2.render import parse_match2_answer
from langgraph_games.games.match2.rules import COSTS
from langgraph_games.games.maze import Maze, MazeState
from langgraph_games.games.maze.parsing import parse_maze_answer
from langgraph_games.games.maze.render import legend
from langgraph_games.games.maze.rules import ITEM_CHARS, Rewards, action_name
from langgraph_games.memory.hooks import format_truths

__all__ = [
    "Message",
    "is_refusal",
    "match2_messages",
    "match2_system_prompt",
    "match2_user_prompt",
    "maze_messages",
    "maze_system_prompt",
    "maze_user_prompt",
    "parse_match2_action",
    "parse_maze_action",
]

Message = tuple[str, str]
"""A chat message as ``(role, text)``; roles are ``"system"`` and ``"user"``."""

REFUSAL_MARKERS = ("sorry", "该请求")


def _truths_block(truths: Sequence[str]) -> str:
    return f"\n\n{format_truths(truths)}" if truths else ""


def _feedback_block(feedback: str | None) -> str:
    if not feedback:
        return ""
    return f"\n\nYour previous answer could not be used: {feedback}\nPlease answer again."


# ----- maze ---------------------------------------------------------------------------


def maze_system_prompt(game: Maze, truths: Sequence[str] = ()) -> str:
    """The maze agent's system prompt for ``game``'s level.

    Args:
        game: The maze engine (its options give the level, size and vision).
        truths: Lessons from memory, one per item.

    Example:
        >>> from langgraph_games.games import make
        >>> text = maze_system_prompt(make("maze", level=3), truths=["Avoid monsters."])
        >>> "N: magnet" in text, text.splitlines()[-1]
        (True, '1. Avoid monsters.')
    """
    level, size = game.options.level, game.size
    symbols = "\n".join(f"- {symbol}: {meaning}" for symbol, meaning in legend(level))
    traits = [f"- {size}x{size} grid"]
    if level == 1:
        traits.append("- No monsters")
    else:
        traits.append("- Two monsters (M) wander around; touching one costs a life")
    traits.append("- 5 coins to collect")
    if level == 3:
        traits.append(
            f"- Items: {ITEM_CHARS['shovel']} shovel (breaks walls, 3 uses), "
            f"{ITEM_CHARS['sword']} sword (defeats monsters), {ITEM_CHARS['magnet']} magnet "
            f"(pulls in coins up to 2 cells away), {ITEM_CHARS['key']} key (needed for the goal)"
        )
    if game.options.full_vision:
        traits.append("- You see the whole map from the start")
    else:
        traits.append("- You only see the cells around you; what you have seen stays on the map")
    return (
        "You are an agent finding your way through a maze. Move efficiently, collect "
        "rewards and stay out of danger.\n\n"
        f"Map symbols:\n{symbols}\n\n"
        "What matters, most important first:\n"
        "1. Stay alive (walls and monsters cost lives)\n"
        "2. Reach the goal\n"
        "3. Collect coins when it is safe\n"
        "4. Explore unknown cells efficiently\n"
        "5. Use few steps\n\n"
        "Each turn you get the current game state and choose one action from 0 to 11. "
        "Explain your reasoning before you decide.\n\n"
        f"Level {level}:\n" + "\n".join(traits) + _truths_block(truths)
    )


def maze_user_prompt(game: Maze, state: MazeState, feedback: str | None = None) -> str:
    """The maze agent's user prompt for ``state``.

    Args:
        game: The maze engine.
        state: The current state.
        feedback: Why the previous answer was refused, if it was.
    """
    level = game.options.level
    actions = "\n".join(f"- {a}: {action_name(a)}" for a in range(12))
    scoring = [
        f"- New cell explored: +{Rewards.NEW_CELL}",
        f"- Coin collected: +{Rewards.COIN}",
        f"- Every step: {Rewards.STEP}",
        f"- Life lost: {Rewards.LIFE_LOST}",
        f"- Goal reached: +{Rewards.GOAL}",
    ]
    rules = ["- Walking into a wall (#) costs a life and sends you back to the start"]
    if game.options.move_mode == "path_checked":
        # The paper: a wall costs a life if hit. The engine walks a 2- or 3-cell move cell
        # by cell, so a wall (or monster) anywhere on the way is hit.
        hazards = "wall" if level == 1 else "wall or monster"
        rules.append(
            "- A move of 2 or 3 steps walks through every cell on its way: a "
            f"{hazards} anywhere on the way is hit, which costs a life and sends you back to "
            "the start; coins on the way are collected"
        )
    else:
        rules.append(
            "- A move of 2 or 3 steps jumps straight to the target cell, over whatever lies between"
        )
    rules.append("- A move that would leave the grid does nothing but still costs a step")
    if level >= 2:
        rules.append(
            "- Touching a monster (M), or standing where it is about to move, costs a life "
            "and sends you back to the start"
        )
    if level == 3:
        scoring += [
            f"- Wall broken with the shovel: +{Rewards.WALL_BROKEN}",
            f"- Monster defeated with the sword: +{Rewards.KILL}",
            "- Items picked up: "
            + ", ".join(f"{name} +{value}" for name, value in Rewards.ITEM.items()),
        ]
        rules += [
            f"- You can only enter the goal once you hold the key ({ITEM_CHARS['key']})",
            f"- With the shovel ({ITEM_CHARS['shovel']}) walking into a wall breaks it "
            "instead (3 uses); a move stops on the wall it breaks",
            f"- With the sword ({ITEM_CHARS['sword']}) monsters no longer hurt you; you defeat "
            "them"
            + (
                "; a move stops where it defeats one"
                if game.options.move_mode == "path_checked"
                else ""
            ),
            f"- With the magnet ({ITEM_CHARS['magnet']}) you collect every coin within 2 cells "
            "(a 5x5 square) after each move",
        ]
    return (
        "Current Game State:\n"
        f"{game.observation(state, 0)}\n\n"
        "Movement:\n"
        "- Actions 0-2: move UP (row - 1) by 1/2/3 cells\n"
        "- Actions 3-5: move DOWN (row + 1) by 1/2/3 cells\n"
        "- Actions 6-8: move LEFT (col - 1) by 1/2/3 cells\n"
        "- Actions 9-11: move RIGHT (col + 1) by 1/2/3 cells\n\n"
        f"Actions:\n{actions}\n\n"
        "Scoring:\n" + "\n".join(scoring) + "\n\n"
        "Rules:\n" + "\n".join(rules) + "\n\n"
        "How to answer:\n"
        "1. Look at what you can see: explored cells, coins, items, walls and dangers.\n"
        "2. Weigh the moves you could make, especially what they reveal or collect.\n"
        '3. End with your choice written as "Action: X", X a number from 0 to 11 '
        '(for example "Action: 9" moves right by one cell).' + _feedback_block(feedback)
    )


def maze_messages(
    game: Maze, state: MazeState, truths: Sequence[str] = (), feedback: str | None = None
) -> list[Message]:
    """``[("system", ...), ("user", ...)]`` for one maze decision."""
    return [
        ("system", maze_system_prompt(game, truths)),
        ("user", maze_user_prompt(game, state, feedback)),
    ]


def is_refusal(text: str) -> bool:
    """Whether a reply reads as a refusal by the released client's test (case-sensitive).

    Example:
        >>> is_refusal("Sorry, I cannot help."), is_refusal("I am sorry. Action: 9")
        (False, True)
    """
    return any(marker in text for marker in REFUSAL_MARKERS)


def parse_maze_action(
    text: str, *, pick: Literal["first", "last"] = "first", detect_refusal: bool = False
) -> ParsedAnswer:
    """Read ``Action: X`` (and the released fallbacks) from a maze reply.

    Args:
        text: The model's reply.
        pick: ``"first"`` match of each pattern, as released, or ``"last"``.
        detect_refusal: Treat a reply containing "sorry" (case-sensitive) as a failed
            call, as the released client did (it then played a random move); off by
            default because polite replies with a valid action were thrown away.

    Returns:
        ``ParsedAnswer("0".."11")`` or ``ParsedAnswer(None, reason)``.

    Example:
        >>> parse_maze_action("Right is safe. Action: 9")
        ParsedAnswer(action='9', reason=None)
        >>> parse_maze_action("I am sorry, I cannot tell. Action: 9", detect_refusal=True).reason
        'the reply reads as a refusal (the released agent then moved at random)'
    """
    if detect_refusal and is_refusal(text):
        return ParsedAnswer(
            None, "the reply reads as a refusal (the released agent then moved at random)"
        )
    return parse_maze_answer(text, pick=pick)


# ----- Match-2 ------------------------------------------------------------------------


def match2_system_prompt(game: Match2, truths: Sequence[str] = ()) -> str:
    """The Match-2 agent's system prompt (props left out in the NoProps variant).

    Example:
        >>> from langgraph_games.games import make
        >>> "bomb" in match2_system_prompt(make("match2", props=False))
        False
    """
    props = game.options.props
    lines = [
        "You play a match game on an 8x8 board. Each cell holds a colour A, B, C or D.",
        "Rules:",
        "- Eliminate a group of 2 or more same-colour tiles connected horizontally or "
        "vertically; a group of n tiles scores n * 5 + 3 * max(0, n - 2).",
    ]
    if props:
        lines.append(
            "- Props (one of each, shown in the inventory) cost points and need at least "
            f"that score: row (clears a row, {COSTS['row']} points), col (clears a column, "
            f"{COSTS['col']} points), bomb (clears the 3x3 square around a cell, "
            f"{COSTS['bomb']} points), hammer (clears one tile, {COSTS['hammer']} points). "
            "Tiles cleared by props count toward the targets."
        )
    lines += [
        "- Every action uses one step.",
        "- After each action the tiles above fall down and new random tiles drop in from the top.",
        "Goal: meet every colour target (tiles of that colour eliminated) before the steps "
        "run out. Completing the level comes first; then score as much as you can and "
        "save steps.",
        "Input: the board (JSON rows, row 0 at the top), score, steps remaining, inventory, "
        "colour targets and current counts.",
        "Output: reason briefly, then give your action as JSON in a ```json block:",
    ]
    if props:
        lines.append(
            '{"action": {"type": "eliminate"|"row"|"col"|"bomb"|"hammer", "pos": [i, j], '
            '"index": k}} where pos (for eliminate, bomb, hammer) has 0 <= i, j < 8 and '
            "index (for row, col) has 0 <= k < 8."
        )
    else:
        lines.append('{"action": {"type": "eliminate", "pos": [i, j]}} with 0 <= i, j < 8.')
    lines.append('If no action is possible, answer {"action": null}.')
    return "\n".join(lines) + _truths_block(truths)


def match2_user_prompt(game: Match2, state: Match2State, feedback: str | None = None) -> str:
    """The Match-2 agent's user prompt for ``state``."""
    return (
        f"{game.observation(state, 0)}\n"
        "Choose the action that best completes the level with a high score and few steps."
        + _feedback_block(feedback)
    )


def match2_messages(
    game: Match2, state: Match2State, truths: Sequence[str] = (), feedback: str | None = None
) -> list[Message]:
    """``[("system", ...), ("user", ...)]`` for one Match-2 decision."""
    return [
        ("system", match2_system_prompt(game, truths)),
        ("user", match2_user_prompt(game, state, feedback)),
    ]


def parse_match2_action(
    text: str, *, require_fence: bool = False, pick: Literal["first", "last"] = "first"
) -> ParsedAnswer:
    """Read the JSON action of a Match-2 reply (see :func:`parse_match2_answer`).

    Example:
        >>> parse_match2_action('{"action": {"type": "bomb", "pos": [2, 5]}}')
        ParsedAnswer(action='bomb,2,5', reason=None)
        >>> parse_match2_action('{"action": {"type": "laser", "pos": [2, 5]}}').reason
        "unknown action type 'laser'; expected one of eliminate, row, col, bomb, hammer"
    """
    return parse_match2_answer(text, require_fence=require_fence, pick=pick)
