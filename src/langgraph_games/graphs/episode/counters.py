"""Per-seat counters of an episode's trajectory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph_games.games.subproblems import ScoreCounts, count_scores
from langgraph_games.graphs.episode.records import SeatCounters, Step
from langgraph_games.players.base import ParseStatus

__all__ = ["summarize_players"]


def summarize_players(trajectory: Sequence[Step], num_players: int) -> list[SeatCounters]:
    """Per-seat counters over a trajectory: decisions, invalid answers, fallbacks, usage.

    ``fallbacks`` counts the loop's fallbacks (after the retries); ``defaulted`` counts
    decisions where the player itself took its paper's default action because the answer
    named none (status ``fallback`` without a loop fallback, e.g. SPRING's "Do");
    ``ambiguous_answers`` counts the answers (first or re-asked) that named two different
    actions, which are also among ``invalid_answers``. ``subproblems`` sums the scores of
    each seat's first answers and of its re-asked ones per subproblem.
    """
    first: list[list[dict[str, Any]]] = [[] for _ in range(num_players)]
    retried: list[list[dict[str, Any]]] = [[] for _ in range(num_players)]
    summary: list[SeatCounters] = [
        {
            "decisions": 0,
            "first_try_valid": 0,
            "invalid_answers": 0,
            "ambiguous_answers": 0,
            "retries": 0,
            "fallbacks": 0,
            "defaulted": 0,
            "model_calls": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "latency_s": 0.0,
            "subproblems": {"first": {}, "retried": {}},
        }
        for _ in range(num_players)
    ]
    for step in trajectory:
        for seat, decision in step["decisions"].items():
            entry = summary[int(seat)]
            attempts = decision["attempts"]
            entry["decisions"] += 1
            invalid = sum(1 for a in attempts if a["status"] != ParseStatus.OK.value)
            entry["invalid_answers"] += invalid
            entry["ambiguous_answers"] += sum(
                1 for a in attempts if a["status"] == ParseStatus.AMBIGUOUS.value
            )
            entry["retries"] += max(0, len(attempts) - 1)
            entry["first_try_valid"] += int(bool(attempts) and attempts[0]["status"] == "ok")
            entry["fallbacks"] += int(decision["fallback"] is not None)
            entry["defaulted"] += int(
                decision["fallback"] is None and decision["status"] == ParseStatus.FALLBACK.value
            )
            usage = decision["usage"]
            entry["model_calls"] += int(usage.get("calls", 0))
            entry["input_tokens"] += int(usage.get("input_tokens", 0))
            entry["output_tokens"] += int(usage.get("output_tokens", 0))
            entry["latency_s"] += float(decision["latency_s"])
            if attempts:
                first[int(seat)] += attempts[0]["scores"]
                retried[int(seat)] += (s for a in attempts[1:] for s in a["scores"])
    for entry, firsts, retries in zip(summary, first, retried, strict=True):
        entry["subproblems"] = {"first": _by_index(firsts), "retried": _by_index(retries)}
    return summary


def _by_index(scores: Sequence[dict[str, Any]]) -> dict[str, ScoreCounts]:
    """Summed scores per subproblem index, keyed as JSON keys are (strings, in order)."""
    return {str(index): counts for index, counts in sorted(count_scores(scores).items())}
