"""Ranking by a conservative rating: few matches do not outrank many; provisional players."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.eval.ratings.bradley_terry import fit_bradley_terry
from langgraph_games.eval.ratings.leaderboard import RatingSettings, build_leaderboard
from langgraph_games.eval.ratings.matches import load_matches
from langgraph_games.eval.ratings.plot import LABEL_WIDTH, player_label
from langgraph_games.eval.ratings.render import leaderboard_markdown, write_leaderboard
from ratings_support import match, write
from table_support import tables

FAST = RatingSettings(bootstrap=0, orderings=20)


def _seats(a: str, b: str, a_wins: int, draws: int, b_wins: int, tag: str) -> list[dict[str, Any]]:
    """``a`` against ``b`` with the given results, seats alternating."""
    results = [(1, -1)] * a_wins + [(0, 0)] * draws + [(-1, 1)] * b_wins
    records = []
    for i, (ra, rb) in enumerate(results):
        ident = f"{tag}{i}"
        if i % 2:
            records.append(match(ident, b, a, (rb, ra)))
        else:
            records.append(match(ident, a, b, (ra, rb)))
    return records


def _order(records: list[dict[str, Any]], tmp_path: Path, **settings: Any) -> list[str]:
    found = load_matches(
        [write(tmp_path / f"results-{len(list(tmp_path.iterdir()))}.jsonl", records)]
    )
    board = build_leaderboard(found, RatingSettings(**{"bootstrap": 0, **settings})).boards[0]
    return [s.player for s in board.standings]


def test_a_player_that_went_0_1_1_against_random_ranks_below_it(tmp_path: Path) -> None:
    # random lost its 20 other matches to minimax; gamebot:local drew one and lost one to it.
    records = _seats("gamebot:local", "random", 0, 1, 1, "g") + _seats(
        "minimax", "random", 20, 0, 0, "m"
    )
    found = load_matches([write(tmp_path / "arena.jsonl", records)])
    board = build_leaderboard(found, FAST).boards[0]
    ranked = {s.player: s for s in board.standings}
    assert [s.player for s in board.standings] == ["minimax", "random", "gamebot:local"]
    gamebot, rand = ranked["gamebot:local"], ranked["random"]
    assert (gamebot.wins, gamebot.draws, gamebot.losses) == (0, 1, 1)
    # Sequential Elo (the defect) still puts gamebot:local above random.
    assert gamebot.elo.value is not None and rand.elo.value is not None
    assert gamebot.elo.value > rand.elo.value
    # The ranking rating: below random, with a wider interval (2 matches against 22).
    assert gamebot.rating.value is not None and rand.rating.value is not None
    assert gamebot.rating.value < rand.rating.value
    assert gamebot.rating.high - gamebot.rating.low > rand.rating.high - rand.rating.low  # type: ignore[operator]
    assert gamebot.provisional and not rand.provisional and not ranked["minimax"].provisional
    text = leaderboard_markdown(build_leaderboard(found, FAST))
    (players, *_) = tables(text)
    assert [row[1] for row in players[1:]] == ["minimax", "random", "gamebot:local *"]
    assert "`*` provisional: fewer than 10 matches" in text
    assert "Ranked by the low end of the rating's 95% CI." in text


def test_winners_still_rank_above_losers(tmp_path: Path) -> None:
    # Not over-corrected: with as few matches on both sides, the winner ranks first ...
    assert _order(_seats("b", "a", 2, 0, 0, "x"), tmp_path) == ["b", "a"]
    # ... a player that beat random 10-0 ranks above it however many matches random has ...
    records = _seats("newcomer", "random", 10, 0, 0, "n") + _seats(
        "minimax", "random", 20, 0, 0, "m"
    )
    assert _order(records, tmp_path)[1:] == ["newcomer", "random"]
    # ... and equal records rank the player with more matches above (a narrower interval).
    many = _seats("steady", "random", 15, 0, 15, "s") + _seats("once", "random", 1, 0, 1, "o")
    order = _order(many, tmp_path)
    assert order.index("steady") < order.index("once")


def test_no_provisional_mark_at_the_threshold(tmp_path: Path) -> None:
    records = _seats("a", "b", 3, 0, 2, "x")  # 5 matches each
    found = load_matches([write(tmp_path / "ab.jsonl", records)])
    at = build_leaderboard(found, RatingSettings(bootstrap=0, min_matches=5))
    above = build_leaderboard(found, RatingSettings(bootstrap=0, min_matches=6))
    assert not any(s.provisional for s in at.boards[0].standings)
    assert all(s.provisional for s in above.boards[0].standings)
    assert "provisional" not in leaderboard_markdown(at)
    with pytest.raises(ValueError, match="min matches must be 0 or more"):
        RatingSettings(min_matches=-1)


def test_the_fit_ignores_order_and_keeps_unbeaten_players_finite() -> None:
    games = [("a", "b", 1.0)] * 6 + [("b", "c", 0.5), ("c", "a", 0.0), ("b", "c", 1.0)]
    fitted = fit_bradley_terry(games)
    shuffled = list(games)
    random.Random(3).shuffle(shuffled)
    again = fit_bradley_terry(shuffled)
    for name in "abc":
        assert again[name].rating == pytest.approx(fitted[name].rating)
        assert again[name].se == pytest.approx(fitted[name].se)
    assert fitted["a"].rating > fitted["b"].rating > fitted["c"].rating
    assert fitted["a"].rating < 3000  # unbeaten, held by the prior
    assert sum(f.rating for f in fitted.values()) / 3 == pytest.approx(1500)


def test_the_plot_takes_forty_character_names_without_warnings(tmp_path: Path) -> None:
    long_a, long_b = (
        "gamebot:variant=cot:openai:gpt-4o-mini-aa",
        "gamebot:variant=cot:openai:gpt-4o-mini-bb",
    )
    long_a, long_b = long_a[:40], long_b[:40]
    assert len(long_a) == len(long_b) == 40 and long_a != long_b
    records = _seats(long_a, long_b, 6, 2, 4, "l") + _seats(long_a, "random", 0, 0, 3, "r")
    board = build_leaderboard(load_matches([write(tmp_path / "long.jsonl", records)]), FAST)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = write_leaderboard(board, tmp_path / "board")
    assert written.plot is not None and written.plot.read_bytes().startswith(b"\x89PNG")
    labels = [
        player_label(r, s.player, s.provisional) for r, s in enumerate(board.boards[0].standings, 1)
    ]
    assert all(len(label) <= LABEL_WIDTH for label in labels) and len(set(labels)) == 3
    text = written.markdown.read_text()
    assert long_a in text and long_b in text  # the table keeps the full names


def test_progress_goes_to_stderr_and_q_silences_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from langgraph_games.cli import _progress

    monkeypatch.setattr(_progress, "DELAY", 0.0)  # show at once, as a slow run would
    results = write(tmp_path / "ab.jsonl", _seats("a", "b", 3, 1, 1, "x"))
    argv = ["leaderboard", str(results), "--bootstrap", "30", "--out", str(tmp_path / "lb")]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "bootstrap" in captured.err and "30/30" in captured.err
    assert "reading 1 file(s)..." in captured.err and "writing" in captured.err
    assert "rep/s" not in captured.out and captured.out.startswith("## tictactoe-v1")
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""
