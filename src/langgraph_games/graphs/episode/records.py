"""The shapes the episode loop writes: decisions, steps, trajectories and results.

These are the types every writer and reader of a trajectory shares (results files embed
them, see :mod:`langgraph_games.eval.running.records`). Keys are required where the loop
always writes them and ``NotRequired`` where it does not. The loop's own output is trusted;
files are validated once when read (``load_results``), not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_origin

from langgraph.types import Checkpointer
from pydantic import TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict, get_type_hints, is_typeddict

from langgraph_games.games.base import Event
from langgraph_games.games.subproblems import ScoreCounts
from langgraph_games.players.records import AttemptEntry

__all__ = [
    "AttemptEntry",
    "DecisionRecord",
    "EpisodeOutput",
    "EpisodeResult",
    "PendingInterrupt",
    "SeatCounters",
    "SessionRecord",
    "Step",
    "SubproblemCounts",
    "Trajectory",
    "Turn",
    "check_record",
    "finished_result",
    "first_answers",
    "retried_scores",
]


class SessionRecord(TypedDict):
    """A game session as JSON (``GameSession.to_dict``): enough to rebuild it.

    Each action is the single mover's move, or a joint move by seat (``{"0": ..., "1":
    ...}``). ``options`` may be left out of a record given to the graph by hand.
    """

    game: str
    options: NotRequired[dict[str, Any]]
    seed: int
    actions: list[str | dict[str, str]]


class DecisionRecord(TypedDict):
    """One seat's decision at one step: every attempt, and what was played.

    Each attempt keeps its own intermediate answers and their scores, once: the first
    attempt's are what the model answered unprompted (what I scores, see
    :func:`first_answers`), the later ones were given after feedback
    (:func:`retried_scores`). ``fallback`` names the loop's fallback rule when it applied;
    ``forfeit`` is true when the seat forfeited.

    Files written by earlier versions also repeat the first attempt's ``intermediate`` and
    ``scores`` here, and the re-asked attempts' scores as ``retry_scores``; a hand-made
    decision may have no attempts and only its own ``scores``. The readers above take
    either form.
    """

    attempts: list[AttemptEntry]
    fallback: str | None
    forfeit: bool
    action: str | None
    status: str
    latency_s: float
    usage: dict[str, int]
    intermediate: NotRequired[dict[str, str]]
    scores: NotRequired[list[dict[str, Any]]]
    retry_scores: NotRequired[list[dict[str, Any]]]


def first_answers(decision: DecisionRecord) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(intermediate answers, their scores)`` of the decision's first attempt.

    A decision without attempts (hand-made) gives its own ``intermediate`` and ``scores``.

    Example:
        >>> attempt = {"intermediate": {"1": "None"}, "scores": [{"index": 1}]}
        >>> first_answers({"attempts": [attempt, {"intermediate": {}, "scores": []}]})
        ({'1': 'None'}, [{'index': 1}])
    """
    attempts = decision["attempts"]
    if attempts:
        return attempts[0]["intermediate"], attempts[0]["scores"]
    return decision.get("intermediate") or {}, decision.get("scores") or []


def retried_scores(decision: DecisionRecord) -> list[dict[str, Any]]:
    """The scores of the re-asked attempts, each with its ``attempt`` number (1 and up)."""
    return [
        {**score, "attempt": number}
        for number, attempt in enumerate(decision["attempts"][1:], start=1)
        for score in attempt["scores"]
    ]


class Turn(TypedDict):
    """Who acts at a step and what they observed (graph state between decide and apply)."""

    step: int
    players: list[int]
    observations: dict[str, str]


class Step(TypedDict):
    """One step of a trajectory.

    Keys of ``observations``, ``decisions`` and ``actions`` are seats as strings. A
    forfeit's step has no actions and one ``forfeit`` event.
    """

    step: int
    turn: int
    observations: dict[str, str]
    decisions: dict[str, DecisionRecord]
    actions: dict[str, str]
    events: list[Event]


Trajectory = list[Step]
"""Every step of an episode, in order."""


class SubproblemCounts(TypedDict):
    """A seat's scored intermediate answers over an episode, summed per subproblem.

    Keyed by subproblem index (a string, as JSON keys are): ``first`` sums the first
    attempt of every decision (what I scores), ``retried`` the re-asked attempts. Reports
    combine these with :func:`~langgraph_games.games.subproblems.aggregate_counts` instead
    of reading every step of the trajectory.
    """

    first: dict[str, ScoreCounts]
    retried: dict[str, ScoreCounts]


class SeatCounters(TypedDict):
    """Per-seat counters of an episode (``summarize_players``).

    ``subproblems`` sums the seat's scored intermediate answers (empty tables for a
    game without subproblems or a player that answers none).
    """

    decisions: int
    first_try_valid: int
    invalid_answers: int
    ambiguous_answers: int
    retries: int
    fallbacks: int
    defaulted: int
    model_calls: int
    input_tokens: int
    output_tokens: int
    latency_s: float
    subproblems: SubproblemCounts


class EpisodeResult(TypedDict):
    """How an episode ended: ``status`` is ``finished``, ``truncated`` or ``forfeit``."""

    status: str
    record: SessionRecord
    returns: list[float]
    winners: list[int]
    steps: int
    forfeit: int | None
    players: list[SeatCounters]


class PendingInterrupt(TypedDict):
    """An interrupt an episode is waiting on: its id and the payload it raised."""

    id: str
    value: object


class EpisodeOutput(TypedDict):
    """What :func:`~langgraph_games.graphs.episode.run.run_episode` returns.

    ``result`` is ``None`` while the episode waits on a person; then ``interrupt``,
    ``thread_id`` and ``checkpointer`` say how to resume it.
    """

    result: EpisodeResult | None
    trajectory: Trajectory
    interrupt: NotRequired[PendingInterrupt]
    thread_id: NotRequired[str]
    checkpointer: NotRequired[Checkpointer]


def finished_result(output: EpisodeOutput) -> EpisodeResult:
    """The result of an episode that ran to its end.

    Raises:
        RuntimeError: The episode stopped to wait on a person (a human seat's
            interrupt); unattended loops cannot answer it.
    """
    result = output["result"]
    if result is None:
        raise RuntimeError(
            "the episode stopped to wait on a person (a human seat); unattended runs "
            "cannot answer it: resume it with run_episode(..., resume=...)"
        )
    return result


_NOT_REQUIRED: Any = NotRequired
"""The marker of optional keys, as ``get_origin`` returns it."""


def check_record(
    adapter: TypeAdapter[Any], root: type[Any], record: Mapping[str, Any], what: str
) -> None:
    """Check ``record`` against the TypedDict ``root`` (strictly, with ``adapter`` of it).

    Files are validated with this once, where they are read; extra keys are allowed (the
    record is kept as read). A key from the record that is long or not printable is
    quoted and cut in the message, which stays one line.

    Raises:
        ValueError: ``"<what> without <keys>"`` (a missing nested record is named by its
            required keys, e.g. ``result.returns, result.players``) and/or ``"with <key>
            <problem>"``, the first few of each.
    """
    try:
        adapter.validate_python(record, strict=True)
    except ValidationError as exc:
        missing: list[str] = []
        wrong: list[str] = []
        for error in exc.errors():
            loc = tuple(_key(part) for part in error["loc"])
            if error["type"] == "missing":
                missing += _required_paths(root, loc)
            else:
                wrong.append(f"{'.'.join(loc)} {error['msg'].lower()}")
        parts = [f"without {', '.join(missing[:6])}"] if missing else []
        parts += [f"with {problem}" for problem in wrong[:3]]
        raise ValueError(f"{what} {'; '.join(parts)}") from None


def _key(part: str | int) -> str:
    """A key of a message's path: as it is when short and printable, else quoted and cut."""
    text = str(part)
    if text.isprintable() and len(text) <= 40:
        return text
    quoted = ascii(text)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."


def _required_paths(root: type[Any], loc: tuple[str, ...]) -> list[str]:
    """``loc`` as dotted path; a missing record-typed key is named by its required keys."""
    hint: Any = root
    for part in loc:
        hints = getattr(hint, "__annotations__", None)
        if not is_typeddict(hint) or hints is None:
            return [".".join(loc)]
        hint = get_type_hints(hint).get(part)
    if is_typeddict(hint):
        hints = get_type_hints(hint, include_extras=True)
        keys = [k for k, t in hints.items() if get_origin(t) is not _NOT_REQUIRED]
        return [".".join((*loc, k)) for k in keys]
    return [".".join(loc)]
