"""The papers' metrics as LangSmith evaluators of our episodes.

Every function here has a signature LangSmith's ``evaluate()`` / ``aevaluate()`` accept
(``langsmith.evaluation.evaluate(target, data=..., evaluators=[...],
summary_evaluators=[...])``): per-example evaluators take ``(inputs, outputs,
reference_outputs)`` and return ``{"key", "score", "comment"}`` (or ``{"results":
[...]}`` for several metrics); summary evaluators take the lists ``(inputs, outputs)``
of the whole experiment. :func:`run_evaluators` wraps the per-example ones as
LangSmith ``RunEvaluator`` objects (``run_evaluator``) for code that wants those. They
are plain functions: call them directly on recorded episodes, no network needed.

**What they read.** ``outputs`` is one episode: a line of a results file (what
``arena`` and ``eval`` write: ``game``, ``seats``, ``result``, ``trajectory``) or what
:func:`~langgraph_games.graphs.episode.run.run_episode` returns (``result`` and
``trajectory``; the game is read from ``result["record"]``). ``inputs`` may name the
evaluated seat (``seat``: an index) or player (``player``: the spec string, every seat it
holds); without either, seat 0 is evaluated.

**How they score** (the report's own functions, nothing re-implemented):

- ``O``, ``I`` (and ``I_P<k>`` per subproblem), ``invalid_rate``, ``fallback_rate`` come
  from :func:`~langgraph_games.eval.scoring.metrics.player_rows` over the episode with
  the evaluated seats as one player, so they equal the arena report's figures; over a
  whole experiment :func:`summary_metrics` gives exactly the report's row of the player
  (I is micro-F1 over all its decisions, not a mean of per-episode values).
- ``win``: 1, 0.5 or 0 (a draw is half a win).
- :func:`family_metrics`: the family's per-episode metrics (EvoEmpirBench maze and
  Match-2, Minesweeper, SmartPlay, Crafter; see
  :mod:`~langgraph_games.eval.scoring.families`) recomputed from the episode's moves,
  as ``eval`` records them; :func:`summary_family` gives the family's headline figures
  (what the report plots).

A failed episode (``status: "error"``) scores ``None`` with the error as the comment.
Bad input (no ``result``, no game, a seat that does not exist) raises ``ValueError``
naming what is missing and what is accepted.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

from langsmith.evaluation import RunEvaluator, run_evaluator
from typing_extensions import TypedDict, TypeIs

from langgraph_games.eval.running.records import (
    EpisodeLine,
    FailedLine,
    MatchLine,
    is_failed,
    validate_line,
)
from langgraph_games.eval.scoring.families import Headline, counters_of, decisions_of, family_of
from langgraph_games.eval.scoring.metrics import PlayerRow, Scoring, player_rows
from langgraph_games.games.session import GameSession

__all__ = [
    "EVALUATORS",
    "SUMMARY_EVALUATORS",
    "Evaluator",
    "Score",
    "Scores",
    "evaluators_for",
    "fallback_rate",
    "family_metrics",
    "intermediate",
    "invalid_rate",
    "outcome",
    "run_evaluators",
    "summary_family",
    "summary_metrics",
    "win",
]

EVALUATED = "evaluated"
"""The name the evaluated seats get when an episode is scored."""

_ACCEPTED = (
    "a results record (a line of an arena or eval results file) or run_episode's output "
    "({'result': ..., 'trajectory': ...})"
)


class Score(TypedDict):
    """One metric of an evaluator, as LangSmith reads it (``score`` is ``None`` when unknown)."""

    key: str
    score: float | None
    comment: str


class Scores(TypedDict):
    """Several metrics of one evaluator."""

    results: list[Score]


Evaluator = Callable[..., Score | Scores]
"""A per-example or summary evaluator of this module."""

ExampleFields = Mapping[str, object]
"""An example's ``inputs`` or ``outputs``: read by key, the values checked where read."""


def _episode(outputs: ExampleFields) -> MatchLine | EpisodeLine | FailedLine:
    """The episode as a results record with ``game``, ``seats`` and ``status``.

    Raises:
        ValueError: The outputs are not an episode (the message says what is accepted),
            or do not fit a match record (:func:`validate_line` names what is wrong).
    """
    if not isinstance(outputs, Mapping):
        raise ValueError(f"outputs must be a mapping: {_ACCEPTED}; got {type(outputs).__name__}")
    if outputs.get("status") == "error":
        return _checked({"kind": "match", **outputs})
    result = outputs.get("result")
    if not isinstance(result, Mapping) or "returns" not in result:
        raise ValueError(f"outputs have no 'result' with 'returns': expected {_ACCEPTED}")
    game = outputs.get("game") or (result.get("record") or {}).get("game")
    if not game:
        raise ValueError(
            f"outputs name no game: expected 'game' or result['record']['game'] (in {_ACCEPTED})"
        )
    seats = outputs.get("seats") or [f"seat {i}" for i in range(len(result["returns"]))]
    if not isinstance(seats, Iterable):
        raise ValueError(f"outputs['seats'] = {seats!r}: expected a list of player names")
    record = {"kind": "match", **outputs, "game": game, "seats": list(seats)}
    if outputs.get("status") is not None:
        record["status"] = outputs["status"]
    return _checked(record)


def _checked(record: dict[str, object]) -> MatchLine | EpisodeLine | FailedLine:
    if record.get("kind") not in ("match", "episode"):
        raise ValueError(f"outputs are a {record.get('kind')!r} record: expected {_ACCEPTED}")
    line = validate_line(record)
    if line["kind"] == "round":  # not reached: the kind was checked above
        raise ValueError(f"outputs are a round record: expected {_ACCEPTED}")
    return line


def _evaluated_seats(record: MatchLine | EpisodeLine, inputs: ExampleFields | None) -> list[int]:
    seats = record["seats"]
    inputs = inputs or {}
    if inputs.get("seat") is not None:
        seat = inputs["seat"]
        if not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise ValueError(f"inputs['seat'] = {seat!r}: accepted a seat index 0-{len(seats) - 1}")
        return [seat]
    if inputs.get("player") is not None:
        found = [i for i, name in enumerate(seats) if name == inputs["player"]]
        if not found:
            raise ValueError(
                f"inputs['player'] = {inputs['player']!r} holds no seat; the seats are {seats}"
            )
        return found
    return [0]


def _renamed(record: MatchLine | EpisodeLine, evaluated: Sequence[int]) -> MatchLine | EpisodeLine:
    """The record with the evaluated seats as one player and every other seat its own."""
    seats = [
        EVALUATED if i in evaluated else f"other seat {i}" for i in range(len(record["seats"]))
    ]
    renamed = record.copy()
    renamed["seats"] = seats
    return renamed


def _row(
    outputs: ExampleFields, inputs: ExampleFields | None, scoring: Scoring | None
) -> tuple[PlayerRow | None, str]:
    """The report's row of the evaluated seats in one episode (``None`` if it failed)."""
    record = _episode(outputs)
    if is_failed(record):
        return None, f"the episode failed: {record.get('error', 'no error message')}"
    evaluated = _evaluated_seats(record, inputs)
    rows = player_rows([_renamed(record, evaluated)], scoring)
    row = next(r for r in rows if r["player"] == EVALUATED)
    names = ", ".join(f"seat {i} ({record['seats'][i]})" for i in evaluated)
    return row, f"{record['game']}: {names}"


def _result(key: str, score: float | None, comment: str) -> Score:
    return {"key": key, "score": score, "comment": comment}


def _fallback_share(row: PlayerRow) -> float | None:
    return row["fallbacks"] / row["decisions"] if row["decisions"] else None


def _win_rate(row: PlayerRow) -> float:
    return (row["wins"] + row["draws"] / 2) / row["matches"]


def outcome(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
    *,
    scoring: Scoring | None = None,
) -> Score:
    """``O`` of the evaluated seat: its return over the game's scale (GAMEBoT's R/T).

    Args:
        inputs: May name the evaluated ``seat`` or ``player``.
        outputs: The episode.
        reference_outputs: Not used (the game's rules are the reference).
        scoring: O's scale and which answers I reads (default: the paper's).
    """
    row, about = _row(outputs, inputs, scoring)
    if row is None:
        return _result("O", None, about)
    return _result(
        "O", float(row["O"]), f"{about}: W-D-L {row['wins']}-{row['draws']}-{row['losses']}"
    )


def win(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
) -> Score:
    """``win``: 1 for a win, 0.5 for a draw, 0 for a loss (the mean over several seats)."""
    row, about = _row(outputs, inputs, None)
    if row is None:
        return _result("win", None, about)
    return _result("win", _win_rate(row), about)


def intermediate(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
    *,
    scoring: Scoring | None = None,
) -> Scores:
    """``I`` (the mean over scored subproblems) and ``I_P<k>`` per subproblem.

    ``None`` when the seat answered no subproblem (a non-LLM player, a game without
    subproblems).
    """
    row, about = _row(outputs, inputs, scoring)
    if row is None:
        return {"results": [_result("I", None, about)]}
    if row["I"] is None and not row["I_sub"]:
        return {"results": [_result("I", None, f"{about}: no subproblem answers to score")]}
    results = [_result("I", row["I"], f"{about}: {row['decisions']} decision(s)")]
    for index, value in sorted(row["I_sub"].items()):
        results.append(_result(f"I_P{index}", float(value), about))
    return {"results": results}


def invalid_rate(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
) -> Score:
    """Share of decisions whose first answer named no legal move."""
    row, about = _row(outputs, inputs, None)
    if row is None:
        return _result("invalid_rate", None, about)
    if not row["decisions"]:
        return _result("invalid_rate", None, f"{about}: no decisions")
    return _result(
        "invalid_rate", float(row["invalid_rate"]), f"{about}: {row['decisions']} decision(s)"
    )


def fallback_rate(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
) -> Score:
    """Share of decisions settled by the loop's fallback (no usable answer after re-asks)."""
    row, about = _row(outputs, inputs, None)
    if row is None:
        return _result("fallback_rate", None, about)
    share = _fallback_share(row)
    return _result("fallback_rate", share, f"{about}: {row['fallbacks']} fallback(s)")


def _family_of_episode(
    record: MatchLine | EpisodeLine, seat: int
) -> tuple[str, dict[str, object], Headline | None]:
    """``(family name, metrics, headline)`` of one seat of an episode."""
    result = record["result"]
    if "record" not in result:
        raise ValueError(
            "outputs have no result['record'] (the game session: game, options, seed, "
            f"actions), which family metrics are computed from; expected {_ACCEPTED}"
        )
    session = GameSession.from_dict(result["record"])
    family = family_of(session.game.id)
    metrics = family.episode_metrics(session, counters_of(result, seat))
    if family.decision_metrics is not None:
        metrics.update(family.decision_metrics(decisions_of(record.get("trajectory", []), seat)))
    return family.name, metrics, family.headline


def _agent_seat(
    record: MatchLine | EpisodeLine,
    inputs: ExampleFields | None = None,
    seats: Sequence[int] | None = None,
) -> int:
    """Seat 0: the families score the evaluated agent of an ``eval`` run, which sits there."""
    seats = _evaluated_seats(record, inputs) if seats is None else seats
    if list(seats) != [0]:
        raise ValueError(
            f"family metrics score seat 0 (the agent of an eval run); the example names "
            f"seat(s) {list(seats)} of {record['seats']}"
        )
    return 0


def _numeric(value: object) -> TypeIs[bool | int | float | None]:
    return value is None or isinstance(value, (bool, int, float))


def family_metrics(
    inputs: ExampleFields | None,
    outputs: ExampleFields,
    reference_outputs: ExampleFields | None = None,
) -> Scores:
    """The paper's per-episode metrics of the evaluated seat, as ``<family>.<metric>``.

    EvoEmpirBench (``maze.Suc.Rate``-style success, score, steps ...), Minesweeper
    (win, steps, invalid steps, solver checks), SmartPlay, Crafter; games without a
    paper table give ``generic.return``, ``generic.steps``. Numbers and booleans (as 0/1)
    only; nested values such as Crafter's achievement counts are left to the results file.

    Raises:
        ValueError: An evaluated seat other than 0 (the families score the agent of an
            ``eval`` run, which sits there), or an episode without its game session.
    """
    record = _episode(outputs)
    if is_failed(record):
        about = f"the episode failed: {record.get('error', 'no error message')}"
        return {"results": [_result("family", None, about)]}
    name, metrics, _ = _family_of_episode(record, _agent_seat(record, inputs))
    about = f"{record['game']}: seat 0 ({record['seats'][0]})"
    return {
        "results": [
            _result(f"{name}.{key}", None if value is None else float(value), about)
            for key, value in metrics.items()
            if _numeric(value)
        ]
    }


def _finished(
    inputs: Sequence[ExampleFields | None], outputs: Sequence[ExampleFields]
) -> tuple[list[tuple[MatchLine | EpisodeLine, list[int]]], int]:
    episodes: list[tuple[MatchLine | EpisodeLine, list[int]]] = []
    failed = 0
    if len(inputs) != len(outputs):
        raise ValueError(f"{len(inputs)} inputs for {len(outputs)} outputs: expected one each")
    for given, output in zip(inputs, outputs, strict=True):
        record = _episode(output)
        if is_failed(record):
            failed += 1
            continue
        episodes.append((record, _evaluated_seats(record, given)))
    return episodes, failed


def summary_metrics(
    inputs: Sequence[ExampleFields | None], outputs: Sequence[ExampleFields]
) -> Scores:
    """Over an experiment, per game: the evaluated player's O, I, win rate and answer rates.

    The figures are :func:`~langgraph_games.eval.scoring.metrics.player_rows`' row over
    all the episodes (I is micro-F1 over every decision), the same as the arena report
    gives the player over the same matches. Keys are ``O``, ``I``, ``I_P<k>``,
    ``win_rate``, ``invalid_rate``, ``fallback_rate``, prefixed with ``<game> `` when
    the experiment holds several games. Failed episodes are left out and counted. (A
    summary evaluator may take no other argument: see :func:`evaluators_for` for
    another scoring.)
    """
    return _summary_metrics(inputs, outputs, None)


def _summary_metrics(
    inputs: Sequence[ExampleFields | None],
    outputs: Sequence[ExampleFields],
    scoring: Scoring | None,
) -> Scores:
    episodes, failed = _finished(inputs, outputs)
    games: dict[str, list[MatchLine | EpisodeLine | FailedLine]] = {}
    for record, seats in episodes:
        games.setdefault(str(record["game"]), []).append(_renamed(record, seats))
    note = f"; {failed} failed episode(s) left out" if failed else ""
    results = []
    for game, records in sorted(games.items()):
        prefix = f"{game} " if len(games) > 1 else ""
        row = next(r for r in player_rows(records, scoring) if r["player"] == EVALUATED)
        about = f"{game}: {row['matches']} episode(s){note}"
        figures: list[tuple[str, float | None]] = [
            ("O", float(row["O"])),
            ("I", row["I"]),
            *((f"I_P{k}", float(v)) for k, v in sorted(row["I_sub"].items())),
            ("win_rate", _win_rate(row)),
            ("invalid_rate", float(row["invalid_rate"]) if row["decisions"] else None),
            ("fallback_rate", _fallback_share(row)),
        ]
        results += [_result(prefix + key, value, about) for key, value in figures]
    if not results:
        results.append(_result("O", None, f"no finished episode{note}"))
    return {"results": results}


def summary_family(
    inputs: Sequence[ExampleFields | None], outputs: Sequence[ExampleFields]
) -> Scores:
    """Over an experiment: each family's headline figures (the report's plotted figures).

    E.g. ``maze success rate %``, ``minesweeper win rate %``, SmartPlay's normalised
    score per game, ``crafter Crafter score %``. Failed episodes are left out and counted.
    """
    episodes, failed = _finished(inputs, outputs)
    families: dict[str, list[dict[str, object]]] = {}
    headlines: dict[str, Headline | None] = {}
    for record, seats in episodes:
        name, metrics, headline = _family_of_episode(record, _agent_seat(record, seats=seats))
        families.setdefault(name, []).append(metrics)
        headlines[name] = headline
    note = f"; {failed} failed episode(s) left out" if failed else ""
    results = []
    for name, rows in sorted(families.items()):
        headline = headlines[name]
        if headline is None:
            continue
        about = f"{name}: {len(rows)} episode(s){note}"
        results += [_result(f"{name} {key}", value, about) for key, value in headline(rows).items()]
    if not results:
        results.append(_result("family", None, f"no finished episode with a headline{note}"))
    return {"results": results}


EVALUATORS: tuple[Evaluator, ...] = (
    outcome,
    win,
    intermediate,
    invalid_rate,
    fallback_rate,
)
"""The per-example evaluators of any episode (add :func:`family_metrics` for one-agent games)."""

SUMMARY_EVALUATORS: tuple[Evaluator, ...] = (summary_metrics,)
"""The summary evaluators of any experiment (add :func:`summary_family` for one-agent games)."""


def evaluators_for(
    scoring: Scoring,
) -> tuple[list[Evaluator], list[Evaluator]]:
    """``(evaluators, summary evaluators)`` reading O and I with ``scoring``.

    ExampleFields:
        >>> per_example, summary = evaluators_for(Scoring(intermediate="last"))
        >>> [f.__name__ for f in per_example], [f.__name__ for f in summary]
        (['outcome', 'win', 'intermediate', 'invalid_rate', 'fallback_rate'], ['summary_metrics'])
    """

    def outcome_scored(
        inputs: ExampleFields | None,
        outputs: ExampleFields,
        reference_outputs: ExampleFields | None = None,
    ) -> Score:
        return outcome(inputs, outputs, scoring=scoring)

    def intermediate_scored(
        inputs: ExampleFields | None,
        outputs: ExampleFields,
        reference_outputs: ExampleFields | None = None,
    ) -> Scores:
        return intermediate(inputs, outputs, scoring=scoring)

    def summary_scored(
        inputs: Sequence[ExampleFields | None], outputs: Sequence[ExampleFields]
    ) -> Scores:
        return _summary_metrics(inputs, outputs, scoring)

    outcome_scored.__name__ = "outcome"
    intermediate_scored.__name__ = "intermediate"
    summary_scored.__name__ = "summary_metrics"
    return [outcome_scored, win, intermediate_scored, invalid_rate, fallback_rate], [summary_scored]


def run_evaluators(
    evaluators: Sequence[Evaluator] = EVALUATORS,
) -> list[RunEvaluator]:
    """The evaluators as LangSmith ``RunEvaluator`` objects (``evaluate_run(run, example)``)."""
    return [run_evaluator(_as_plain_dict(function)) for function in evaluators]


def _as_plain_dict(function: Evaluator) -> Callable[..., dict[str, object]]:
    """``function`` returning a plain ``dict`` (what ``run_evaluator`` is typed to take).

    The wrapper keeps the function's name and signature, which LangSmith reads to pass
    ``inputs``, ``outputs`` and ``reference_outputs``.
    """

    @functools.wraps(function)
    def plain(*args: object, **kwargs: object) -> dict[str, object]:
        return dict(function(*args, **kwargs))

    return plain
