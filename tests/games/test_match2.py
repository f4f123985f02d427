"""EvoEmpirBench Match-2: scoring, gravity and seeded refills, props, ends, parsing, levels."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from langgraph_games.games import GameSession, IllegalActionError, OptionError, make
from langgraph_games.games.match2 import Match2
from langgraph_games.games.match2.levels import DIFFICULTIES, LEVEL_SETS, fixed_level
from langgraph_games.games.match2.render import parse_match2_answer
from langgraph_games.games.match2.rules import Match2State, elimination_score, groups

# A board with no two same-coloured neighbours except where a test paints them.
CHECKER = "".join("ABCD"[(r + 2 * c) % 4] for r in range(8) for c in range(8))


def board_with(paint: dict[tuple[int, int], str], base: str = CHECKER) -> str:
    cells = list(base)
    for (r, c), colour in paint.items():
        cells[r * 8 + c] = colour
    return "".join(cells)


def state_of(board: str, **fields: object) -> Match2State:
    values: dict[str, object] = {
        "seed": 7,
        "turn": 0,
        "level_id": "hand",
        "board": board,
        "score": 0,
        "steps_left": 10,
        "max_steps": 10,
        "inventory": (1, 1, 1, 1),
        "targets": (20, 20, 20, 20),
        "counts": (0, 0, 0, 0),
        "cleared": 0,
        "invalid_steps": 0,
        "outcome": "",
    }
    values.update(fields)
    return Match2State(**values)  # type: ignore[arg-type]


def test_checker_base_has_no_group() -> None:
    assert all(len(g) == 1 for g in groups(CHECKER))


@pytest.mark.parametrize(("n", "points"), [(2, 10), (3, 18), (4, 26), (5, 34), (8, 58)])
def test_elimination_score_formula(n: int, points: int) -> None:
    # The paper's trace: 3 tiles score 18, 5 tiles score 34.
    assert elimination_score(n) == points


def test_elimination_scores_counts_and_applies_gravity() -> None:
    # A vertical pair of D at the bottom of column 0 (rows 6 and 7).
    board = board_with({(6, 0): "D", (7, 0): "D"})
    game = Match2()
    state = state_of(board)
    assert "eliminate,7,0" in game.legal_actions(state, 0)
    after, events = game.apply(state, {0: "eliminate,7,0"})
    assert after.score == 10 and after.counts == (0, 0, 0, 2) and after.cleared == 2
    assert after.steps_left == 9
    assert events[0] == {"type": "eliminate", "tiles": 2, "points": 10}
    column = [after.board[r * 8] for r in range(8)]
    old = [board[r * 8] for r in range(8)]
    assert column[2:] == old[:6]  # the six tiles above fell two rows
    assert all(after.board[r * 8 + c] == board[r * 8 + c] for r in range(8) for c in range(1, 8))
    again, _ = game.apply(state, {0: "eliminate,6,0"})
    assert again.board == after.board  # refills are seeded by (seed, turn), any group cell
    other, _ = game.apply(dataclasses.replace(state, seed=8), {0: "eliminate,7,0"})
    assert other.board[2:] == after.board[2:]


def test_single_tiles_cannot_be_eliminated_and_say_why() -> None:
    game = Match2()
    state = state_of(CHECKER)
    with pytest.raises(IllegalActionError, match="no same-colour neighbour"):
        game.apply(state, {0: "eliminate,3,3"})


def test_props_cost_score_and_count_toward_targets() -> None:
    game = Match2()
    poor = state_of(CHECKER, score=31)
    legal = game.legal_actions(poor, 0)
    assert "bomb,0,0" in legal and "hammer,0,0" in legal and "row,0" not in legal
    with pytest.raises(IllegalActionError, match="costs 32 points and the score is 31"):
        game.apply(poor, {0: "row,0"})
    rich = state_of(CHECKER, score=40)
    after, events = game.apply(rich, {0: "row,3"})
    assert after.score == 8 and after.inventory == (0, 1, 1, 1)
    assert sum(after.counts) == 8 and after.cleared == 8
    assert events[0] == {"type": "row", "tiles": 8, "cost": 32}
    with pytest.raises(IllegalActionError, match="no row prop left"):
        game.apply(after, {0: "row,3"})
    corner, _ = game.apply(rich, {0: "bomb,0,0"})
    assert corner.score == 28 and corner.cleared == 4  # the 3x3 square is clipped
    hammered, _ = game.apply(rich, {0: "hammer,5,5"})
    assert hammered.score == 36 and hammered.cleared == 1
    column, _ = game.apply(rich, {0: "col,7"})
    assert column.cleared == 8


def test_out_of_range_props_are_refused_before_any_charge() -> None:
    game = Match2()
    rich = state_of(CHECKER, score=100)
    for action in ("row,8", "col,9", "bomb,8,0", "hammer,0,8", "row,-1", "laser,1,1"):
        with pytest.raises(IllegalActionError):
            game.apply(rich, {0: action})
    assert game.parse_action(rich, 0, '{"action": {"type": "row", "index": 8}}') is None


def test_no_props_variant() -> None:
    game = Match2(props=False)
    state = game.initial_state(3)
    assert state.inventory == (0, 0, 0, 0)
    assert all(a.startswith("eliminate") for a in game.legal_actions(state, 0))
    rich = dataclasses.replace(state, score=100)
    with pytest.raises(IllegalActionError, match="props are disabled"):
        game.apply(rich, {0: "hammer,0,0"})
    assert "Inventory: none" in game.observation(state, 0)


def test_meeting_the_targets_on_the_last_step_is_a_success() -> None:
    board = board_with({(6, 0): "D", (7, 0): "D"})
    game = Match2()
    state = state_of(board, steps_left=1, targets=(0, 0, 0, 2))
    after, events = game.apply(state, {0: "eliminate,7,0"})
    assert after.outcome == "cleared" and after.steps_left == 0 and game.success(after)
    assert events[-1] == {"type": "end", "outcome": "cleared"}


def test_running_out_of_steps_is_a_failure() -> None:
    board = board_with({(6, 0): "D", (7, 0): "D"})
    game = Match2()
    after, _ = game.apply(state_of(board, steps_left=1), {0: "eliminate,7,0"})
    assert after.outcome == "out_of_steps" and not game.success(after)
    assert game.is_terminal(after) and game.current_players(after) == ()


def test_a_board_nothing_can_change_ends_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import langgraph_games.games.match2 as match2_module

    monkeypatch.setattr(match2_module, "drop_and_refill", lambda *args: CHECKER)
    board = board_with({(6, 0): "D", (7, 0): "D"})
    after, _ = Match2().apply(state_of(board, inventory=(0, 0, 0, 0)), {0: "eliminate,7,0"})
    assert after.outcome == "stuck"
    # With a prop still affordable the board can change, so the game goes on.
    alive, _ = Match2().apply(state_of(board), {0: "eliminate,7,0"})
    assert alive.outcome == ""


def test_invalid_answers_can_spend_a_step() -> None:
    game = Match2(invalid_moves="step")
    state = state_of(CHECKER)
    assert "invalid" in game.legal_actions(state, 0)
    assert game.parse_action(state, 0, '{"action": {"type": "eliminate", "pos": [3, 3]}}') == (
        "invalid"
    )
    assert game.parse_action(state, 0, "no json here") is None
    assert game.fallback_action(state, 0, __import__("random").Random(0)) == "invalid"
    after, events = game.apply(state, {0: "invalid"})
    assert after.steps_left == 9 and after.invalid_steps == 1 and after.board == state.board
    assert events[0] == {"type": "invalid"}
    with pytest.raises(IllegalActionError):
        Match2().apply(state, {0: "invalid"})


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ('```json\n{"action": {"type": "eliminate", "pos": [4, 3]}}\n```', "eliminate,4,3"),
        ('Best: {"action": {"type": "eliminate", "pos": [0,3]}} done', "eliminate,0,3"),
        ('```json\n{"action": {"type": "col", "index": 2}}\n```', "col,2"),
        ('{"action": {"type": "bomb", "pos": [7, 7], "index": null}}', "bomb,7,7"),
        (
            '{"action": {"type": "hammer", "pos": [0, 0]}} or {"action": {"type": "row", '
            '"index": 1}}',
            "hammer,0,0",
        ),
    ],
)
def test_json_answers(text: str, action: str) -> None:
    assert parse_match2_answer(text).action == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("```json\n{action: eliminate}\n```", "not valid JSON"),
        ("I would eliminate the big group.", 'no JSON object with an "action" key'),
        ('{"action": null}', "declined"),
        ('{"action": "eliminate"}', "object or null"),
        ('{"action": {"type": "laser", "pos": [1, 1]}}', "unknown action type 'laser'"),
        ('{"action": {"type": "eliminate", "pos": [8, 1]}}', "pos must be"),
        ('{"action": {"type": "eliminate", "pos": ["1", "1"]}}', "pos must be"),
        ('{"action": {"type": "eliminate", "pos": [true, 1]}}', "pos must be"),
        ('{"action": {"type": "bomb", "pos": [1]}}', "pos must be"),
        ('{"action": {"type": "row"}}', "index must be"),
        ('{"action": {"type": "col", "index": 1.5}}', "index must be"),
    ],
)
def test_malformed_json_answers_say_what_is_wrong(text: str, reason: str) -> None:
    parsed = parse_match2_answer(text)
    assert parsed.action is None
    assert reason in (parsed.reason or ""), parsed.reason


def test_json_parser_options() -> None:
    bare = '{"action": {"type": "eliminate", "pos": [1, 1]}}'
    assert parse_match2_answer(bare, require_fence=True).action is None
    two = '{"action": {"type": "row", "index": 1}} then {"action": {"type": "row", "index": 2}}'
    assert parse_match2_answer(two, pick="last").action == "row,2"


def test_levels_follow_the_released_recipe() -> None:
    for name, count in LEVEL_SETS.items():
        for difficulty, (base, (low, high)) in DIFFICULTIES.items():
            for index in range(1, count + 1):
                level = fixed_level(name, difficulty, index)
                assert all(low <= t <= high for t in level.targets)
                assert base <= level.max_steps <= max(base + 3, -(-sum(level.targets) // 6))
                assert level.inventory == (1, 1, 1, 1)
                assert any(len(g) >= 2 for g in groups(level.board))


def test_level_sets_are_pinned_and_deterministic() -> None:
    levels = [
        fixed_level(name, d, i)
        for name, count in sorted(LEVEL_SETS.items())
        for d in DIFFICULTIES
        for i in range(1, count + 1)
    ]
    digest = hashlib.sha256(
        "|".join(f"{lv.level_id}:{lv.board}:{lv.max_steps}:{lv.targets}" for lv in levels).encode()
    ).hexdigest()[:16]
    assert digest == "cfc948311f754147"
    assert make("match2", map_set="eval", map_index=4).initial_state(0).board == levels[3].board


def test_the_seed_picks_the_generated_level_and_the_refills() -> None:
    a = GameSession("match2", seed=11)
    b = GameSession("match2", seed=11)
    assert a.state == b.state
    action = a.legal_actions()[0]
    a.step(action)
    b.step(action)
    assert a.state == b.state
    assert GameSession("match2", seed=12).state.board != a.states[0].board


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="difficulty"):
        make("match2", difficulty="extreme")
    with pytest.raises(OptionError, match="1-10"):
        make("match2", map_set="train", map_index=12)
