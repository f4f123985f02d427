"""Surround: flood fill against brute force, collisions, ground truth, parsing, outcomes."""

from __future__ import annotations

import random

import pytest

from langgraph_games.games import GameSession, IllegalActionError
from langgraph_games.games.subproblems import score_answer
from langgraph_games.games.surround import Surround, SurroundState
from langgraph_games.games.surround.rules import COLS, ROWS, initial_grid, reachable


def grid_with(cells: dict[tuple[int, int], str], base: str | None = None) -> str:
    grid = list(base or initial_grid())
    for (r, c), code in cells.items():
        grid[r * COLS + c] = code
    return "".join(grid)


def components_by_relaxation(grid: str) -> list[int]:
    """Brute force: every empty cell starts as its own label; neighbours take the smaller
    label until nothing changes. Returns the label of every cell (-1 if not empty)."""
    labels = [i if ch == "0" else -1 for i, ch in enumerate(grid)]
    changed = True
    while changed:
        changed = False
        for i in range(ROWS * COLS):
            if labels[i] < 0:
                continue
            r, c = divmod(i, COLS)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < ROWS and 0 <= nc < COLS:
                    j = nr * COLS + nc
                    if labels[j] >= 0 and labels[j] < labels[i]:
                        labels[i] = labels[j]
                        changed = True
    return labels


def test_flood_fill_matches_brute_force_on_random_grids() -> None:
    rng = random.Random(0)
    for density in (0.2, 0.35, 0.45, 0.55):
        for _ in range(4):
            cells = {
                (r, c): "1"
                for r in range(1, ROWS - 1)
                for c in range(1, COLS - 1)
                if rng.random() < density
            }
            grid = grid_with(cells, base=grid_with({(10, 30): "0", (10, 10): "0"}))
            labels = components_by_relaxation(grid)
            sizes: dict[int, int] = {}
            for label in labels:
                if label >= 0:
                    sizes[label] = sizes.get(label, 0) + 1
            for i in rng.sample(range(ROWS * COLS), 120):
                start = divmod(i, COLS)
                expected = sizes[labels[i]] if labels[i] >= 0 else 0
                assert reachable(grid, start) == expected
                assert reachable(grid, start, limit=10) == min(expected, 10)


def state_with(grid: str, traces: tuple[tuple[tuple[int, int], ...], ...]) -> SurroundState:
    return SurroundState(
        seed=0,
        turn=len(traces[0]) - 1,
        grid=grid,
        traces=(traces[0], traces[1]),
        crashed=(False, False),
    )


def test_prompt_flood_fill_example_and_truth() -> None:
    # Our prompt's worked example: Player 1 (code 5) at (6,11) in a pocket of 3 cells.
    walls = {(r, c): "1" for r in range(4, 10) for c in range(8, 16)}
    pocket = {(6, 10): "0", (6, 12): "0", (7, 11): "0", (7, 12): "0", (6, 11): "5"}
    walls.update(pocket)
    walls.update({(r, 9): "0" for r in range(1, 19)})  # a corridor on the left of (6,10)
    walls[(6, 9)] = "0"
    grid = grid_with(walls)
    opponent = (15, 30)
    grid = grid_with({opponent: "3", (10, 30): "0", (10, 10): "0"}, base=grid)
    state = state_with(grid, (((6, 11),), (opponent,)))
    assert reachable(grid, (6, 12)) == 3
    truth = Surround().ground_truth(state, 0)
    assert truth[1] == (("down", 0), ("left", 0), ("right", 0), ("up", 1))
    assert truth[2] == frozenset({"MOVEDOWN", "MOVELEFT", "MOVERIGHT"})
    assert truth[3] == frozenset({"MOVERIGHTUNSAFE", "MOVEDOWNUNSAFE", "MOVELEFTSAFE"})
    game = Surround()
    mapping, valid, safe = game.subproblems
    assert score_answer(mapping, "Up 1, Down 0, Left 0, Right 0", truth[1]).correct
    assert score_answer(valid, "Move Down, Move Left, Move Right", truth[2]).correct
    assert not score_answer(valid, "Move Down, Move Left", truth[2]).correct
    partial = score_answer(safe, "Move Right Unsafe, Move Left Safe, Move Down Safe", truth[3])
    assert (partial.tp, partial.fp, partial.fn) == (2, 1, 1)
    assert score_answer(valid, "None", frozenset()).correct


def test_truth_at_the_start() -> None:
    game = Surround()
    state = game.initial_state(0)
    # Player 1 at (10,30): nothing around it yet; Player 2 at (10,10) likewise.
    assert game.ground_truth(state, 0)[1] == (("down", 0), ("left", 0), ("right", 0), ("up", 0))
    after = game.apply(state, {0: "Move Left", 1: "Move Right"})[0]
    truth = game.ground_truth(after, 0)
    assert dict(truth[1])["right"] == 4  # its own last position
    assert truth[2] == frozenset({"MOVEUP", "MOVEDOWN", "MOVELEFT"})


def test_moves_leave_walls_and_codes() -> None:
    game = Surround()
    session = GameSession(game, seed=0)
    for _ in range(3):
        session.step({0: "Move Left", 1: "Move Right"})
    grid = session.state.grid
    assert grid[10 * COLS + 27] == "5" and grid[10 * COLS + 28] == "4"
    assert grid[10 * COLS + 29] == "1" and grid[10 * COLS + 30] == "1"
    assert grid[10 * COLS + 13] == "3" and grid[10 * COLS + 12] == "2"
    assert session.state.traces[0] == ((10, 30), (10, 29), (10, 28), (10, 27))
    text = game.observation(session.state, 0)
    assert "Your moving trace:\n(10,30)->(10,29)->(10,28)->(10,27)" in text
    assert "(10,27):5 (10,28):4 (10,29):1" in text
    assert text.count("):") == ROWS * COLS


def test_head_on_and_same_cell_collisions_draw() -> None:
    game = Surround()
    # Heads two apart: both step into the middle cell.
    grid = grid_with({(10, 30): "0", (10, 10): "0", (5, 5): "5", (5, 7): "3"})
    state = state_with(grid, (((5, 5),), ((5, 7),)))
    after, events = game.apply(state, {0: "Move Right", 1: "Move Left"})
    assert after.crashed == (True, True) and game.returns(after) == (0.0, 0.0)
    assert {"type": "draw"} in events
    # Heads side by side: a head-on swap crashes both.
    grid = grid_with({(10, 30): "0", (10, 10): "0", (5, 5): "5", (5, 6): "3"})
    state = state_with(grid, (((5, 5),), ((5, 6),)))
    after, _ = game.apply(state, {0: "Move Right", 1: "Move Left"})
    assert after.crashed == (True, True)


def test_lone_crash_loses_and_chasing_a_tail_crashes() -> None:
    game = Surround()
    # Player 2 runs into the cell Player 1 leaves in the same step: that cell becomes trail.
    grid = grid_with({(10, 30): "0", (10, 10): "0", (5, 5): "5", (5, 4): "3"})
    state = state_with(grid, (((5, 5),), ((5, 4),)))
    after, events = game.apply(state, {0: "Move Right", 1: "Move Right"})
    assert after.crashed == (False, True)
    assert game.returns(after) == (1.0, -1.0)
    assert [r / game.return_scale for r in game.returns(after)] == [1.0, -1.0]
    assert {"type": "win", "player": 0} in events
    # Turning back into one's own last cell is a crash.
    session = GameSession(game, seed=0)
    session.step({0: "Move Left", 1: "Move Up"})
    session.step({0: "Move Right", 1: "Move Up"})
    assert session.done and session.returns == (-1.0, 1.0)


def test_scripted_match_into_the_border() -> None:
    game = Surround()
    session = GameSession(game, seed=0)
    # Player 1 heads up from row 10: row 1 after 9 moves, the border wall on the 10th.
    # Player 2 heads right along row 10 and is still free.
    while not session.done:
        session.step({0: "Move Up", 1: "Move Right"})
    assert len(session.actions) == 10
    assert session.state.crashed == (True, False)
    assert session.state.traces[0][-1] == (1, 30) and session.state.traces[1][-1] == (10, 20)
    assert [r / game.return_scale for r in session.returns] == [-1.0, 1.0]


def test_parse_and_fallback() -> None:
    game = Surround()
    state = game.initial_state(0)
    assert game.parse_action(state, 0, "... 5. **Chosen Action**\nMove Down") == "Move Down"
    assert game.parse_action(state, 0, "Chosen Action: move left") == "Move Left"
    assert game.parse_action(state, 0, "I would go up") is None
    rng = random.Random(0)
    assert game.fallback_action(state, 0, rng) == "Move Left"  # each starts facing the other
    assert game.fallback_action(state, 1, rng) == "Move Right"
    after = game.apply(state, {0: "Move Up", 1: "Move Down"})[0]
    assert game.fallback_action(after, 0, rng) == "Move Up"


def test_bad_input() -> None:
    game = Surround()
    state = game.initial_state(0)
    with pytest.raises(IllegalActionError, match="Legal actions: Move Down, Move Left"):
        game.apply(state, {0: "Move Diagonal", 1: "Move Up"})
    with pytest.raises(IllegalActionError, match="gave no action"):
        game.apply(state, {1: "Move Up"})
