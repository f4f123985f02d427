"""GAMEBoT's protocol: O on the paper's scale, I on first answers, mirrored seeds, sampling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, Scoring, run_arena, summarize
from langgraph_games.eval.running.executor import write_manifest
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.scoring.metrics import outcome_score, player_rows
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions, gamebot_player
from langgraph_games.graphs.episode.records import retried_scores
from langgraph_games.models import ScriptedChatModel
from support import GAME, install_strategy, state_from_prompt


def _negotiation_record(seats: list[str], returns: list[float], **result: Any) -> dict:
    counters = {
        "decisions": 2,
        "first_try_valid": 2,
        "invalid_answers": 0,
        "fallbacks": 0,
        "model_calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "latency_s": 0.0,
    }
    return {
        "kind": "match",
        "game": "negotiation-v1",
        "seats": seats,
        "status": "finished",
        "result": {"returns": returns, "players": [counters, counters], **result},
        "trajectory": [],
    }


def test_negotiation_o_is_on_the_papers_scale_by_default() -> None:
    records = [
        _negotiation_record(["a", "b"], [21.0, 12.0]),  # a deal: a gets 21, b gets 12
        _negotiation_record(["b", "a"], [0.0, 0.0]),  # no deal: nothing for anyone
        _negotiation_record(["a", "b"], [-30.0, 30.0], forfeit=0, status="forfeit"),
    ]
    paper = {r["player"]: r["O"] for r in player_rows(records)}
    assert paper["a"] == pytest.approx((0.3 + 0.0 - 1.0) / 3)
    assert paper["b"] == pytest.approx((-0.3 + 0.0 + 1.0) / 3)
    share = {r["player"]: r["O"] for r in player_rows(records, Scoring(outcome="share"))}
    assert share["a"] == pytest.approx((21 / 30 + 0 - 1) / 3)
    assert share["b"] == pytest.approx((12 / 30 + 0 + 1) / 3)
    # Constant-sum games are on the same scale either way.
    texas = make("texas_holdem")
    assert outcome_score(texas, [40.0, -40.0], 1) == outcome_score(
        texas, [40.0, -40.0], 1, scale="share"
    )


async def test_a_player_that_always_falls_back_to_agree_does_not_outscore_a_correct_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def agreeable(model, game, name):  # type: ignore[no-untyped-def]
        unreadable = ScriptedChatModel(script=lambda messages: "I cannot decide.")
        return gamebot_player(unreadable, game, name=name)

    install_strategy(monkeypatch, "agreeable", agreeable, "falls back")
    spec = ArenaSpec(
        game="negotiation",
        players=["agreeable", "negotiator"],
        matches=6,
        episode=EpisodeOptions(max_retries=0),  # every answer falls back: Agree
    )
    report = await run_arena(spec, tmp_path, progress=False)
    rows = {r["player"]: r for r in report.rows}
    assert rows["agreeable"]["fallbacks"] == rows["agreeable"]["decisions"] > 0
    assert rows["agreeable"]["O"] < 0 < rows["negotiator"]["O"]
    assert rows["random"]["O"] < 0  # the paper's Random is negative too (-0.47)
    records = ResultsFile(report.results_path).read().records
    for record in records:  # each match is zero-sum on the paper's scale
        game = make(record["game"])
        scores = [outcome_score(game, record["result"]["returns"], s) for s in (0, 1)]
        assert sum(scores) == pytest.approx(0.0) and all(-1 <= s <= 1 for s in scores)
    # On the share scale (the former default) nobody can score below zero.
    shares = {r["player"]: r["O"] for r in player_rows(records, Scoring(outcome="share"))}
    assert min(shares.values()) >= 0 and shares["agreeable"] > 0
    assert "own return - opponent's return" in report.markdown


def test_a_pairs_two_seatings_play_the_same_seed() -> None:
    spec = ArenaSpec(game="negotiation", players=["negotiator"], matches=4, seed=10)
    pair = [m for m in spec.schedule() if set(m.seats) == {"negotiator", "random"}]
    assert [(m.seats[0], m.seed) for m in pair] == [
        ("negotiator", 10),
        ("random", 10),
        ("negotiator", 11),
        ("random", 11),
    ]
    old = spec.model_copy(update={"seeding": "per_match"})
    assert [m.seed for m in old.schedule()][:4] == [10, 11, 12, 13]
    assert [m.match_id for m in old.schedule()] == [m.match_id for m in spec.schedule()]
    assert old.spec_hash() != spec.spec_hash()  # so results files of either never mix
    unswapped = spec.model_copy(update={"swap_seats": False})
    assert [m.seed for m in unswapped.schedule()][:4] == [10, 11, 12, 13]


async def test_mirrored_texas_matches_deal_the_same_cards_to_the_same_seats(
    tmp_path: Path,
) -> None:
    spec = ArenaSpec(game="texas_holdem", players=["holdem_equity:samples=20"], matches=2)
    report = await run_arena(spec, tmp_path, progress=False)
    first, second = ResultsFile(report.results_path).read().records
    assert first["seats"] == second["seats"][::-1] and first["seed"] == second["seed"]

    def hands(record: dict) -> dict[int, str]:
        seen: dict[int, str] = {}
        for step in record["trajectory"]:
            for seat, text in step["observations"].items():
                hand = text.split("The cards in your hand are ")[1].split("\n")[0]
                number = int(text.split("Hand ")[1].split(" ")[0].split(",")[0])
                seen.setdefault(number * 2 + int(seat), hand)
        return seen

    a, b = hands(first), hands(second)
    common = set(a) & set(b)
    assert len(common) >= 2 and all(a[k] == b[k] for k in common)


def _feedback(messages: list[BaseMessage]) -> bool:
    return "Your answer was rejected" in messages[-1].text


def _right_then_wrong(messages: list[BaseMessage]) -> str:
    """Right answers with an illegal move first; after feedback, wrong answers, legal move."""
    state, player, legal = state_from_prompt(messages)
    truth = GAME.ground_truth(state, player)
    if not _feedback(messages):
        lines = [
            f"[Intermediate Thinking Results {k}: {', '.join(sorted(truth[k])) or 'None'}]"
            for k in (1, 2)
        ]
        return "\n".join(lines) + "\nChosen Move: (7,7)"
    return (
        "[Intermediate Thinking Results 1: (9,9)]\n[Intermediate Thinking Results 2: (9,9)]\n"
        f"Chosen Move: {legal[0]}"
    )


async def test_i_scores_first_answers_and_reports_re_asked_ones_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def flip(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=_right_then_wrong), game, name=name)

    install_strategy(monkeypatch, "flip", flip, "right, then wrong")
    spec = ArenaSpec(game="tictactoe", players=["flip"], matches=2)
    report = await run_arena(spec, tmp_path, progress=False)
    rows = {r["player"]: r for r in report.rows}
    assert rows["flip"]["I"] == 1.0  # what it answered unprompted was right
    assert rows["flip"]["I_retry"] == 0.0  # what it answered after feedback was wrong
    record = ResultsFile(report.results_path).read().records[0]
    seat = record["seats"].index("flip")
    decision = next(
        s["decisions"][str(seat)] for s in record["trajectory"] if str(seat) in s["decisions"]
    )
    first, again = decision["attempts"]  # each attempt keeps its own scores, once
    assert [s["value"] for s in first["scores"]] == [1.0, 1.0]
    assert [s["value"] for s in again["scores"]] == [0.0, 0.0]
    assert [(s["attempt"], s["value"]) for s in retried_scores(decision)] == [(1, 0.0), (1, 0.0)]
    assert not {"intermediate", "scores", "retry_scores"} & set(decision)
    records = ResultsFile(report.results_path).read().records
    last = {r["player"]: r for r in player_rows(records, Scoring(intermediate="last"))}
    assert last["flip"]["I"] == 0.0  # the former rule: the answer whose move was played
    assert "I re-asked" in report.markdown and "first answer" in report.markdown


async def test_a_successful_rerun_does_not_report_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    down = {"now": True}

    def flaky(model, game, name):  # type: ignore[no-untyped-def]
        def script(messages: list[BaseMessage]) -> str:
            if down["now"]:
                raise ConnectionError("endpoint down")
            _, _, legal = state_from_prompt(messages)
            return f"Chosen Move: {legal[0]}"

        return gamebot_player(ScriptedChatModel(script=script), game, name=name, retry_delay_s=0)

    install_strategy(monkeypatch, "flaky", flaky, "down, then up")
    spec = ArenaSpec(game="tictactoe", players=["flaky", "minimax"], matches=2)
    first = await run_arena(spec, tmp_path, progress=False)
    assert first.errors == 4
    down["now"] = False
    second = await run_arena(spec, tmp_path, progress=False)
    assert (second.played, second.errors, second.skipped) == (4, 0, 2)
    _, rows, _, notes = summarize(second.results_path)
    assert notes == []
    assert {r["player"]: r["matches"] for r in rows} == {"flaky": 4, "minimax": 4, "random": 4}


def test_the_manifest_says_how_each_model_samples(tmp_path: Path) -> None:
    pool = ModelPool()
    pool.get("openai:some-model@http://127.0.0.1:9/v1")
    pool.get("local")
    zero = ModelPool(temperature=0.0)
    zero.get("openai:some-model@http://127.0.0.1:9/v1")
    write_manifest(tmp_path / "a.jsonl", {}, pool)
    write_manifest(tmp_path / "b.jsonl", {}, zero)
    default = json.loads((tmp_path / "a.manifest.json").read_text())["models"]
    assert default["openai:some-model@http://127.0.0.1:9/v1"]["sampling"] == (
        "the provider's default (no temperature sent)"
    )
    assert "temperature" not in default["openai:some-model@http://127.0.0.1:9/v1"]
    assert default["local"]["sampling"].startswith("greedy")
    chosen = json.loads((tmp_path / "b.manifest.json").read_text())["models"]
    assert chosen["openai:some-model@http://127.0.0.1:9/v1"]["sampling"] == "temperature 0.0"


def test_cli_chooses_the_scales(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "negotiation", "--players", "negotiator", "--matches", "2", "-q"]
    assert main([*args, "--out", str(tmp_path), "--outcome-scale", "share"]) == 0
    assert "share scale" in capsys.readouterr().out
    results = next(tmp_path.glob("*.jsonl"))
    assert main(["report", str(results), "--no-plots", "--intermediate", "all"]) == 0
    assert "own return - opponent's return" in capsys.readouterr().out  # the default scale
    with pytest.raises(SystemExit):
        main(["report", str(results), "--outcome-scale", "chips"])
    assert "invalid choice: 'chips'" in capsys.readouterr().err
