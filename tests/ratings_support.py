"""Hand-written match records for the ratings and leaderboard tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph_games.eval import ResultsFile


def counters(decisions: int = 3) -> dict[str, Any]:
    return {
        "decisions": decisions,
        "first_try_valid": decisions,
        "invalid_answers": 0,
        "ambiguous_answers": 0,
        "fallbacks": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "model_calls": 0,
        "latency_s": 0.0,
    }


def match(
    ident: str,
    a: str,
    b: str,
    returns: tuple[float, float],
    *,
    game: str = "tictactoe-v1",
    spec: str = "spec1",
    status: str = "finished",
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "kind": "match",
        "match_id": ident,
        "spec_hash": spec,
        "game": game,
        "seats": [a, b],
        "status": status,
    }
    if status == "error":
        record["error"] = "ModelError: the endpoint went away"
    else:
        record["result"] = {
            "status": status,
            "returns": list(returns),
            "players": [counters(), counters()],
        }
    return record


def a_beats_b(
    prefix: str = "m", repeat: int = 1, game: str = "tictactoe-v1"
) -> list[dict[str, Any]]:
    """A against B: 3 wins, 1 loss, 1 draw (per repeat), seats alternating."""
    results = [(1, -1), (-1, 1), (1, -1), (1, -1), (0, 0)]  # A's view
    records = []
    for r in range(repeat):
        for i, (ra, rb) in enumerate(results):
            ident = f"{prefix}{r}-{i}"
            if i % 2:
                records.append(match(ident, "B", "A", (rb, ra), game=game))
            else:
                records.append(match(ident, "A", "B", (ra, rb), game=game))
    return records


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    results = ResultsFile(path)
    for record in records:
        results.append(record)
    return path
