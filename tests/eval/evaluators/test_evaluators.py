"""LangSmith-style evaluators on recorded episodes: the report's own figures, offline."""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from langsmith import Client
from langsmith.evaluation import evaluate
from langsmith.schemas import Example, Run

from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena, summarize
from langgraph_games.eval.evaluators import (
    EVALUATORS,
    evaluators_for,
    fallback_rate,
    family_metrics,
    intermediate,
    invalid_rate,
    outcome,
    run_evaluators,
    summary_family,
    summary_metrics,
    win,
)
from langgraph_games.eval.reports.report import build_report, headlines
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.eval.scoring.metrics import Scoring, player_rows
from langgraph_games.games import make
from langgraph_games.graphs import run_episode
from langgraph_games.players import RandomPlayer
from support import install_scripted_strategies


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A scripted TicTacToe arena and three one-agent evaluation runs."""
    out = tmp_path_factory.mktemp("episodes")

    async def play() -> dict[str, Path]:
        ttt = ArenaSpec(game="tictactoe", players=["perfect", "sloppy", "clumsy"], matches=2)
        found = {"arena": (await run_arena(ttt, out, progress=False)).results_path}
        for name, spec in {
            "maze": EvalSpec(game="maze", options={"level": 1, "map_set": "eval"},
                             agent="maze_explorer", sweep={"map_index": [1, 2]}),
            "minesweeper": EvalSpec(game="minesweeper", agent="minesweeper_solver", repeats=2),
            "bandit": EvalSpec(game="bandit", agent="random", repeats=2),
        }.items():  # fmt: skip
            found[name] = (await run_eval(spec, out, progress=False)).results_path
        return found

    with pytest.MonkeyPatch.context() as monkeypatch:
        install_scripted_strategies(monkeypatch)
        return asyncio.run(play())


def _records(path: Path) -> list[dict[str, Any]]:
    return ResultsFile(path).read().records


def _scores(result: Mapping[str, Any]) -> dict[str, Any]:
    items = result.get("results", [result])
    return {item["key"]: item["score"] for item in items}


def test_per_episode_scores_add_up_to_the_reports_row(files: dict[str, Path]) -> None:
    records = _records(files["arena"])
    _, rows, _, _ = summarize(files["arena"])
    for row in rows:
        player = row["player"]
        mine = [r for r in records if player in r["seats"]]
        inputs = {"player": player}
        o = [outcome(inputs, r)["score"] for r in mine]
        assert sum(o) / len(o) == row["O"]
        wins = [win(inputs, r)["score"] for r in mine]
        assert sum(wins) == row["wins"] + row["draws"] / 2
        by_seat = [outcome({"seat": r["seats"].index(player)}, r)["score"] for r in mine]
        assert by_seat == o
        for record in mine:  # one episode: the report's row of a one-match file
            (alone,) = [
                x for x in player_rows([record]) if x["player"] == player
            ]  # no self-play here
            got = _scores(intermediate(inputs, record))
            assert got["I"] == alone["I"]
            assert {k: v for k, v in got.items() if k != "I"} == {
                f"I_P{k}": v for k, v in alone["I_sub"].items()
            }
            assert invalid_rate(inputs, record)["score"] == alone["invalid_rate"]
            assert fallback_rate(inputs, record)["score"] == alone["fallbacks"] / alone["decisions"]


def test_summary_metrics_are_exactly_the_reports_row(files: dict[str, Path]) -> None:
    records = _records(files["arena"])
    for scoring in (Scoring(), Scoring(intermediate="last")):
        _, rows, _, _ = summarize(files["arena"], scoring)
        for row in rows:
            mine = [r for r in records if row["player"] in r["seats"]]
            (summary,) = evaluators_for(scoring)[1]
            got = _scores(summary([{"player": row["player"]}] * len(mine), mine))
            assert got["O"] == row["O"] and got["I"] == row["I"]
            assert got["win_rate"] == (row["wins"] + row["draws"] / 2) / row["matches"]
            assert got["invalid_rate"] == row["invalid_rate"]
            for index, value in row["I_sub"].items():
                assert got[f"I_P{index}"] == value


def test_family_metrics_are_what_eval_recorded(files: dict[str, Path]) -> None:
    checked = 0
    for name in ("maze", "minesweeper", "bandit"):
        for record in _records(files[name]):
            got = _scores(family_metrics({}, record))
            family = record["family"]
            expected = {
                f"{family}.{key}": None if value is None else float(value)
                for key, value in record["metrics"].items()
                if value is None or isinstance(value, (bool, int, float))
            }
            assert got == expected and got
            checked += 1
    assert checked == 6


def test_summary_family_gives_the_reports_headlines(files: dict[str, Path]) -> None:
    paths = [files[name] for name in ("maze", "minesweeper", "bandit")]
    report_headlines = headlines(build_report(paths))
    for name in ("maze", "minesweeper", "bandit"):
        records = _records(files[name])
        got = _scores(summary_family([{}] * len(records), records))
        ((label, expected),) = report_headlines[records[0]["family"]].items()
        assert label == records[0]["label"]
        assert got == {f"{records[0]['family']} {key}": value for key, value in expected.items()}


def test_run_episode_output_and_failed_episodes(files: dict[str, Path]) -> None:
    game = make("tictactoe")
    episode = asyncio.run(run_episode(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)], seed=4))
    returns = episode["result"]["returns"]
    assert outcome({}, episode)["score"] == float(returns[0])  # TicTacToe's scale is 1
    assert outcome({"seat": 1}, episode)["score"] == float(returns[1])
    failed = {"kind": "match", "game": "tictactoe-v1", "seats": ["a", "b"], "status": "error",
              "error": "ModelError: no endpoint"}  # fmt: skip
    assert outcome({}, failed) == {
        "key": "O",
        "score": None,
        "comment": "the episode failed: ModelError: no endpoint",
    }
    records = _records(files["arena"])[:2]
    got = summary_metrics([{}, {}, {}], [*records, failed])
    assert got["results"][0]["comment"].endswith("1 failed episode(s) left out")


@pytest.mark.parametrize(
    ("inputs", "outputs", "message"),
    [
        ({}, {"trajectory": []}, "outputs have no 'result' with 'returns'"),
        ({}, {"result": {"returns": [1, -1]}}, "outputs name no game"),
        ({}, ["not", "a", "mapping"], "outputs must be a mapping"),
        ({"seat": 2}, None, r"inputs\['seat'\] = 2: accepted a seat index 0-1"),
        ({"player": "gpt"}, None, r"inputs\['player'\] = 'gpt' holds no seat"),
    ],
)
def test_bad_input_names_what_is_accepted(
    files: dict[str, Path], inputs: dict[str, Any], outputs: Any, message: str
) -> None:
    record = outputs if outputs is not None else _records(files["arena"])[0]
    with pytest.raises(ValueError, match=message):
        outcome(inputs, record)


def test_family_metrics_score_the_agent_seat_only(files: dict[str, Path]) -> None:
    record = _records(files["arena"])[0]
    with pytest.raises(ValueError, match="family metrics score seat 0"):
        family_metrics({"seat": 1}, record)


def _example(inputs: dict[str, Any]) -> Example:
    return Example(id=uuid.uuid4(), dataset_id=uuid.uuid4(), inputs=inputs, outputs={})


@pytest.mark.filterwarnings("ignore:'upload_results' parameter is in beta")
def test_langsmith_runs_them_offline(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """LangSmith's own evaluate() with results kept local, and its RunEvaluator wrappers."""
    monkeypatch.setenv("LANGSMITH_TRACING", "false")
    dialled: list[object] = []
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            dialled.append(address)
            raise OSError("no network in this test")
        real_connect(self, address)  # asyncio's own socketpair

    monkeypatch.setattr(socket.socket, "connect", connect)
    records = {r["match_id"]: r for r in _records(files["arena"])}
    player = "clumsy"
    examples = [
        _example({"match_id": key, "player": player})
        for key, r in records.items()
        if player in r["seats"]
    ]

    def target(inputs: dict[str, Any]) -> dict[str, Any]:
        return records[inputs["match_id"]]

    client = Client(api_url="http://127.0.0.1:9", api_key="offline", auto_batch_tracing=False)
    results = evaluate(
        target,
        data=examples,
        evaluators=list(EVALUATORS),
        summary_evaluators=[summary_metrics],
        upload_results=False,
        client=client,
        max_concurrency=0,
    )
    rows = list(results)
    assert len(rows) == len(examples) == 6
    for row in rows:
        record = records[row["example"].inputs["match_id"]]
        got = {e.key: e.score for e in row["evaluation_results"]["results"]}
        assert got["O"] == outcome({"player": player}, record)["score"]
        assert got["win"] == win({"player": player}, record)["score"]
        assert got["I"] == _scores(intermediate({"player": player}, record))["I"]
    summary = {e.key: e.score for e in results._summary_results["results"]}
    (row,) = [r for r in summarize(files["arena"])[1] if r["player"] == player]
    assert summary["O"] == row["O"] and summary["I"] == row["I"]

    record = records[examples[0].inputs["match_id"]]
    run = Run(
        id=uuid.uuid4(),
        name="episode",
        start_time=datetime.now(timezone.utc),
        run_type="chain",
        inputs=examples[0].inputs,
        outputs=record,
    )
    wrapped = run_evaluators()
    assert len(wrapped) == len(EVALUATORS)
    got = wrapped[EVALUATORS.index(outcome)].evaluate_run(run, examples[0])
    assert (got.key, got.score) == ("O", outcome({"player": player}, record)["score"])
    assert dialled == []  # nothing tried to reach a server
