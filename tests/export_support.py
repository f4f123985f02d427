"""A scripted results file: one finished match (a model seat and a random one) and one error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MODEL = "gamebot:openai:gpt-4o-mini"


def _attempt(action: str | None, status: str, output: str | None, usage: dict[str, int],
             latency_s: float) -> dict[str, Any]:  # fmt: skip
    return {"action": action, "status": status, "raw_outputs": [output] if output else [],
            "intermediate": {}, "scores": [], "info": {}, "usage": usage,
            "latency_s": latency_s}  # fmt: skip


def _decision(attempts: list[dict[str, Any]], action: str) -> dict[str, Any]:
    return {"attempts": attempts, "fallback": None, "forfeit": False, "action": action,
            "status": "ok", "intermediate": {}, "scores": [], "retry_scores": [],
            "latency_s": 0.0, "usage": {}}  # fmt: skip


MATCH: dict[str, Any] = {
    "kind": "match", "match_id": "m1", "round": 0, "game": "tictactoe-v1", "seed": 7,
    "seats": [MODEL, "random"], "status": "ok", "started_at": 100.0, "duration_s": 2.5,
    "result": {
        "status": "ok", "returns": [1.0, -1.0], "winners": [0], "steps": 2,
        "players": [
            {"decisions": 1, "invalid_answers": 1, "fallbacks": 0, "model_calls": 1,
             "input_tokens": 1_000_000, "output_tokens": 200_000},
            {"decisions": 1, "invalid_answers": 0, "fallbacks": 0, "model_calls": 0,
             "input_tokens": 0, "output_tokens": 0},
        ],
    },
    "trajectory": [
        {"step": 0, "turn": 0, "observations": {"0": "board"}, "actions": {"0": "(1,1)"},
         "events": [],
         "decisions": {"0": _decision([
             _attempt(None, "invalid", "(9,9)",
                      {"calls": 1, "input_tokens": 1_000_000, "output_tokens": 200_000}, 0.5),
             _attempt("(1,1)", "ok", "Chosen Move: (1,1)",
                      {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cached_calls": 1},
                      0.25),
         ], "(1,1)")}},
        {"step": 1, "turn": 1, "observations": {"1": "board"}, "actions": {"1": "(0,0)"},
         "events": [],
         "decisions": {"1": _decision([_attempt("(0,0)", "ok", None, {}, 0.001)], "(0,0)")}},
    ],
}  # fmt: skip

FAILED: dict[str, Any] = {
    "kind": "match", "match_id": "m2", "round": 1, "game": "tictactoe-v1", "seed": 8,
    "seats": ["random", MODEL], "status": "error", "error": "ConnectionError: down",
}  # fmt: skip


def write_results(path: Path) -> Path:
    """Write the two records to ``path``."""
    path.write_text("".join(json.dumps(r) + "\n" for r in (MATCH, FAILED)))
    return path
