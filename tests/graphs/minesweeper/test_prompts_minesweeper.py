"""Minesweeper Agent prompts: the three parts, the cumulative variants, memory, parsing."""

from __future__ import annotations

import itertools

import pytest

from langgraph_games.games import GameSession
from langgraph_games.graphs.minesweeper.prompts import (
    VARIANT_LABELS,
    VARIANTS,
    PromptParts,
    Variant,
    memory_text,
    minesweeper_messages,
    minesweeper_prompt,
    parse_minesweeper_action,
)

BOARD = GameSession("minesweeper", seed=0).observe()


def test_prompt_is_before_board_after() -> None:
    text = minesweeper_prompt(BOARD, Variant.TIPS)
    before, after = text.split(BOARD)
    assert "Minesweeper" in before and before.rstrip().endswith("The board:")
    assert "Tips:" in before
    assert "action,row,col" in after and "Tips:" not in after
    assert minesweeper_messages(BOARD, Variant.TIPS) == [("user", text)]


def test_variants_are_cumulative_in_table1_order() -> None:
    order = list(Variant)
    assert [VARIANT_LABELS[v] for v in order] == [
        "Baseline",
        "+ Examples",
        "+ Step Back Prompting",
        "+ Tips and Tricks",
        "+ Memory",
    ]
    for smaller, larger in itertools.pairwise(order):
        a, b = VARIANTS[smaller], VARIANTS[larger]
        assert all(getattr(b, f) >= getattr(a, f) for f in ("examples", "step_back", "tips"))
    texts = {v: minesweeper_prompt(BOARD, v, previous="Prompt:\nold") for v in order}
    assert '"r,1,2"' not in texts[Variant.BASELINE]
    assert '"r,1,2"' in texts[Variant.EXAMPLES]
    assert "step back" in texts[Variant.STEP_BACK] and "step back" not in texts[Variant.EXAMPLES]
    assert "Tips:" in texts[Variant.TIPS] and "Tips:" not in texts[Variant.STEP_BACK]
    assert texts[Variant.MEMORY].startswith("Prompt:\nold")
    assert not texts[Variant.TIPS].startswith("Prompt:")


def test_parts_can_be_switched_alone() -> None:
    text = minesweeper_prompt(BOARD, PromptParts(tips=True))
    assert "Tips:" in text and '"r,1,2"' not in text and "step back" not in text


def test_memory_keeps_the_previous_step_as_released() -> None:
    entry = memory_text("P", "A: r,0,0", "safe")
    assert entry == "Prompt:\nP\nAnswer:\nA: r,0,0\n\nResult:\nsafe"
    text = minesweeper_prompt(BOARD, Variant.MEMORY, previous=entry)
    assert text.startswith(entry + "\n\n")
    assert minesweeper_prompt(BOARD, Variant.MEMORY) == minesweeper_prompt(
        BOARD, PromptParts(examples=True, step_back=True, tips=True)
    )


def test_the_stated_rules_match_the_game() -> None:
    paper = minesweeper_prompt(BOARD)
    assert "every mine is flagged and every cell without a mine is opened" in paper
    flags = minesweeper_prompt(BOARD, win_rule="flags")
    assert "flags sit exactly on the mines" in flags
    assert "quotation" not in paper  # the indices are printed as plain numbers (note M8)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: f,7,2", ("f,7,2", None)),
        ("r,1,2 no wait r,3,3", ("r,3,3", None)),
        ("r,10,1", (None, "invalid position, out of range.")),
        ("reveal the top-left", (None, "no (action,row,col) triple found")),
    ],
)
def test_parser(text: str, expected: tuple[str | None, str | None]) -> None:
    assert tuple(parse_minesweeper_action(text, 9, 9)) == expected
