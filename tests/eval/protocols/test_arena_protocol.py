"""GAMEBoT's arena protocol: declared per game, the arena's default, and said when not kept."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena, summarize
from langgraph_games.eval.protocols.gamebot import (
    ARENA_PROTOCOLS,
    ArenaSettings,
    arena_protocol_for,
    differences,
)
from langgraph_games.eval.protocols.plans import plan_arena
from langgraph_games.games.registry import game_classes
from langgraph_games.graphs import EpisodeOptions
from support import install_scripted_strategies

PAPER_LINE = (
    "Protocol: paper protocol (GAMEBoT: 20 matches per pair, half from each seat, no "
    "re-asks, the game's fallback, at most 4096 output tokens, each model's default "
    "temperature, a random baseline)."
)

# Hashes of specs as ``arena`` built them before it had protocols (10 matches, 2 re-asks,
# no token limit): pinned, so results files written then keep resuming.
FORMER_DEFAULT_HASH = "5d2037b7867d"  # arena tictactoe --players gamebot:local minimax
FORMER_TWO_MATCHES_HASH = "e6cc45f7cfd5"  # arena tictactoe --players minimax --matches 2


def _manifest(results: Path) -> dict:
    return json.loads(results.with_suffix(".manifest.json").read_text())


def test_every_gamebot_game_declares_the_papers_protocol() -> None:
    gamebot = sorted(c.id for c in game_classes() if c.source == "GAMEBoT")
    assert gamebot == sorted(ARENA_PROTOCOLS) and len(gamebot) == 8
    for game in gamebot:
        protocol = arena_protocol_for(game)
        assert protocol is not None and protocol.paper == "GAMEBoT"
        # Section 3.1.1: 20 matches a pair, 10 from each seat, 4096 output tokens, each
        # model's default sampling; Table 2 has a Random row; no re-ask is described.
        assert (protocol.matches, protocol.swap_seats, protocol.baseline) == (20, True, True)
        assert (protocol.max_retries, protocol.fallback, protocol.max_tokens) == (0, "game", 4096)
        assert protocol.temperature is None and protocol.max_steps is None
    assert dict(ARENA_PROTOCOLS["pong"].options) == {"points_to_win": 1, "max_steps": 250}
    assert dict(ARENA_PROTOCOLS["negotiation"].options) == {
        "end_after_round": 8,
        "end_chance": 0.2,
    }
    assert arena_protocol_for("texas_holdem-v1") is ARENA_PROTOCOLS["texas_holdem"]
    assert arena_protocol_for("maze") is None


def test_plan_arena_fills_in_the_protocol_and_explicit_settings_win() -> None:
    spec = plan_arena("negotiation", ["negotiator"])
    assert (spec.matches, spec.swap_seats, spec.baseline) == (20, True, True)
    assert spec.episode == EpisodeOptions(max_retries=0, fallback="game")
    assert spec.model == {"max_tokens": 4096}
    assert spec.protocol_summary().startswith("paper protocol (GAMEBoT: 20 matches")
    given = plan_arena(
        "negotiation",
        ["negotiator"],
        matches=6,
        max_retries=2,
        model={"max_tokens": 512, "temperature": 0.0},
        swap_seats=False,
        options={"end_chance": 0.5},
    )
    assert (given.matches, given.episode.max_retries, given.swap_seats) == (6, 2, False)
    assert given.model == {"max_tokens": 512, "temperature": 0.0}
    assert given.protocol_summary() == (
        "paper protocol except: matches per pair 6 (paper: 20), seat swapping off (paper: "
        "on), re-asks 2 (paper: 0), max tokens 512 (paper: 4096), temperature 0 (paper: "
        "provider default), end_chance 0.5 (paper: 0.2)"
    )


def test_the_former_defaults_keep_their_spec_hash() -> None:
    former = plan_arena("tictactoe", ["gamebot:local", "minimax"], protocol="none")
    assert (former.matches, former.episode.max_retries, former.model) == (10, 2, {})
    assert former.spec_hash() == FORMER_DEFAULT_HASH
    # Built by hand as before: the same data, the same hash.
    by_hand = ArenaSpec(game="tictactoe", players=["gamebot:local", "minimax"], matches=10)
    assert by_hand.spec_hash() == FORMER_DEFAULT_HASH
    assert plan_arena("tictactoe", ["gamebot:local", "minimax"]).spec_hash() != (
        FORMER_DEFAULT_HASH
    )
    assert former.protocol_summary() == (
        "paper protocol except: matches per pair 10 (paper: 20), re-asks 2 (paper: 0), max "
        "tokens none (paper: 4096)"
    )


def test_game_options_and_episode_settings_are_compared() -> None:
    pong = plan_arena("pong", ["pong_tracker"], options={"points_to_win": 3}, max_steps=40)
    assert [str(d) for d in differences(ARENA_PROTOCOLS["pong"], pong.protocol_settings())] == [
        "step limit 40 (paper: none)",
        "points_to_win 3 (paper: 1)",
    ]
    plain = ArenaSettings(20, max_tokens=4096, baseline=False, fallback="forfeit")
    assert [str(d) for d in differences(ARENA_PROTOCOLS["othello"], plain)] == [
        "random baseline off (paper: on)",
        "fallback forfeit (paper: game)",
    ]
    # A game without a paper protocol says so, with what it plays.
    assert plan_arena("tictactoe", ["minimax"], protocol="none").matches == 10


def test_arena_plays_the_paper_protocol_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", "minimax", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert PAPER_LINE in out
    results = next(tmp_path.glob("*.jsonl"))
    assert len(ResultsFile(results).read().records) == 20  # minimax and random, 20 matches
    manifest = _manifest(results)
    assert manifest["spec"]["matches"] == 20
    assert manifest["spec"]["episode"]["max_retries"] == 0
    assert manifest["spec"]["model"] == {"max_tokens": 4096}
    assert manifest["protocol"]["summary"] == PAPER_LINE.removeprefix("Protocol: ")[:-1]
    assert manifest["protocol"]["differences"] == {}
    assert manifest["protocol"]["settings"]["matches"] == 20
    # The summary written beside the results and `report` read the same header.
    assert PAPER_LINE in results.with_suffix(".summary.md").read_text()
    markdown, _, _, _ = summarize(results)
    assert PAPER_LINE in markdown


def test_without_re_asks_an_unusable_answer_falls_back_and_a_flag_brings_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_scripted_strategies(monkeypatch)
    base = ["arena", "tictactoe", "--players", "clumsy", "perfect", "--matches", "2", "-q"]
    base += ["--no-baseline"]
    assert main([*base, "--out", str(tmp_path / "paper")]) == 0
    paper_out = capsys.readouterr().out
    assert (
        "Protocol: paper protocol except: matches per pair 2 (paper: 20), random baseline "
        "off (paper: on)." in paper_out
    )
    paper = next((tmp_path / "paper").glob("*.jsonl"))
    _, rows, _, _ = summarize(paper)
    clumsy = next(r for r in rows if r["player"] == "clumsy")
    # clumsy's first answer in each match is illegal: no re-ask, the game's fallback.
    assert clumsy["fallbacks"] == 2 and clumsy["I_retry"] is None
    described = _manifest(paper)["models"]["local"]
    assert described["max_tokens"] == 4096  # the model the players were given

    assert main([*base, "--max-retries", "2", "--out", str(tmp_path / "asked")]) == 0
    asked_out = capsys.readouterr().out
    assert (
        "Protocol: paper protocol except: matches per pair 2 (paper: 20), random baseline "
        "off (paper: on), re-asks 2 (paper: 0)." in asked_out
    )
    asked = next((tmp_path / "asked").glob("*.jsonl"))
    _, rows, _, _ = summarize(asked)
    clumsy = next(r for r in rows if r["player"] == "clumsy")
    assert clumsy["fallbacks"] == 0 and clumsy["I_retry"] is not None
    assert _manifest(asked)["protocol"]["differences"]["max_retries"] == {
        "value": 2,
        "paper": 0,
    }


def test_protocol_none_resumes_a_file_written_with_the_former_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    former = ArenaSpec(game="tictactoe", players=["minimax"], matches=2)  # as arena built it
    written = asyncio.run(run_arena(former, tmp_path, progress=False))
    assert written.results_path.name == f"arena-tictactoe-{FORMER_TWO_MATCHES_HASH}.jsonl"
    argv = ["arena", "tictactoe", "--players", "minimax", "--matches", "2", "-q"]
    assert main([*argv, "--protocol", "none", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"arena-tictactoe-{FORMER_TWO_MATCHES_HASH}.jsonl (0 played now, 2 already" in out
    assert (
        "paper protocol except: matches per pair 2 (paper: 20), re-asks 2 (paper: 0), max "
        "tokens none (paper: 4096)." in out
    )
    # Without it the same flags play the paper protocol: a new file, not a mix.
    assert main([*argv, "--out", str(tmp_path)]) == 0
    assert "(2 played now, 0 already done" in capsys.readouterr().out
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
