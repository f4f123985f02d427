"""GAMEBoT metrics over match records: O, I, W-D-L, invalid answers and usage.

- ``O = sum(R_j) / sum(T_j)`` per player over its matches, with ``R_j`` the player's return
  and ``T_j`` the game's ``return_scale`` (1 for win/draw/loss games), paper section 2.5.
- ``I`` = the mean, over the game's scored subproblems, of each subproblem's micro-F1 or
  accuracy over all the player's decisions (see ``games/subproblems.py``).
- W-D-L per player and per pair of players, as in the paper's Table 3.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langgraph_games.games.registry import make
from langgraph_games.games.subproblems import aggregate_scores

__all__ = ["pairwise_wdl", "player_rows"]


def _decisions_of(record: Mapping[str, Any], seat: int) -> Iterable[Mapping[str, Any]]:
    for step in record.get("trajectory") or []:
        decision = (step.get("decisions") or {}).get(str(seat))
        if decision is not None:
            yield decision


def player_rows(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per player over finished match records of one game.

    Each row has: ``player``, ``matches``, ``wins``, ``draws``, ``losses``, ``O``, ``I``
    (``None`` when the player answered no subproblems), ``I_sub`` (per subproblem index),
    ``decisions``, ``invalid_rate`` (share of decisions whose first answer had no legal
    move), ``fallbacks``, ``input_tokens``, ``output_tokens``, ``model_calls`` and
    ``seconds_per_decision``.
    """
    finished = [r for r in records if r.get("status") != "error"]
    if not finished:
        return []
    game = make(str(finished[0]["game"]))
    scale = game.return_scale
    acc: dict[str, dict[str, Any]] = {}
    scores: dict[str, dict[int, list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for record in finished:
        result = record["result"]
        returns = result["returns"]
        for seat, name in enumerate(record["seats"]):
            row = acc.setdefault(
                name,
                {
                    "player": name,
                    "matches": 0,
                    "wins": 0,
                    "draws": 0,
                    "losses": 0,
                    "return_sum": 0.0,
                    "decisions": 0,
                    "first_invalid": 0,
                    "fallbacks": 0,
                    "input_tokens": 0,
                    "output_tokens": 0,
                    "model_calls": 0,
                    "latency_s": 0.0,
                },
            )
            mine = float(returns[seat])
            others = [float(r) for i, r in enumerate(returns) if i != seat]
            row["matches"] += 1
            row["return_sum"] += mine
            if others and mine > max(others):
                row["wins"] += 1
            elif others and mine < max(others):
                row["losses"] += 1
            else:
                row["draws"] += 1
            counters = result["players"][seat]
            row["decisions"] += counters["decisions"]
            row["first_invalid"] += counters["decisions"] - counters["first_try_valid"]
            row["fallbacks"] += counters["fallbacks"]
            row["input_tokens"] += counters["input_tokens"]
            row["output_tokens"] += counters["output_tokens"]
            row["model_calls"] += counters["model_calls"]
            row["latency_s"] += counters["latency_s"]
            for decision in _decisions_of(record, seat):
                for score in decision.get("scores") or []:
                    scores[name][int(score["index"])].append(score)
    rows = []
    for name, row in acc.items():
        per_sub: dict[int, float] = {}
        for sub in game.subproblems:
            value = aggregate_scores(sub, scores[name].get(sub.index, []))
            if value is not None:
                per_sub[sub.index] = value
        counted = [per_sub[s.index] for s in game.subproblems if s.scored and s.index in per_sub]
        decisions = max(1, row["decisions"])
        rows.append(
            {
                "player": name,
                "matches": row["matches"],
                "wins": row["wins"],
                "draws": row["draws"],
                "losses": row["losses"],
                "O": row["return_sum"] / (row["matches"] * scale),
                "I": sum(counted) / len(counted) if counted else None,
                "I_sub": per_sub,
                "decisions": row["decisions"],
                "invalid_rate": row["first_invalid"] / decisions,
                "fallbacks": row["fallbacks"],
                "input_tokens": row["input_tokens"],
                "output_tokens": row["output_tokens"],
                "model_calls": row["model_calls"],
                "seconds_per_decision": row["latency_s"] / decisions,
            }
        )
    # Baseline (random) last, others by O.
    rows.sort(key=lambda r: (r["player"].startswith("random"), -r["O"], r["player"]))
    return rows


def pairwise_wdl(records: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], list[int]]:
    """``{(a, b): [wins, draws, losses]}`` of ``a`` against ``b`` (both orders present)."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for record in records:
        if record.get("status") == "error" or len(record["seats"]) != 2:
            continue
        a, b = record["seats"]
        ra, rb = (float(x) for x in record["result"]["returns"])
        index = 0 if ra > rb else 2 if ra < rb else 1
        table[(a, b)][index] += 1
        table[(b, a)][2 - index] += 1
    return dict(table)
