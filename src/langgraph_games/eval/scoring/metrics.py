"""GAMEBoT metrics over match records: O, I, W-D-L, invalid answers and usage.

- ``O = sum(R_j) / sum(T_j)`` per player over its matches (paper section 2.5), with
  ``T_j`` the game's ``return_scale`` (1 for win/draw/loss games, 100 chips for Texas
  Hold'em, 30 for Negotiation). ``R_j`` is the player's return, except in games whose
  returns are not constant-sum (Negotiation: both players gain from a deal, both get 0
  without one), where it is the player's return minus its opponent's: the paper's O runs
  from -1 to 1 and its Negotiation column sums to about zero over its players, like the
  zero-sum games' columns, which a share of the pool (always >= 0) cannot do. A forfeit
  scores -1 for the forfeiting player and +1 for the other. :class:`Scoring` keeps the
  former scale, ``return / return_scale`` for every game (``outcome="share"``).
- ``I`` = the mean, over the game's scored subproblems, of each subproblem's micro-F1 or
  accuracy (see ``games/subproblems.py``) over the player's decisions, scoring each
  decision's *first* answer: what the model answered unprompted. Answers given after
  feedback (re-asked attempts) are scored apart as ``I_retry``; ``intermediate="last"``
  (the answer whose move was played, the former rule) or ``"all"`` choose otherwise.
  I is read from the per-seat subproblem counts of each match's result (``first`` and
  ``retried``), so a report reads no trajectory; ``"last"``, and files written before the
  results held those counts, read the decisions of the trajectory instead.
- W-D-L per player and per pair of players, as in the paper's Table 3.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict

from langgraph_games.eval.running.records import EpisodeLine, FailedLine, MatchLine, is_failed
from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import (
    ScoreCounts,
    add_counts,
    aggregate_counts,
    count_scores,
)
from langgraph_games.graphs.episode.records import DecisionRecord, SubproblemCounts, first_answers

__all__ = ["PlayerRow", "Scoring", "outcome_score", "pairwise_wdl", "player_rows"]

OutcomeScale = Literal["paper", "share"]
AttemptChoice = Literal["first", "last", "all"]


@dataclass(frozen=True)
class Scoring:
    """How match records are scored; a reading choice, results files are not changed.

    Attributes:
        outcome: ``"paper"``: O on GAMEBoT's [-1, 1] scale (a game that is not
            constant-sum scores the difference to the opponent's return); ``"share"``:
            ``return / return_scale`` for every game (Negotiation's share of the pool's
            value, in [0, 1]).
        intermediate: Which answer of a decision I scores: ``"first"`` (the unprompted
            answer), ``"last"`` (the one whose move was played), ``"all"`` (every answer).
    """

    outcome: OutcomeScale = "paper"
    intermediate: AttemptChoice = "first"

    def __post_init__(self) -> None:
        if self.outcome not in ("paper", "share"):
            raise ValueError(f"outcome scale {self.outcome!r}: accepted 'paper', 'share'")
        if self.intermediate not in ("first", "last", "all"):
            raise ValueError(
                f"intermediate attempts {self.intermediate!r}: accepted 'first', 'last', 'all'"
            )


def outcome_score(
    game: Game[GameState],
    returns: Sequence[float],
    seat: int,
    *,
    forfeit: int | None = None,
    scale: OutcomeScale = "paper",
) -> float:
    """``R_j / T_j`` of one seat in one match (see the module docstring).

    Example:
        >>> from langgraph_games.games import make
        >>> negotiation = make("negotiation")
        >>> outcome_score(negotiation, [21.0, 12.0], 1), outcome_score(
        ...     negotiation, [21.0, 12.0], 1, scale="share")
        (-0.3, 0.4)
    """
    mine = float(returns[seat])
    if scale == "share" or game.constant_sum or len(returns) < 2:
        return mine / game.return_scale
    if forfeit is not None:
        return -1.0 if forfeit == seat else 1.0
    best_other = max(float(r) for i, r in enumerate(returns) if i != seat)
    return (mine - best_other) / game.return_scale


def _decisions_of(record: MatchLine | EpisodeLine, seat: int) -> Iterable[DecisionRecord]:
    for step in record.get("trajectory", []):
        decision = step["decisions"].get(str(seat))
        if decision is not None:
            yield decision


def _answer_scores(
    decision: DecisionRecord, choice: AttemptChoice
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """``(scores I counts, scores of the re-asked answers)`` of one decision."""
    attempts = decision["attempts"]
    if not attempts:  # a decision without attempts (hand-made): its own scores
        return list(first_answers(decision)[1]), []
    per_attempt: list[list[Mapping[str, Any]]] = [list(a["scores"]) for a in attempts]
    retried = [s for scores in per_attempt[1:] for s in scores]
    if choice == "first":
        return per_attempt[0], retried
    if choice == "last":
        return per_attempt[-1], retried
    return [s for scores in per_attempt for s in scores], retried


def _mean_scored(game: Game[GameState], per_sub: Mapping[int, float]) -> float | None:
    counted = [per_sub[s.index] for s in game.subproblems if s.scored and s.index in per_sub]
    return sum(counted) / len(counted) if counted else None


def _per_sub(game: Game[GameState], counts: Mapping[int, ScoreCounts]) -> dict[int, float]:
    per_sub: dict[int, float] = {}
    for sub in game.subproblems:
        value = aggregate_counts(sub, counts.get(sub.index))
        if value is not None:
            per_sub[sub.index] = value
    return per_sub


def _add_seat_answers(
    record: MatchLine | EpisodeLine,
    seat: int,
    choice: AttemptChoice,
    counted: dict[int, ScoreCounts],
    retried: dict[int, ScoreCounts],
) -> None:
    """Add one seat's scored answers in ``record`` to ``counted`` (for I) and ``retried``.

    From the seat's subproblem counts in the result where it has them (``first`` and
    ``retried`` answer every choice but ``"last"``), else from the trajectory's decisions.
    """
    tally: SubproblemCounts | None = record["result"]["players"][seat].get("subproblems")
    if tally is not None and choice != "last":
        first = {int(k): v for k, v in tally["first"].items()}
        again = {int(k): v for k, v in tally["retried"].items()}
        add_counts(counted, first)
        add_counts(retried, again)
        if choice == "all":
            add_counts(counted, again)
        return
    for decision in _decisions_of(record, seat):
        scores, retry = _answer_scores(decision, choice)
        add_counts(counted, count_scores(scores))
        add_counts(retried, count_scores(retry))


class PlayerRow(TypedDict):
    """One player's row over the finished matches of one game (see :func:`player_rows`).

    ``I`` and ``I_retry`` are ``None`` when the player gave no such answers; ``I_sub`` is
    I per subproblem index. Arena summaries add the row's ``game``.
    """

    player: str
    matches: int
    wins: int
    draws: int
    losses: int
    O: float  # noqa: E741 - the paper's name
    I: float | None  # noqa: E741 - the paper's name
    I_sub: dict[int, float]
    I_retry: float | None
    decisions: int
    invalid_rate: float
    ambiguous: int
    fallbacks: int
    input_tokens: int
    output_tokens: int
    model_calls: int
    seconds_per_decision: float
    game: NotRequired[str]


def player_rows(
    records: Sequence[MatchLine | EpisodeLine | FailedLine],
    scoring: Scoring | None = None,
    game: Game[GameState] | None = None,
) -> list[PlayerRow]:
    """One row per player over finished match records of one game.

    Each row has: ``player``, ``matches``, ``wins``, ``draws``, ``losses``, ``O``, ``I``
    (``None`` when the player answered no subproblems), ``I_sub`` (per subproblem index),
    ``I_retry`` (I of the re-asked answers, ``None`` without any), ``decisions``,
    ``invalid_rate`` (share of decisions whose first answer had no legal move),
    ``ambiguous`` (answers naming two different actions), ``fallbacks``,
    ``input_tokens``, ``output_tokens``, ``model_calls`` and ``seconds_per_decision``.
    ``game`` is the records' engine when the caller has made it already.
    """
    scoring = scoring or Scoring()
    finished = [r for r in records if not is_failed(r)]
    if not finished:
        return []
    game = game or make(str(finished[0]["game"]))
    acc: dict[str, dict[str, Any]] = {}
    scores: dict[str, dict[int, ScoreCounts]] = defaultdict(dict)
    retry: dict[str, dict[int, ScoreCounts]] = defaultdict(dict)
    for record in finished:
        result = record["result"]
        returns = result["returns"]
        for seat, name in enumerate(record["seats"]):
            row = acc.setdefault(name, _empty_row(name))
            mine = float(returns[seat])
            others = [float(r) for i, r in enumerate(returns) if i != seat]
            row["matches"] += 1
            row["outcome_sum"] += outcome_score(
                game, returns, seat, forfeit=result.get("forfeit"), scale=scoring.outcome
            )
            if others and mine > max(others):
                row["wins"] += 1
            elif others and mine < max(others):
                row["losses"] += 1
            else:
                row["draws"] += 1
            # Every counter is optional in a line (older versions wrote fewer): missing is 0.
            counters: Mapping[str, Any] = result["players"][seat]
            decisions = counters.get("decisions", 0)
            row["decisions"] += decisions
            row["first_invalid"] += decisions - counters.get("first_try_valid", decisions)
            row["ambiguous"] += counters.get("ambiguous_answers", 0)
            for key in ("fallbacks", "input_tokens", "output_tokens", "model_calls"):
                row[key] += counters.get(key, 0)
            row["latency_s"] += counters.get("latency_s", 0.0)
            _add_seat_answers(record, seat, scoring.intermediate, scores[name], retry[name])
    rows: list[PlayerRow] = []
    for name, row in acc.items():
        per_sub = _per_sub(game, scores[name])
        decisions = max(1, row["decisions"])
        rows.append(
            {
                "player": name,
                "matches": row["matches"],
                "wins": row["wins"],
                "draws": row["draws"],
                "losses": row["losses"],
                "O": row["outcome_sum"] / row["matches"],
                "I": _mean_scored(game, per_sub),
                "I_sub": per_sub,
                "I_retry": _mean_scored(game, _per_sub(game, retry[name])),
                "decisions": row["decisions"],
                "invalid_rate": row["first_invalid"] / decisions,
                "ambiguous": row["ambiguous"],
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


def _empty_row(name: str) -> dict[str, Any]:
    return {
        "player": name,
        "matches": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "outcome_sum": 0.0,
        "decisions": 0,
        "first_invalid": 0,
        "ambiguous": 0,
        "fallbacks": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "model_calls": 0,
        "latency_s": 0.0,
    }


def pairwise_wdl(
    records: Sequence[MatchLine | EpisodeLine | FailedLine],
) -> dict[tuple[str, str], list[int]]:
    """``{(a, b): [wins, draws, losses]}`` of ``a`` against ``b`` (both orders present)."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for record in records:
        if is_failed(record) or len(record["seats"]) != 2:
            continue
        a, b = record["seats"]
        ra, rb = (float(x) for x in record["result"]["returns"])
        index = 0 if ra > rb else 2 if ra < rb else 1
        table[(a, b)][index] += 1
        table[(b, a)][2 - index] += 1
    return dict(table)
