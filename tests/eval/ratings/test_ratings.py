"""Ratings on scripted record sets: exact win rates, Elo by hand, intervals, order-freedom."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from langgraph_games.eval.ratings.leaderboard import (
    Board,
    RatingSettings,
    Standing,
    build_leaderboard,
)
from langgraph_games.eval.ratings.matches import load_matches
from langgraph_games.eval.ratings.render import leaderboard_json, leaderboard_markdown
from langgraph_games.eval.ratings.stats import Estimate, matches_to_separate
from langgraph_games.eval.ratings.systems import elo_once, rate, skill_once
from langgraph_games.games.errors import UnknownGameError
from ratings_support import a_beats_b, match, write

FAST = RatingSettings(bootstrap=300, orderings=40)


def _standing(board: Board, player: str) -> Standing:
    return next(s for s in board.standings if s.player == player)


def _estimates(board: Board) -> list[Estimate]:
    found = []
    for s in board.standings:
        found += [s.elo, s.mu, s.outcome, s.win_rate]
    for p in board.pairs:
        found += [p.score_rate, p.elo_diff, p.mu_diff]
    return found


def test_a_beats_b_three_to_one_with_a_draw(tmp_path: Path) -> None:
    found = load_matches([write(tmp_path / "ab.jsonl", a_beats_b())])
    board = build_leaderboard(found, FAST).boards[0]
    assert board.name == "tictactoe-v1" and board.matches == 5
    a, b = board.standings  # ranked by the rating's low end: A first
    assert (a.player, a.wins, a.draws, a.losses) == ("A", 3, 1, 1)
    assert (b.player, b.wins, b.draws, b.losses) == ("B", 1, 1, 3)
    assert a.win_rate.value == 0.7 and b.win_rate.value == pytest.approx(0.3)
    assert a.outcome.value == pytest.approx(0.4) and b.outcome.value == pytest.approx(-0.4)
    assert a.intermediate.value is None  # nobody answered subproblems
    assert a.elo.value is not None and b.elo.value is not None
    assert a.elo.value > 1500 > b.elo.value
    assert a.elo.value - 1500 == pytest.approx(1500 - b.elo.value)  # Elo moves in pairs
    assert a.mu.value is not None and b.mu.value is not None and a.mu.value > b.mu.value
    (pair,) = board.pairs
    assert (pair.a, pair.b, pair.wins, pair.draws, pair.losses) == ("A", "B", 3, 1, 1)
    assert pair.score_rate.value == 0.7
    assert pair.elo_diff.value == pytest.approx(a.elo.value - b.elo.value)
    assert (pair.separation.needed, pair.separation.more) == (22, 17)


def test_every_interval_contains_its_point_estimate(tmp_path: Path) -> None:
    records = [
        *a_beats_b(repeat=2),
        match("c1", "A", "C", (1, -1)),
        match("c2", "C", "B", (0, 0)),
        match("c3", "B", "C", (1, -1)),
        match("c4", "C", "A", (-1, 1)),
    ]
    found = load_matches([write(tmp_path / "abc.jsonl", records)])
    board = build_leaderboard(found, FAST).boards[0]
    for found in _estimates(board):
        assert found.value is not None and found.low is not None and found.high is not None
        assert found.low <= found.value <= found.high
        assert found.samples > 0


def test_intervals_shrink_with_more_matches(tmp_path: Path) -> None:
    few = build_leaderboard(load_matches([write(tmp_path / "few.jsonl", a_beats_b())]), FAST)
    many = build_leaderboard(
        load_matches([write(tmp_path / "many.jsonl", a_beats_b(repeat=8))]), FAST
    )

    def width(estimate: Estimate) -> float:
        assert estimate.low is not None and estimate.high is not None
        return estimate.high - estimate.low

    small, large = few.boards[0], many.boards[0]
    assert _standing(large, "A").win_rate.value == _standing(small, "A").win_rate.value == 0.7
    assert width(_standing(large, "A").win_rate) < width(_standing(small, "A").win_rate)
    assert width(_standing(large, "A").outcome) < width(_standing(small, "A").outcome)
    assert width(large.pairs[0].score_rate) < width(small.pairs[0].score_rate)
    # 40 matches at 0.7: the interval 0.7 ± 1.96 s / sqrt(40) already excludes 1/2.
    assert large.pairs[0].separation.separated
    assert large.pairs[0].elo_diff.excludes(0.0)
    assert not small.pairs[0].elo_diff.excludes(0.0)


def test_matches_needed_against_a_hand_calculation() -> None:
    scores = [1, 1, 1, 0, 0.5]
    padded = [*scores, 1, 0]
    mean = sum(padded) / 7
    variance = sum((x - mean) ** 2 for x in padded) / 6
    needed = math.floor((1.959963984540054**2) * variance / 0.2**2) + 1
    found = matches_to_separate(scores)
    assert found.std == pytest.approx(math.sqrt(variance))
    assert (found.needed, found.more) == (needed, needed - 5) == (22, 17)
    assert found.describe() == "17 more (22 in all)"
    swept = matches_to_separate([1.0] * 10)  # every match won: already told apart
    assert swept.separated and swept.describe() == "already separated"
    even = matches_to_separate([1, 0, 0.5])
    assert even.needed is None and even.describe() == "no difference observed"
    with pytest.raises(ValueError, match="at least one match"):
        matches_to_separate([])
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        matches_to_separate([2.0])


def test_elo_and_skill_count_a_draw_as_half_a_win() -> None:
    assert elo_once([("a", "b", 0.5)]) == {"a": 1500.0, "b": 1500.0}
    expected = 1 / (1 + 10 ** ((1484 - 1516) / 400))
    after = elo_once([("a", "b", 1.0), ("a", "b", 0.5)])
    assert after["a"] == pytest.approx(1516 + 32 * (0.5 - expected))  # the favourite loses
    assert after["b"] == pytest.approx(1484 - 32 * (0.5 - expected))
    drawn = skill_once([("a", "b", 0.5)])
    assert drawn["a"] == pytest.approx(drawn["b"]) and drawn["a"][0] == pytest.approx(25.0)
    won = skill_once([("a", "b", 1.0)])
    assert won["a"][0] > 25.0 > won["b"][0]


def test_rating_depends_on_the_seed_not_on_the_order_given() -> None:
    games = [("A", "B", 1.0), ("B", "A", 1.0), ("A", "B", 0.5), ("A", "C", 1.0), ("C", "B", 0.0)]
    # One pass in a given order is order-dependent ...
    assert elo_once(games) != elo_once(games[::-1])
    # ... the average over seeded permutations of the same list is not.
    first = rate(games, random.Random(3), orderings=30)
    again = rate(games, random.Random(3), orderings=30)
    assert first == again
    with pytest.raises(ValueError, match="orderings must be at least 1"):
        rate(games, random.Random(0), orderings=0)
    with pytest.raises(ValueError, match="skill model 'glicko'"):
        rate(games, random.Random(0), model="glicko")


def test_leaderboard_ignores_file_and_line_order(tmp_path: Path) -> None:
    records = [
        *a_beats_b(repeat=2),
        match("c1", "A", "C", (1, -1)),
        match("c2", "C", "B", (0, 0)),
        match("c3", "B", "C", (1, -1)),
        match("x1", "A", "B", (1, -1), game="connect4-v1"),
        match("x2", "B", "C", (-1, 1), game="connect4-v1"),
    ]
    shuffled = list(records)
    random.Random(7).shuffle(shuffled)
    first = [write(tmp_path / "1a.jsonl", records[:7]), write(tmp_path / "1b.jsonl", records[7:])]
    second = [
        write(tmp_path / "2a.jsonl", shuffled[:4]),
        write(tmp_path / "2b.jsonl", shuffled[4:]),
    ]
    one = leaderboard_json(build_leaderboard(load_matches(first), FAST))
    two = leaderboard_json(build_leaderboard(load_matches(second[::-1]), FAST))
    assert one == two
    assert [b["name"] for b in one["boards"]] == ["connect4-v1", "tictactoe-v1", "overall"]


def test_overall_pools_games_and_a_game_board_ignores_other_games(tmp_path: Path) -> None:
    both = write(
        tmp_path / "both.jsonl",
        a_beats_b() + a_beats_b(prefix="c", game="connect4-v1")[:2],
    )
    full = build_leaderboard(load_matches([both]), FAST)
    boards = {b.name: b for b in full.boards}
    overall = boards["overall"]
    assert overall.matches == 7 and overall.pooling is not None
    a_ttt, a_c4 = _standing(boards["tictactoe-v1"], "A"), _standing(boards["connect4-v1"], "A")
    a_all = _standing(overall, "A")
    assert (a_all.wins, a_all.draws, a_all.losses) == (4, 1, 2)
    assert a_all.win_rate.value == pytest.approx(4.5 / 7)
    assert a_ttt.outcome.value is not None and a_c4.outcome.value is not None
    assert a_all.outcome.value == pytest.approx((a_ttt.outcome.value + a_c4.outcome.value) / 2)
    alone = build_leaderboard(load_matches([both], game="tictactoe"), FAST)
    assert [b.name for b in alone.boards] == ["tictactoe-v1"]
    assert alone.boards[0] == boards["tictactoe-v1"]  # seeds derive from the game
    assert alone.counts == {"other_games": 2}
    with pytest.raises(UnknownGameError):
        load_matches([both], game="chess")


def test_left_out_records_are_counted(tmp_path: Path) -> None:
    records = [
        *a_beats_b(),
        match("m0-0", "A", "B", (1, -1)),  # the same match again (e.g. a file given twice)
        match("e1", "A", "B", (0, 0), status="error"),  # failed, never finished
        match("m0-1", "B", "A", (0, 0), status="error"),  # failed, then a rerun finished it
        {
            "kind": "episode",
            "episode_id": "maze1",
            "game": "maze-v1",
            "seats": ["maze_explorer"],
            "status": "finished",
            "metrics": {"success": True},
            "result": {"status": "finished", "returns": [1.0], "players": []},
        },
        {  # a two-seat episode written by hand, without the seats' counters
            "kind": "episode",
            "episode_id": "ttt1",
            "game": "tictactoe-v1",
            "seats": ["A", "B"],
            "status": "finished",
            "metrics": {},
            "result": {"status": "finished", "returns": [1.0, -1.0]},
        },
    ]
    found = load_matches([write(tmp_path / "mixed.jsonl", records)])
    assert len(found.matches) == 5
    assert found.counts == {
        "duplicates": 1,
        "error_records": 1,
        "malformed": 1,
        "one_seat_episodes": 1,
        "retried_errors": 1,
    }
    text = " | ".join(found.notes)
    assert "1 one-seat evaluation episode(s) skipped" in text
    assert "1 error record(s) skipped" in text and "1 duplicate record(s)" in text
    board = build_leaderboard(found, FAST)
    assert "1 error record(s) skipped" in leaderboard_markdown(board)


def test_self_play_counts_in_o_but_not_in_ratings(tmp_path: Path) -> None:
    records = [*a_beats_b(), match("s1", "A", "A", (1, -1))]
    board = build_leaderboard(load_matches([write(tmp_path / "self.jsonl", records)]), FAST)
    a = _standing(board.boards[0], "A")
    assert (a.wins, a.draws, a.losses) == (4, 1, 2)  # both seats of the self-play match
    assert [(p.a, p.b) for p in board.boards[0].pairs] == [("A", "B")]
    assert any("against itself" in note for note in board.notes)


def test_without_openskill_the_leaderboard_shows_elo_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # as if not installed
    board = build_leaderboard(load_matches([write(tmp_path / "ab.jsonl", a_beats_b())]), FAST)
    a = board.boards[0].standings[0]
    assert a.elo.value is not None and a.elo.value > 1500
    assert a.mu.value is None and board.skill_model is None
    assert any(
        n.startswith("skill ratings skipped: openskill is not installed") for n in board.notes
    )
    assert "openskill's" not in leaderboard_markdown(board)


def test_settings_and_empty_input_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bootstrap replicates must be 0 or more"):
        RatingSettings(bootstrap=-1)
    with pytest.raises(ValueError, match="accepted bradley_terry, plackett_luce"):
        RatingSettings(skill_model="elo")
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        RatingSettings(confidence=1.0)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ValueError, match="no finished two-seat matches to rate"):
        build_leaderboard(load_matches([empty]), FAST)


def test_no_bootstrap_gives_point_estimates_without_intervals(tmp_path: Path) -> None:
    settings = RatingSettings(bootstrap=0, orderings=10)
    board = build_leaderboard(load_matches([write(tmp_path / "ab.jsonl", a_beats_b())]), settings)
    a = board.boards[0].standings[0]
    assert a.win_rate == Estimate(0.7, None, None, 0)
    assert a.rating.low is not None  # the ranking rating's interval is the fit's own
    text = leaderboard_markdown(board)
    row = text.split("\n")[4].split("|")
    assert "| 0.70 " in text and "[" in row[5] and "[" not in "".join(row[6:])
    data = leaderboard_json(board)
    assert json.loads(json.dumps(data)) == data
