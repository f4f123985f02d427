"""What worker slots share, whatever runs them: portable seats, endpoint shares, tasks.

:func:`~langgraph_games.eval.running.executor.run_jobs` with ``workers > 1`` (or the Ray
executor) plays its episodes in other processes, and the parent stays the one writer (see
:mod:`~langgraph_games.eval.running.workers_dispatch`). This module is what every backend
needs on both sides: the picklable description of a run (:class:`Setup`, :class:`Task`), the
slot's side that plays tasks (:class:`SlotPlayer`), and the split of an endpoint's bounds.

What crosses to a worker is picklable descriptions, never live players: per seat its parsed
spec, validated settings and where its chat model comes from (a model loaded from a spec is
named by that spec and loaded again, once, in each worker with the run's model settings; a
model object given directly, such as a scripted fake, is pickled). Each worker resolves every
seat once and builds an LLM strategy's player once per game, as the one-process executor does.
A run on the embedded local model gives each worker's llama.cpp ``cores // workers`` threads.

An endpoint's bound on concurrent model calls (``limiter_for(model).set_limit(n)`` in the
parent) is split between the worker slots so that the shares sum to ``n`` (slot ``i`` gets
``n // W`` plus one for the first ``n % W``); with fewer call slots than workers, only ``n``
workers start. The calls in flight to an endpoint from all workers together therefore never
exceed its bound, with no round trip to the parent per call. Its requests per second
(``--rate-limit``) are split evenly the same way, and its longest ``Retry-After`` wait is
kept. (A split, not a semaphore held by the parent: a ``multiprocessing.Manager`` semaphore
would cost a round trip to another process per model call, the very per-call work the
workers are there to spread; the price is that a worker cannot borrow another's idle slots.)
"""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from langchain_core.language_models.chat_models import BaseChatModel
from typing_extensions import NotRequired, TypedDict

from langgraph_games.eval.running.jobs import (
    Job,
    PlayerCache,
    error_record,
    finish_record,
    play_job,
)
from langgraph_games.eval.running.players import HeldPlayer, ModelPool
from langgraph_games.eval.running.records import JobFields, PlayedRecord, RunFields
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.models.limiter import limiter_for
from langgraph_games.models.ratelimit import (
    max_retry_wait_of,
    rate_limit_of,
    set_max_retry_wait,
    set_rate_limit,
)
from langgraph_games.players import registry
from langgraph_games.players.base import Decision
from langgraph_games.players.entry import PlayerEntry, PlayerRecipe
from langgraph_games.players.errors import UnknownPlayerError
from langgraph_games.players.spec import PlayerSettings, PlayerSpec

__all__ = [
    "MAX_ATTEMPTS",
    "Backend",
    "EndpointShare",
    "Event",
    "Finished",
    "Lost",
    "PortableSeat",
    "Setup",
    "SetupFields",
    "SlotPlayer",
    "Task",
    "Usage",
    "WorkerStartError",
    "default_workers",
    "endpoint_shares",
    "is_embedded",
    "portable",
    "prepare",
    "split_limit",
]

THREADS_ENV = "LANGGRAPH_GAMES_LLAMA_THREADS"
"""The embedded model's thread count chosen by hand (then workers do not set their own)."""

MAX_ATTEMPTS = 3
"""How many times an episode is sent to a worker before a lost worker counts as its error."""


class WorkerStartError(RuntimeError):
    """A worker could not start; the message says why and what to change.

    Raised at the first worker that ends before it is ready, never retried: a worker that
    fails while importing fails the same way each time it is started again.
    """


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def split_limit(limit: int, workers: int) -> list[int]:
    """Shares of an endpoint's ``limit`` for ``workers`` workers: they sum to ``limit``.

    Example:
        >>> split_limit(5, 2), split_limit(8, 4), split_limit(2, 3)
        ([3, 2], [2, 2, 2, 2], [1, 1])
    """
    used = min(workers, limit)
    return [limit // used + (1 if i < limit % used else 0) for i in range(used)]


@dataclass(frozen=True)
class PortableSeat:
    """A seat's resolved spec as a worker gets it: spec, settings and model source.

    Attributes:
        spec: The parsed spec.
        settings: The validated settings.
        model: ``None`` (no model), a model spec to load in the worker, or a model object.
        key: What tells seats apart in a worker (spec, settings and model), computed once
            here: each task brings its own copy of its seats.
        entry: The registry entry itself, when it pickles (a player object's, or one
            registered with a module-level builder: a worker may not have registered it);
            ``None``: the worker finds it by name.
    """

    spec: PlayerSpec
    settings: PlayerSettings
    model: str | BaseChatModel | None
    key: str = ""
    entry: PlayerEntry | None = None

    def recipe(self, pool: ModelPool) -> PlayerRecipe:
        """The recipe again, in a worker, with its model from ``pool`` (or as sent).

        Raises:
            UnknownPlayerError: The entry was not sent and this process has not
                registered it (the message says how to make it reach the workers).
        """
        model = pool.get(self.model) if isinstance(self.model, str) else self.model
        entry = self.entry
        if entry is None:
            try:
                entry = registry.player_entry(self.spec.name)
            except UnknownPlayerError as exc:
                raise UnknownPlayerError(
                    self.spec.name,
                    f"player {self.spec.name!r} is not registered in this worker process: "
                    "register it where its module is imported (not under "
                    "'if __name__ == \"__main__\":'), give its entry a module-level builder "
                    "(so the entry is sent), or run with workers=1",
                ) from exc
        return PlayerRecipe(spec=self.spec, entry=entry, settings=self.settings, model=model)


@dataclass(frozen=True)
class Setup:
    """What every worker slot gets once, when it starts.

    Attributes:
        base: Fields every record starts with.
        options: Episode options.
        model_settings: The run's model settings (a named model is loaded with them).
        endpoints: Each named model's share of its endpoint's bounds, by model spec.
        truths: Lessons per seat.
        progress: Report each decision's usage (for the decisions bar).
        slots: How many worker slots the run has.
        finish: Adds fields to each played record (not an error's) with its game, in
            the worker, before the record is sent (the evaluation's metrics replay the
            episode: work the one writer should not do for every worker).
    """

    base: RunFields
    options: EpisodeOptions
    model_settings: dict[str, object]
    endpoints: dict[str, EndpointShare]
    truths: dict[int, list[str]] | None
    progress: bool
    slots: int = 1
    finish: Callable[[PlayedRecord, Game[GameState]], None] | None = None


class SetupFields(TypedDict):
    """The run's part of a :class:`Setup` (:func:`prepare` adds the models and slots)."""

    base: RunFields
    options: EpisodeOptions
    truths: NotRequired[dict[int, list[str]] | None]
    progress: NotRequired[bool]
    finish: NotRequired[Callable[[PlayedRecord, Game[GameState]], None] | None]


@dataclass(frozen=True)
class Task:
    """One episode as a worker slot gets it (``index``: its place in the run's jobs).

    ``truths``: lessons per seat of this episode alone (``None``: the setup's); a training
    run's truths change between rounds, an evaluation run's do not.
    """

    index: int
    job_id: str
    seats: list[PortableSeat]
    seed: int
    extra: JobFields
    game: Game[GameState]
    truths: dict[int, list[str]] | None = None

    def lost_record(self, base: RunFields, why: str) -> PlayedRecord:
        """The ``status: "error"`` record of this episode, lost for the reason ``why``."""
        return error_record(base, self, why)


class SlotPlayer:
    """A worker slot's side, in its own process: the slot's models, players and bounds.

    Every backend's worker (a spawned process, a Ray actor) keeps one and calls
    :meth:`play` for each task on its own event loop: each seat is resolved once (a named
    model is loaded once per process, with the slot's share of its endpoint) and an LLM
    strategy's player is built once per game.
    """

    def __init__(self, number: int, setup: Setup) -> None:
        self.number = number
        self.setup = setup
        self.pool = ModelPool(**setup.model_settings)
        self.recipes: dict[str, PlayerRecipe] = {}
        self.built = PlayerCache()
        self.games: dict[tuple[str, str], Game[GameState]] = {}

    def recipe_of(self, seat: PortableSeat) -> PlayerRecipe:
        """The seat's recipe in this process (resolved on first use)."""
        key = seat.key or f"{seat.spec.label}|{seat.settings!r}|{seat.model!r}"
        if key not in self.recipes:
            recipe = self.recipes[key] = seat.recipe(self.pool)
            share = self.setup.endpoints.get(seat.model) if isinstance(seat.model, str) else None
            if recipe.model is not None and share is not None:
                share.apply(recipe.model, self.number)
        return self.recipes[key]

    def game_of(self, task: Task) -> Game[GameState]:
        """One engine per game and options in this process (each task brings a copy).

        Engines cache what they compute (answer patterns, prompts, ground truth); a fresh
        copy per episode started every episode cold, about 1 ms more CPU per model call.
        """
        game = task.game
        key = (game.versioned_id, json.dumps(game.options_dict(), sort_keys=True, default=repr))
        return self.games.setdefault(key, game)

    async def play(
        self, task: Task, on_usage: Callable[[dict[str, float]], None] | None
    ) -> PlayedRecord:
        """Play ``task``; its record (an error record: a seat not resolved, a failed finish)."""
        try:
            seats = [self.recipe_of(seat) for seat in task.seats]
        except Exception as exc:  # noqa: BLE001 - recorded on this episode
            return task.lost_record(self.setup.base, f"{type(exc).__name__}: {exc}")
        hook: Callable[[Decision], None] | None = None
        if on_usage is not None and self.setup.progress:
            usage_hook = on_usage

            def hook(decision: Decision) -> None:
                usage_hook(dict(decision.usage))

        job = Job(task.job_id, seats, task.seed, task.extra, self.game_of(task))
        truths = self.setup.truths if task.truths is None else task.truths
        record = await play_job(job, self.setup.base, self.setup.options, self.built, hook, truths)
        return finish_record(job, self.setup.base, record, self.setup.finish)


def portable(recipe: PlayerRecipe, pool: ModelPool | None) -> PortableSeat:
    """The seat description of ``recipe`` to send to workers.

    A model the pool loaded is named by its spec; any other model object is sent itself.
    """
    named = {id(model): spec for spec, model in (pool.models.items() if pool else [])}
    model: str | BaseChatModel | None = recipe.model
    if recipe.model is not None and id(recipe.model) in named:
        model = named[id(recipe.model)]
    key = f"{recipe.spec.label}|{recipe.settings!r}|{model!r}"
    entry: PlayerEntry | None = recipe.entry
    if not isinstance(recipe.entry.build, HeldPlayer):  # an object's entry must go as it is
        try:
            pickle.dumps(recipe.entry)
        except Exception:  # noqa: BLE001 - a closure builder: the worker finds it by name
            entry = None
    return PortableSeat(recipe.spec, recipe.settings, model, key, entry)


def _checked(seat: PortableSeat) -> PortableSeat:
    """``seat`` if it can be sent to a worker process (a queue would fail silently later)."""
    try:
        pickle.dumps(seat)
    except Exception as exc:
        if seat.entry is not None and isinstance(seat.entry.build, HeldPlayer):
            raise TypeError(
                f"player {seat.spec.label!r} cannot be sent to a worker process: it is an "
                f"object that does not pickle ({type(exc).__name__}: {exc}); run with "
                "workers=1, or register it (register_player) and name it by its spec"
            ) from exc
        raise TypeError(
            f"player {seat.spec.label!r} cannot be sent to a worker process ({exc}): its "
            "model object cannot be pickled; name the model by a spec (the run's model "
            "pool loads it again in each worker) or run with one worker"
        ) from exc
    return seat


@dataclass(frozen=True)
class EndpointShare:
    """An endpoint's bounds as this run's workers share them.

    Attributes:
        calls: Each worker's share of the endpoint's concurrent calls (``None``: unbounded).
        rate: Requests per second of each worker (the endpoint's rate over the workers).
        max_retry_wait: The endpoint's longest ``Retry-After`` wait, as in the parent.
    """

    calls: list[int] | None
    rate: float | None
    max_retry_wait: float

    def apply(self, model: BaseChatModel, number: int) -> None:
        """Give worker ``number``'s model its share of the endpoint."""
        if self.calls is not None:
            limiter_for(model).set_limit(self.calls[number])
        set_rate_limit(model, self.rate)
        set_max_retry_wait(model, self.max_retry_wait)


def endpoint_shares(
    seats: Sequence[PortableSeat], recipes: Sequence[PlayerRecipe], workers: int
) -> dict[str, EndpointShare]:
    """Each named model's bounds in this process, split over ``workers``.

    Returns:
        Shares by model spec; ``len(calls)`` of a bounded endpoint may be below
        ``workers`` (fewer slots than workers), and then only that many workers start.
    """
    shares: dict[str, EndpointShare] = {}
    for seat, recipe in zip(seats, recipes, strict=True):
        if isinstance(seat.model, str) and recipe.model is not None:
            bound = limiter_for(recipe.model).stats().limit
            calls = split_limit(bound, workers) if bound is not None else None
            used = len(calls) if calls else workers
            rate = rate_limit_of(recipe.model)
            shares[seat.model] = EndpointShare(
                calls=calls,
                rate=rate / used if rate else None,
                max_retry_wait=max_retry_wait_of(recipe.model),
            )
    return shares


def is_embedded(seat: PortableSeat) -> bool:
    """Whether ``seat`` plays on the embedded local model (named by a ``local`` spec)."""
    return isinstance(seat.model, str) and seat.model.strip().lower().partition(":")[0] == "local"


def prepare(
    jobs: Sequence[Job],
    *,
    slots: int,
    setup_fields: SetupFields,
    pool: ModelPool | None,
    cores: int | None = None,
) -> tuple[Setup, list[Task], int]:
    """What the worker slots get: their setup, the tasks, and how many slots to start.

    Args:
        jobs: The episodes to play (not empty).
        slots: Worker slots asked for (fewer start when an endpoint has fewer call slots,
            or when there are fewer jobs).
        setup_fields: ``base``, ``options``, ``truths``, ``progress`` and ``finish``.
        pool: The run's models (named models are loaded again in each slot).
        cores: Cores the slots share (default: this machine's); a run on the embedded
            local model gives each slot's llama.cpp ``cores // slots`` threads (at least
            one) unless the run's model settings name ``n_threads`` or
            ``LANGGRAPH_GAMES_LLAMA_THREADS`` is set.

    Raises:
        TypeError: A seat's model object cannot be sent to another process.
    """
    recipes: dict[int, PlayerRecipe] = {}
    seats: dict[int, PortableSeat] = {}
    for job in jobs:
        for recipe in job.seats:
            if id(recipe) not in seats:
                recipes[id(recipe)] = recipe
                seats[id(recipe)] = _checked(portable(recipe, pool))
    endpoints = endpoint_shares(list(seats.values()), list(recipes.values()), slots)
    count = min([slots, len(jobs), *(len(e.calls) for e in endpoints.values() if e.calls)])
    settings = dict(pool.settings) if pool else {}
    chosen = settings.get("n_threads") is not None or os.environ.get(THREADS_ENV)
    if any(is_embedded(seat) for seat in seats.values()) and not chosen:
        settings["n_threads"] = max(1, (cores or default_workers()) // count)
    setup = Setup(
        base=setup_fields["base"].copy(),
        options=setup_fields["options"],
        model_settings=settings,
        endpoints=endpoints,
        truths=setup_fields.get("truths"),
        progress=bool(setup_fields.get("progress")),
        slots=count,
        finish=setup_fields.get("finish"),
    )
    tasks = [
        Task(i, job.job_id, [seats[id(r)] for r in job.seats], job.seed, job.extra, job.game)
        for i, job in enumerate(jobs)
    ]
    return setup, tasks, count


@dataclass(frozen=True)
class Finished:
    """A slot's record of the task ``index`` (and the usage of its decisions, if batched)."""

    slot: int
    index: int
    record: PlayedRecord
    usages: list[dict[str, float]] = field(default_factory=list)


@dataclass(frozen=True)
class Usage:
    """One decision's usage, as it happened in a slot (for the decisions bar)."""

    slot: int
    usage: dict[str, float]


@dataclass(frozen=True)
class Lost:
    """A slot's worker ended; every task out in that slot is lost (``why``: in words)."""

    slot: int
    why: str


Event = Finished | Usage | Lost


class Backend(Protocol):
    """What runs the workers: one per slot, each with its own event loop."""

    def cores(self) -> int:
        """Cores the slots share: ``auto``'s slot count, and the embedded model's threads."""

    def start(self, slot: int, setup: Setup) -> None:
        """Start the worker of ``slot`` (again, after it was lost)."""

    def send(self, slot: int, task: Task) -> None:
        """Hand ``task`` to the worker of ``slot``."""

    def events(self, timeout: float) -> list[Event]:
        """What happened since the last call, waiting up to ``timeout`` s for something."""

    def close(self, *, at_once: bool) -> None:
        """Stop every worker: after their work (``at_once=False``) or now."""
