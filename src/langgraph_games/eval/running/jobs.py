"""One episode of a run: the job, the players built for it, and its record.

Shared by the one-process executor (:mod:`~langgraph_games.eval.running.executor`) and its
worker processes (:mod:`~langgraph_games.eval.running.workers`): both play a job the same way,
so the records are the same.

An LLM strategy's player (and its compiled graph) is built once per process for each spec,
game and settings, and serves all of the run's episodes, also at once: players keep no
per-episode state (the episode loop passes each seat's memory in its requests). Search
players are built per episode, because their seed is the episode's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from langgraph_games._json import JsonObject
from langgraph_games.eval.running.records import JobFields, PlayedRecord, RunFields
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import finished_result
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.players.base import Decision, DecisionRequest, Player
from langgraph_games.players.entry import PlayerRecipe
from langgraph_games.players.spec import PlayerSpec

__all__ = [
    "START_SPACING_S",
    "Episode",
    "Job",
    "PlayerCache",
    "error_record",
    "finish_record",
    "job_record",
    "play_job",
]

START_SPACING_S = 0.001
"""Between the starts of episodes begun at once: about one decision's CPU.

Episodes started together ask their models together; against endpoints of similar latency
they keep asking together, and each round's decisions then wait for one another's CPU.
Spacing the starts by what one decision costs lets each be worked on as its reply lands
(`benchmarks/concurrency.py`: 59 -> 69% of the ideal with 64 matches at 100 ms in one
process, 91 -> 97% at 1 s). It was 2 ms while a decision cost about 1.8 ms of CPU; at
about 1.1 ms, 1 ms gave 88.5-89.8% with 64 six-move matches on two workers against
86.8-88.9% for 0.8 ms and 88.2-88.9% for 1.2 ms.
"""


@dataclass(frozen=True)
class Job:
    """One episode to play: its record id, each seat's resolved player, seed, extras, game.

    The seats are specs resolved once at the top of the run
    (:func:`~langgraph_games.eval.running.players.resolve`); the record names each by its
    spec as written.
    """

    job_id: str
    seats: list[PlayerRecipe]
    seed: int
    extra: JobFields
    game: Game[GameState]


class PlayerCache:
    """The players of a process: LLM strategies built once, search players per episode."""

    def __init__(self) -> None:
        self._built: dict[tuple[int, str, str], Player] = {}

    def get(self, recipe: PlayerRecipe, game: Game[GameState], seed: int) -> Player:
        """The player of ``recipe`` for an episode of ``game`` with seed ``seed``."""
        if recipe.model is None:
            return recipe.build(game, seed=seed)
        key = (
            id(recipe),
            game.versioned_id,
            json.dumps(game.options_dict(), sort_keys=True, default=repr),
        )
        player = self._built.get(key)
        if player is None:
            player = self._built[key] = recipe.build(game)
        return player


class _Counted(Player):
    """A player whose decisions are reported to ``hook`` (for the decisions progress bar)."""

    def __init__(self, inner: Player, hook: Callable[[Decision], None]) -> None:
        self.inner = inner
        self.name = inner.name
        self.instant = inner.instant
        self.interactive = inner.interactive
        self.hook = hook

    async def adecide(self, request: DecisionRequest) -> Decision:
        decision = await self.inner.adecide(request)
        self.hook(decision)
        return decision

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()


async def play_job(
    job: Job,
    base: RunFields,
    options: EpisodeOptions,
    built: PlayerCache,
    hook: Callable[[Decision], None] | None = None,
    truths: Mapping[int, Sequence[str]] | None = None,
) -> PlayedRecord:
    """Play ``job`` and return its record (an episode's failure is a ``status: "error"`` record).

    Args:
        job: The episode.
        base: Fields the record starts with.
        options: Episode options.
        built: This process's players.
        hook: Called with each decision (progress).
        truths: Lessons per seat.
    """
    started = time.time()
    record = job_record(
        base,
        job.extra,
        game=job.game.versioned_id,
        options=job.game.options_dict(),
        seed=job.seed,
        seats=[recipe.spec.label for recipe in job.seats],
        started_at=started,
    )
    try:
        players = [
            built.get(recipe, job.game, job.seed * 10 + seat)
            for seat, recipe in enumerate(job.seats)
        ]
        if hook is not None:
            players = [_Counted(player, hook) for player in players]
        episode = await run_episode(
            job.game,
            players,
            seed=job.seed,
            options=options,
            truths=truths,
        )
    except Exception as exc:  # noqa: BLE001 - recorded on this episode; the others go on
        record["error"] = f"{type(exc).__name__}: {exc}"
    else:
        result = finished_result(episode)
        record.update(
            {"status": result["status"], "result": result, "trajectory": episode["trajectory"]}
        )
    record["duration_s"] = time.time() - started
    return record


def job_record(
    base: RunFields,
    extra: JobFields,
    *,
    game: str,
    seed: int,
    seats: list[str],
    options: JsonObject | None = None,
    started_at: float | None = None,
    error: str | None = None,
) -> PlayedRecord:
    """A job's record as it starts: the run's and the job's fields, then the episode's.

    Its ``status`` is ``"error"`` (with ``error`` when given) until the episode finishes; the
    keys come in the order every version wrote them.
    """
    # A TypedDict spread may hold more keys than its type names: these two are exact.
    record = cast("PlayedRecord", {**base, **extra, "game": game})
    if options is not None:
        record["options"] = options
    record["seed"] = seed
    record["seats"] = seats
    if started_at is not None:
        record["started_at"] = started_at
    record["status"] = "error"
    if error is not None:
        record["error"] = error
    return record


def finish_record(
    job: Job,
    base: RunFields,
    record: PlayedRecord,
    finish: Callable[[PlayedRecord, Game[GameState]], None] | None,
) -> PlayedRecord:
    """``record`` with the fields ``finish`` adds (an error's record is kept as it is).

    A ``finish`` that fails makes the episode's error record, naming the failure, in one
    process and in workers alike (a run goes on; a rerun plays the episode again).
    """
    if finish is None or record["status"] == "error":
        return record
    try:
        finish(record, job.game)
    except Exception as exc:  # noqa: BLE001 - recorded on this episode
        return error_record(base, job, f"finishing the record failed: {type(exc).__name__}: {exc}")
    return record


class _Seat(Protocol):
    @property
    def spec(self) -> PlayerSpec:
        """The seat's parsed spec."""


class Episode(Protocol):
    """What an episode's error record is made of: a :class:`Job`, or a worker's task."""

    @property
    def extra(self) -> JobFields:
        """The job's own record fields."""

    @property
    def game(self) -> Game[GameState]:
        """The game played."""

    @property
    def seed(self) -> int:
        """The episode's seed."""

    @property
    def seats(self) -> Sequence[_Seat]:
        """Each seat, with its parsed spec."""


def error_record(base: RunFields, episode: Episode, why: str) -> PlayedRecord:
    """The ``status: "error"`` record of ``episode``, for the reason ``why``."""
    return job_record(
        base,
        episode.extra,
        game=episode.game.versioned_id,
        seed=episode.seed,
        seats=[seat.spec.label for seat in episode.seats],
        error=why,
    )
