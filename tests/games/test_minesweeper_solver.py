"""The Minesweeper logic solver: sound on 10,000 random boards, exact against brute force."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from langgraph_games.games.minesweeper.rules import flood_reveal, mine_counts
from langgraph_games.games.minesweeper.truth import analyse


def random_board(
    rng: random.Random, max_side: int = 9, max_mines: int = 12
) -> tuple[str, int, int, tuple[int, ...]]:
    """A mid-game view: a few seeded reveals (with their floods) and some flags, some wrong."""
    rows, cols = rng.randint(2, max_side), rng.randint(2, max_side)
    cells = rows * cols
    mines = tuple(sorted(rng.sample(range(cells), rng.randint(1, min(max_mines, cells - 1)))))
    view = "?" * cells
    for _ in range(rng.randint(1, 4)):
        safe = [i for i in range(cells) if i not in mines and view[i] == "?"]
        if not safe:
            break
        view = flood_reveal(view, rows, cols, mines, rng.choice(safe))
    covered = [i for i, ch in enumerate(view) if ch == "?"]
    for i in rng.sample(covered, min(len(covered), rng.randint(0, 3))):
        view = view[:i] + "F" + view[i + 1 :]
    return view, rows, cols, mines


def test_never_calls_a_mine_safe_on_10000_random_boards() -> None:
    rng = random.Random("solver-soundness")
    deductions = 0
    for _ in range(10_000):
        view, rows, cols, mines = random_board(rng)
        result = analyse(view, rows, cols, len(mines))
        assert result.consistent
        assert not result.safe & set(mines), (view, rows, cols, mines)
        assert result.mines <= set(mines), (view, rows, cols, mines)
        assert all(view[i] in "?F" for i in result.safe | result.mines)
        deductions += len(result.safe) + len(result.mines)
    assert deductions > 10_000  # the boards are not trivially empty of deductions


def brute_force(view: str, rows: int, cols: int, total: int) -> tuple[set[int], set[int], dict]:
    """Exact answer by trying every placement of the mines on the covered cells."""
    hidden = [i for i, ch in enumerate(view) if ch in "?F"]
    fits = []
    for placement in combinations(hidden, total):
        counts = mine_counts(rows, cols, tuple(sorted(placement)))
        if all(not ch.isdigit() or counts[i] == int(ch) for i, ch in enumerate(view)):
            fits.append(set(placement))
    safe = {i for i in hidden if all(i not in f for f in fits)}
    mined = {i for i in hidden if all(i in f for f in fits)}
    probability = {i: sum(i in f for f in fits) / len(fits) for i in hidden}
    return safe, mined, probability


def test_exact_against_brute_force_on_small_boards() -> None:
    rng = random.Random("solver-exact")
    checked = 0
    while checked < 400:
        view, rows, cols, mines = random_board(rng, max_side=4, max_mines=5)
        safe, mined, probability = brute_force(view, rows, cols, len(mines))
        result = analyse(view, rows, cols, len(mines))
        assert result.exact
        assert result.safe == safe and result.mines == mined, (view, rows, cols, mines)
        for cell, p in probability.items():
            assert result.probability[cell] == pytest.approx(p)
        checked += 1


def test_a_tiny_search_budget_stays_sound() -> None:
    rng = random.Random("solver-budget")
    inexact = 0
    for _ in range(2_000):
        view, rows, cols, mines = random_board(rng)
        result = analyse(view, rows, cols, len(mines), node_budget=3)
        assert not result.safe & set(mines)
        assert result.mines <= set(mines)
        inexact += not result.exact
    assert inexact > 100


def test_the_total_mine_count_is_used() -> None:
    # One mine, the 1 at (0,0) sees (0,1), (1,0), (1,1): the far cells are safe.
    view = "1????????"
    result = analyse(view, 3, 3, 1)
    assert result.safe == {2, 5, 6, 7, 8}
    assert result.probability[1] == pytest.approx(1 / 3)


def test_an_impossible_view_claims_nothing() -> None:
    result = analyse("4????????", 3, 3, 4)  # a corner has only three neighbours
    assert not result.consistent and not result.safe and not result.mines
    assert not analyse("1????????", 3, 3, 0).consistent  # no mine left for the 1
