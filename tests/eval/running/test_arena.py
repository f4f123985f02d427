"""Arena runs: exact metrics, resume after an interruption, errors recorded per match."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena, summarize
from langgraph_games.eval.scoring.metrics import pairwise_wdl, player_rows
from langgraph_games.graphs import EpisodeOptions, gamebot_player
from langgraph_games.graphs.episode.records import first_answers
from langgraph_games.models import ScriptedChatModel
from support import install_strategy, oracle


def spec(**kwargs: object) -> ArenaSpec:
    base: dict[str, object] = {"game": "tictactoe", "players": ["minimax"], "matches": 4}
    base.update(kwargs)
    return ArenaSpec(**base)  # type: ignore[arg-type]


async def test_round_robin_with_the_random_baseline(tmp_path: Path) -> None:
    report = await run_arena(spec(players=["minimax", "minimax:depth=1"]), tmp_path, progress=False)
    records = ResultsFile(report.results_path).read().records
    # 3 pairs (minimax, minimax:depth=1, random) x 4 matches, seats alternating.
    assert len(records) == 12 and report.played == 12
    pairs = {tuple(r["seats"]) for r in records}
    assert ("minimax", "random") in pairs and ("random", "minimax") in pairs
    rows = {r["player"]: r for r in report.rows}
    assert rows["minimax"]["losses"] == 0 and rows["random"]["O"] < 0
    assert report.summary_path.read_text().startswith("## tictactoe-v1")
    assert "player,matches,W-D-L,O,I" in report.csv_path.read_text()
    assert json.loads(report.results_path.with_suffix(".manifest.json").read_text())["roster"] == [
        "minimax",
        "minimax:depth=1",
        "random",
    ]


async def test_interrupted_run_resumes_and_plays_each_match_once(tmp_path: Path) -> None:
    arena = spec(matches=6, concurrency=2)
    written = 0

    class Interrupted(Exception):
        pass

    def count(_: dict) -> None:
        nonlocal written
        written += 1
        if written == 2:
            raise Interrupted  # the run dies in the middle (Ctrl-C, a crash)

    with pytest.raises(Interrupted):
        await run_arena(arena, tmp_path, progress=False, on_match=count)
    path = next(tmp_path.glob("*.jsonl"))
    # Appends run in a worker thread, and those waiting together are flushed together: a
    # match that had finished and handed its record over when the run died is still
    # written whole (it is a finished match); at most two matches are in flight.
    first = len(ResultsFile(path).read().records)
    assert 2 <= first <= 4
    # A crash can also leave half a line behind.
    with path.open("a") as handle:
        handle.write('{"kind": "match", "match_id": "half')
    report = await run_arena(arena, tmp_path, progress=False)
    read = ResultsFile(path).read()
    ids = [r["match_id"] for r in read.records]
    assert report.skipped == first and report.played == 6 - first
    assert len(ids) == len(set(ids)) == 6
    assert len(read.skipped) == 1 and read.skipped[0][0] == first + 1
    assert read.skipped[0][1].startswith("bad JSON: Unterminated string")
    again = await run_arena(arena, tmp_path, progress=False)
    assert again.played == 0 and again.skipped == 6


async def test_a_failing_model_is_recorded_on_its_match_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def flaky(model, game, name):  # type: ignore[no-untyped-def]
        dead = ScriptedChatModel(responses=[ConnectionError("endpoint down")])
        return gamebot_player(dead, game, name=name, retry_delay_s=0.001)

    install_strategy(monkeypatch, "flaky", flaky, "always fails")
    report = await run_arena(
        spec(players=["flaky", "minimax"], matches=2), tmp_path, progress=False
    )
    records = ResultsFile(report.results_path).read().records
    errors = [r for r in records if r["status"] == "error"]
    assert len(errors) == 4  # flaky's matches with minimax and with random
    assert all("endpoint down" in r["error"] for r in errors)
    assert len(records) - len(errors) == 2  # minimax vs random went on
    assert report.errors == 4
    _, rows, _, notes = summarize(report.results_path)
    assert {r["player"] for r in rows} == {"minimax", "random"}
    assert notes == [
        "tictactoe-v1: 4 match(es) ended with an error and are left out "
        "(rerun the same command to play them again)"
    ]


async def test_oracle_gamebot_gets_i_equal_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def perfect(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)

    def sloppy(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("extra")), game, name=name)

    install_strategy(monkeypatch, "perfect", perfect, "oracle")
    install_strategy(monkeypatch, "sloppy", sloppy, "oracle plus noise")
    report = await run_arena(
        spec(players=["perfect", "sloppy"], matches=2, baseline=False), tmp_path, progress=False
    )
    rows = {r["player"]: r for r in report.rows}
    assert rows["perfect"]["I"] == 1.0 and rows["perfect"]["I_sub"] == {1: 1.0, 2: 1.0}
    # sloppy adds one bogus cell per answer: micro-F1 = 2 TP / (2 TP + FP) per subproblem.
    records = ResultsFile(report.results_path).read().records
    for index in (1, 2):
        tp = sum(
            s["tp"]
            for r in records
            for seat, name in enumerate(r["seats"])
            if name == "sloppy"
            for step in r["trajectory"]
            if str(seat) in step["decisions"]
            for s in first_answers(step["decisions"][str(seat)])[1]
            if s["index"] == index
        )
        decisions = rows["sloppy"]["decisions"]
        assert rows["sloppy"]["I_sub"][index] == pytest.approx(2 * tp / (2 * tp + decisions))
    assert rows["perfect"]["invalid_rate"] == 0.0


def test_metrics_on_hand_written_records() -> None:
    def record(seats: list[str], returns: list[float], first_valid: list[int]) -> dict:
        players = [
            {
                "decisions": 4,
                "first_try_valid": v,
                "invalid_answers": 4 - v,
                "retries": 0,
                "fallbacks": 4 - v,
                "model_calls": 4,
                "input_tokens": 100,
                "output_tokens": 10,
                "latency_s": 2.0,
            }
            for v in first_valid
        ]
        return {
            "kind": "match",
            "game": "connect4-v1",
            "seats": seats,
            "status": "finished",
            "result": {"returns": returns, "players": players},
            "trajectory": [],
        }

    records = [
        record(["a", "b"], [1.0, -1.0], [4, 2]),
        record(["b", "a"], [0.0, 0.0], [3, 4]),
        record(["a", "b"], [-1.0, 1.0], [4, 4]),
        {"kind": "match", "game": "connect4-v1", "seats": ["a", "b"], "status": "error"},
    ]
    rows = {r["player"]: r for r in player_rows(records)}
    assert rows["a"]["O"] == pytest.approx(0.0) and rows["b"]["O"] == pytest.approx(0.0)
    assert (rows["a"]["wins"], rows["a"]["draws"], rows["a"]["losses"]) == (1, 1, 1)
    assert rows["b"]["invalid_rate"] == pytest.approx(3 / 12)
    assert rows["a"]["I"] is None
    assert pairwise_wdl(records)[("a", "b")] == [1, 1, 1]


def test_bad_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="distinct"):
        ArenaSpec(game="tictactoe", players=["random", "random"])
    with pytest.raises(ValueError, match="at least one player"):
        ArenaSpec(game="tictactoe", players=[])
    with pytest.raises(LookupError, match="Unknown game 'chess'"):
        spec(game="chess").schedule()


async def test_unknown_player_and_model_specs(tmp_path: Path) -> None:
    from langgraph_games.models import ModelSpecError
    from langgraph_games.players import UnknownPlayerError

    with pytest.raises(UnknownPlayerError, match=r"Unknown player 'gpt4'.*'gamebot\[:variant="):
        await run_arena(spec(players=["gpt4"]), tmp_path, progress=False)
    with pytest.raises(ModelSpecError, match=r"Unknown model spec 'claude'.*'local'"):
        await run_arena(spec(players=["gamebot:claude"]), tmp_path, progress=False)


def test_spec_hash_ignores_concurrency_only() -> None:
    assert spec(concurrency=1).spec_hash() == spec(concurrency=8).spec_hash()
    assert spec(matches=5).spec_hash() != spec().spec_hash()
    assert spec(episode=EpisodeOptions(max_retries=0)).spec_hash() != spec().spec_hash()


def test_asyncio_is_used_in_tests() -> None:
    assert asyncio.iscoroutinefunction(run_arena)
