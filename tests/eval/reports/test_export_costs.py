"""``export`` rows and the cost in money, on a scripted results file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from export_support import MODEL, write_results
from langgraph_games.cli import main
from langgraph_games.eval.costs import DEFAULT_PRICES, Price, PriceTable, load_prices, player_costs
from table_support import tables

_SEAT = ("decisions", "invalid_answers", "fallbacks", "model_calls", "input_tokens",
         "output_tokens", "cost_usd")  # fmt: skip


def _seat(seat: int, values: tuple[object, ...]) -> dict[str, object]:
    keys = ("player", "return", *_SEAT)
    return {f"seat{seat}_{k}": v for k, v in zip(keys, values, strict=True)}


EPISODES = [
    {"file": "run.jsonl", "line": 1, "kind": "match", "game": "tictactoe-v1", "id": "m1",
     "label": None, "round": 0, "seed": 7, "family": None, "status": "ok",
     "seats": [MODEL, "random"], "steps": 2, "returns": [1.0, -1.0], "winners": [0],
     "started_at": 100.0, "duration_s": 2.5, "error": None,
     # gpt-4o-mini: 1M in x 0.15 + 0.2M out x 0.60 per 1M = 0.27 USD
     **_seat(0, (MODEL, 1.0, 1, 1, 0, 1, 1_000_000, 200_000, 0.27)),
     **_seat(1, ("random", -1.0, 1, 0, 0, 0, 0, 0, None))},
    {"file": "run.jsonl", "line": 2, "kind": "match", "game": "tictactoe-v1", "id": "m2",
     "label": None, "round": 1, "seed": 8, "family": None, "status": "error",
     "seats": ["random", MODEL], "steps": None, "returns": None, "winners": None,
     "started_at": None, "duration_s": None, "error": "ConnectionError: down",
     **_seat(0, (None,) * 9), **_seat(1, (None,) * 9)},
]  # fmt: skip

DECISION_HEADER = ["file", "line", "kind", "game", "id", "label", "round", "seed", "step",
                   "seat", "player", "action", "status", "fallback", "forfeit", "attempts",
                   "calls", "cached_calls", "input_tokens", "output_tokens", "latency_s",
                   "answer", "cost_usd"]  # fmt: skip
DECISIONS = [
    ["run.jsonl", "1", "match", "tictactoe-v1", "m1", "", "0", "7", "0", "0", MODEL, "(1,1)",
     "ok", "", "False", "2", "1", "1", "1000000", "200000", "0.75", "Chosen Move: (1,1)",
     "0.27"],
    ["run.jsonl", "1", "match", "tictactoe-v1", "m1", "", "0", "7", "1", "1", "random",
     "(0,0)", "ok", "", "False", "1", "0", "0", "0", "0", "0.001", "", ""],
]  # fmt: skip


def test_jsonl_has_one_row_per_episode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = write_results(tmp_path / "run.jsonl")
    out = tmp_path / "rows.jsonl"
    assert main(["export", str(results), "--to", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote 2 rows (one per episode) to {out}")
    assert [json.loads(line) for line in out.read_text().splitlines()] == EPISODES


def test_csv_has_one_row_per_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = write_results(tmp_path / "run.jsonl")
    out = tmp_path / "rows.csv"
    assert main(["export", str(results), "--to", str(out), "--per", "decision"]) == 0
    with out.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [DECISION_HEADER, *DECISIONS]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_price_file_extends_and_overrides_the_shipped_prices(tmp_path: Path) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text(
        '["gpt-4o-mini"]\ninput = 1.0\noutput = 2.0\n\n[mine]\ninput = 3\noutput = 4\n'
    )
    table = load_prices(prices)
    assert table.price("openai:gpt-4o-mini") == Price(1.0, 2.0)
    assert (
        table.price("mine") == Price(3.0, 4.0) and table.price("gpt-4o") == DEFAULT_PRICES["gpt-4o"]
    )
    records = [
        json.loads(line) for line in write_results(tmp_path / "r.jsonl").read_text().splitlines()
    ]
    rows = player_costs(records, table)
    # 1M in x 1.0 + 0.2M out x 2.0 per 1M; the failed match counts nothing
    assert rows == [
        {"player": MODEL, "calls": 1, "cached": 1, "input_tokens": 1_000_000,
         "output_tokens": 200_000, "cost_usd": 1.4},
        {"player": "random", "calls": 0, "cached": 0, "input_tokens": 0, "output_tokens": 0,
         "cost_usd": None},
    ]  # fmt: skip
    assert PriceTable({}).cost("openai:gpt-4o-mini", 10, 10) is None  # unknown: no cost
    assert PriceTable(DEFAULT_PRICES).cost("local", 10**9, 10**9) == 0.0


def test_report_shows_cost_per_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = write_results(tmp_path / "run.jsonl")
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"gpt-4o-mini": {"input": 0.5, "output": 1.0}}))
    assert main(["report", str(results), "--out", str(tmp_path / "rep"), "--no-plots",
                 "--prices", str(prices)]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    [costs] = [t for t in tables(printed) if t[0][:2] == ["player", "calls"]]
    assert costs[1:] == [
        [MODEL, "1", "1", "1000000", "200000", "0.7000"],
        ["random", "0", "0", "0", "0", "-"],
    ]
    assert "## Cost (USD)" in (tmp_path / "rep" / "report.md").read_text()


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (
            ["--to", "{tmp}/rows.xlsx"],
            "--to {tmp}/rows.xlsx: the format is chosen by the file's suffix",
        ),
        (["--to", "{tmp}/rows.parquet"], "writing parquet needs pyarrow (pip install pyarrow)"),
        (["--to", "{tmp}"], "is a directory, not a file"),
        (
            ["--to", "{tmp}/rows.csv", "--prices", "{tmp}/none.toml"],
            "price file {tmp}/none.toml: no such file",
        ),
    ],
)
def test_bad_output_and_prices_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], why: str
) -> None:
    results = write_results(tmp_path / "run.jsonl")
    code = main(["export", str(results), *(a.replace("{tmp}", str(tmp_path)) for a in argv)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert why.replace("{tmp}", str(tmp_path)) in err, err


def test_a_missing_results_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(tmp_path / "none.jsonl"), "--to", str(tmp_path / "o.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == f"langgraph-games export: error: results file {tmp_path / 'none.jsonl'} does not exist"
    )
