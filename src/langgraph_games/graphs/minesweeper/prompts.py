"""Minesweeper Agent prompts: prompt before, board, prompt after, and the paper's variants.

One decision is one user message: the *prompt before* (the rules, and with +Tips a list of
tips), the board (the engine's observation), and the *prompt after* (the answer format,
with +Step-back an instruction to step back and reason first, with +Examples two example
answers). With +Memory the previous step (its prompt, answer and feedback) is put in
front, as the released agent did; nothing older is kept.

The variants of the paper's Table 1 are read as cumulative, in the table's order:
Baseline, +Examples, +Step-back, +Tips, +Memory (each adds its part to the previous row).
:class:`PromptParts` switches each part on its own for other ablations.

The wording is ours. Two corrections to the released prompt: the board's indices are
plain numbers (the released text said they were in double quotes), and
the stated win condition is the game's (flag every mine and open every safe cell under
the paper's rule; the released prompt only asked to open the safe cells).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.minesweeper.render import parse_triple
from langgraph_games.memory.hooks import format_truths

__all__ = [
    "VARIANTS",
    "VARIANT_LABELS",
    "Message",
    "PromptParts",
    "Variant",
    "memory_text",
    "minesweeper_messages",
    "minesweeper_prompt",
    "parse_minesweeper_action",
    "prompt_after",
    "prompt_before",
]

Message = tuple[str, str]
"""A chat message as ``(role, text)``."""


class Variant(str, Enum):
    """The prompt designs of the paper's Table 1."""

    BASELINE = "baseline"
    EXAMPLES = "examples"
    STEP_BACK = "step_back"
    TIPS = "tips"
    MEMORY = "memory"


@dataclass(frozen=True)
class PromptParts:
    """Which optional parts a prompt carries.

    ``report_cells`` is ours, not the paper's: it asks the model to list, before its
    answer, the cells it is sure are safe and sure are mines, in GAMEBoT's
    ``[Intermediate Thinking Results k: ...]`` lines, so each step's reasoning can be
    scored against the logic solver (the game's subproblems 1 and 2).
    """

    examples: bool = False
    step_back: bool = False
    tips: bool = False
    memory: bool = False
    report_cells: bool = False


VARIANTS: dict[Variant, PromptParts] = {
    Variant.BASELINE: PromptParts(),
    Variant.EXAMPLES: PromptParts(examples=True),
    Variant.STEP_BACK: PromptParts(examples=True, step_back=True),
    Variant.TIPS: PromptParts(examples=True, step_back=True, tips=True),
    Variant.MEMORY: PromptParts(examples=True, step_back=True, tips=True, memory=True),
}
"""The cumulative parts of each Table 1 row."""

VARIANT_LABELS = {
    Variant.BASELINE: "Baseline",
    Variant.EXAMPLES: "+ Examples",
    Variant.STEP_BACK: "+ Step Back Prompting",
    Variant.TIPS: "+ Tips and Tricks",
    Variant.MEMORY: "+ Memory",
}
"""Row labels as Table 1 prints them."""

_TIPS = (
    "Open a corner first: it has the fewest neighbours, so it is the likeliest to open a "
    "larger area.",
    "Read every number: it counts the mines among the eight cells around it, diagonals included.",
    "If a number already touches as many flags as its value, its other covered neighbours "
    "are safe to open.",
    "If a number has exactly as many covered neighbours as its value, all of them are mines.",
    "Compare neighbouring numbers: the cells one number sees and the other does not often "
    "settle which cells hold the mines.",
    "Flag a mine as soon as you are sure of it, so you do not open it by mistake.",
    "Watch the count of mines left: near the end it can decide the last cells.",
    "Do not repeat an operation that was already reported as invalid.",
    "When no cell is certain, open the one least likely to hold a mine.",
)


def prompt_before(
    parts: PromptParts,
    win_rule: Literal["paper", "flags"] = "paper",
    truths: Sequence[str] = (),
) -> str:
    """The rules (tips, and lessons from memory when given), ending with the board lead-in."""
    if win_rule == "paper":
        win = "You win when every mine is flagged and every cell without a mine is opened."
    else:
        win = "You win when your flags sit exactly on the mines."
    lines = [
        "You are playing Minesweeper. Mines are hidden under some cells of the board.",
        "The board is printed row by row, with the cells of a row separated by spaces. "
        "The numbers along the top and down the left are the column and row indices.",
        "A cell shows one of:",
        "- ? : a covered cell (every cell starts covered; removing a flag covers it again)",
        "- 0 to 8 : an opened cell, giving the number of mines among its eight neighbours "
        "(diagonals included)",
        "- F : a flag you placed where you believe a mine is",
        "Opening a cell with a mine loses the game. Opening a 0 also opens all its "
        "neighbours automatically.",
        win,
    ]
    if parts.tips:
        lines += ["", "Tips:"] + [f"- {tip}" for tip in _TIPS]
    if truths:
        lines += ["", format_truths(truths)]
    lines += ["", "The board:"]
    return "\n".join(lines)


def prompt_after(parts: PromptParts) -> str:
    """The answer format (with the step-back instruction and examples when enabled)."""
    lines = []
    if parts.step_back:
        lines.append(
            "Take a step back and think about what the numbers tell you. Explain your "
            "reasoning first, then give your answer."
        )
    if parts.report_cells:
        lines += [
            "Before your answer, write the cells you are certain about on two lines:",
            "[Intermediate Thinking Results 1: (row,col), (row,col), ...] for covered "
            "cells that certainly hold no mine,",
            "[Intermediate Thinking Results 2: (row,col), (row,col), ...] for covered "
            "cells that certainly hold a mine,",
            "writing None on a line when you are certain of no such cell.",
        ]
    lines += [
        "Answer with one operation written as a triple action,row,col:",
        '- action is "r" to reveal (open) a cell or "f" to flag it (or remove its flag);',
        "- row and col are the indices of the cell, (0,0) being the top-left corner.",
        "Give exactly one operation, without spaces, and choose a covered cell.",
    ]
    if parts.examples:
        lines.append(
            'For example, "r,1,2" opens the cell at row 1, column 2, and "f,3,4" flags the '
            "cell at row 3, column 4 (or removes the flag if it already has one)."
        )
    return "\n".join(lines)


def memory_text(prompt: str, answer: str, result: str) -> str:
    """One remembered step as the released agent wrote it: prompt, answer and result."""
    return f"Prompt:\n{prompt}\nAnswer:\n{answer}\n\nResult:\n{result}"


def minesweeper_prompt(
    board: str,
    variant: Variant | PromptParts = Variant.BASELINE,
    previous: str | None = None,
    win_rule: Literal["paper", "flags"] = "paper",
    *,
    truths: Sequence[str] = (),
    feedback: str | None = None,
) -> str:
    """The whole user message for one decision.

    Args:
        board: The engine's observation (indexed board and summary lines).
        variant: A Table 1 variant or explicit parts.
        previous: The previous step from :func:`memory_text`, used only with memory.
        win_rule: The game's win rule, stated in the rules.
        truths: Lessons from memory (none in the paper), listed after the rules.
        feedback: Why the previous answer at this step was refused, when the loop asks
            again (the paper's loop never does; its feedback reaches the model only
            through memory).

    Example:
        >>> text = minesweeper_prompt("<board>", Variant.EXAMPLES)
        >>> text.count("<board>"), '"r,1,2"' in text, "Tips:" in text
        (1, True, False)
    """
    parts = VARIANTS[variant] if isinstance(variant, Variant) else variant
    prompt = f"{prompt_before(parts, win_rule, truths)}\n{board}\n\n{prompt_after(parts)}"
    if feedback:
        prompt += f"\n\nYour previous answer could not be used: {feedback}\nPlease answer again."
    if parts.memory and previous:
        return f"{previous}\n\n{prompt}"
    return prompt


def minesweeper_messages(
    board: str,
    variant: Variant | PromptParts = Variant.BASELINE,
    previous: str | None = None,
    win_rule: Literal["paper", "flags"] = "paper",
    *,
    truths: Sequence[str] = (),
    feedback: str | None = None,
) -> list[Message]:
    """``[("user", prompt)]``: the released agent sent each turn as one user message."""
    text = minesweeper_prompt(board, variant, previous, win_rule, truths=truths, feedback=feedback)
    return [("user", text)]


def parse_minesweeper_action(text: str, rows: int, cols: int) -> ParsedAnswer:
    """The last ``r,row,col`` / ``f,row,col`` triple in ``text`` (the paper's parser).

    Example:
        >>> parse_minesweeper_action("(7,5) must be a mine, so f,7,5", 9, 9)
        ParsedAnswer(action='f,7,5', reason=None)
        >>> parse_minesweeper_action("I would reveal the corner.", 9, 9).reason
        'no (action,row,col) triple found'
    """
    return parse_triple(text, rows, cols)
