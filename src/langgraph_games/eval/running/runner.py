"""Evaluation runs: one agent over many episodes of a game, scored by its paper's metrics.

An :class:`EvalSpec` names the game, the agent (any player spec, LLM or not), the
opponents filling other seats (if the game has them), a *sweep* of game options (e.g.
the 30 evaluation maps of a maze level: ``{"map_index": [0, ..., 29]}``), repeats with
successive seeds, and the episode options. Like arenas, runs append one JSON line per
episode to a results file named by the spec's hash, skip what is done on a rerun, and
record failing episodes without stopping the others. Each record carries the family's
per-episode metrics (see :mod:`langgraph_games.eval.scoring.families`), and the summary is the
paper's table.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from langgraph.store.base import BaseStore
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.eval.running.executor import Job, preflight, run_jobs, write_manifest
from langgraph_games.eval.running.players import ModelPool, resolve_seat, split_players
from langgraph_games.eval.running.provenance import finish_manifest
from langgraph_games.eval.running.records import (
    EpisodeLine,
    PlayedRecord,
    is_failed,
    line_numbers,
    load_results,
)
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.scoring.families import counters_of, decisions_of, family_of
from langgraph_games.eval.scoring.metric_lines import table_family
from langgraph_games.games.base import Game
from langgraph_games.games.registry import game_class, make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.memory.hooks import TruthSource
from langgraph_games.memory.stores import open_store, with_async_api
from langgraph_games.models.secrets import ModelSettings
from langgraph_games.players.base import Player

__all__ = [
    "EpisodeGroups",
    "EpisodePlan",
    "EvalReport",
    "EvalSpec",
    "format_groups",
    "group_episodes",
    "run_eval",
    "summarize_episodes",
]


class EvalSpec(BaseModel):
    """An evaluation run, as pure data.

    Attributes:
        game: Game id.
        options: Game options shared by every episode.
        agent: The evaluated player spec (seat 0), or an object (a player, a decision
            graph, a chat model, a function: see
            :func:`~langgraph_games.players.compose.as_player`), named by its player's
            ``name``; objects stay beside the data, in :attr:`objects`.
        agent_settings: Options of the agent's strategy that a spec string cannot carry,
            e.g. ``{"context": "..."}`` for SPRING (the whole text, so the results
            depend on it and the hash covers it).
        opponents: Player specs (or objects) of the other seats, in order (empty for
            one-seat games).
        sweep: Option values to sweep: every combination is played ``repeats`` times.
        repeats: Episodes per combination, with seeds ``seed, seed + 1, ...``.
        seed: Base seed.
        label: Row label in tables (default: the agent spec).
        concurrency: Episodes at once (does not change results, so not hashed).
        workers: Worker processes (or Ray actors) playing them, each with its own event
            loop; ``auto``: one per core, at most one per episode left (not hashed; see
            :mod:`~langgraph_games.eval.running.workers_dispatch`).
        executor: ``local`` (this process or worker processes) or ``ray`` (not hashed).
        ray_address: The Ray cluster of ``executor="ray"`` (default: ``RAY_ADDRESS``,
            else a local one; not hashed).
        episode: Retries, fallback and step limit.
        model: Model settings (``temperature``, ``max_tokens``, ``base_url`` ...).
        truths: A truth store directory (as ``langgraph-games train`` writes): the agent
            plays with the game's active truths from it in its prompt. The path is not
            hashed; what the store holds is (``truths_digest``).
        truth_limit: At most this many truths (the best supported, as
            :func:`~langgraph_games.memory.hooks.load_truths` chooses).
        truths_digest: Fingerprint of the truths used, filled in by :func:`run_eval` from
            the store (so a results file never mixes truth bases).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    options: JsonObject = Field(default_factory=dict)
    agent: str
    agent_settings: JsonObject = Field(default_factory=dict)
    opponents: list[str] = Field(default_factory=list)
    sweep: dict[str, list[JsonValue]] = Field(default_factory=dict)
    repeats: int = Field(1, ge=1)
    seed: int = 0
    label: str | None = None
    concurrency: int = Field(4, ge=1)
    workers: Annotated[int, Field(ge=1)] | Literal["auto"] = 1
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    episode: EpisodeOptions = Field(default_factory=EpisodeOptions)
    model: ModelSettings = Field(default_factory=dict)
    truths: str | None = None
    truth_limit: int | None = Field(None, ge=0)
    truths_digest: str | None = None
    _objects: dict[str, Player] = PrivateAttr(default_factory=dict)

    def __init__(self, **data: object) -> None:
        objects: dict[str, Player] = {}
        if "agent" in data and not isinstance(data["agent"], str):
            (data["agent"],), objects = split_players([data["agent"]])
        opponents = data.get("opponents")
        if isinstance(opponents, list):
            data["opponents"], more = split_players(opponents)
            objects.update(more)
        super().__init__(**data)
        self._objects = objects

    @property
    def objects(self) -> dict[str, Player]:
        """The player objects given as the agent or opponents, by their names there."""
        return dict(self._objects)

    @field_validator("sweep")
    @classmethod
    def _non_empty(cls, sweep: dict[str, list[JsonValue]]) -> dict[str, list[JsonValue]]:
        for key, values in sweep.items():
            if not values:
                raise ValueError(f"sweep of {key!r} has no values")
        return sweep

    @property
    def row_label(self) -> str:
        """The label of this run's row in tables (``<agent> +truths`` with a truth store)."""
        if self.label:
            return self.label
        return f"{self.agent} +truths" if self.truths or self.truths_digest else self.agent

    def engine(self) -> Game[GameState]:
        """The engine of the fixed options (``make`` of the game and ``options``)."""
        return make(self.game, **self.options)

    def spec_hash(self, game: Game[GameState] | None = None) -> str:
        """Short hash of everything that changes results (not how or where it runs).

        Args:
            game: An engine of the spec's game when the caller has made one already.
        """
        data = self.model_dump(
            mode="json",
            exclude={"concurrency", "workers", "executor", "ray_address", "label", "truths"},
        )
        if not data["agent_settings"]:  # specs without settings keep their earlier hash
            del data["agent_settings"]
        for key in ("truth_limit", "truths_digest"):  # likewise specs without truths
            if data[key] is None:
                del data[key]
        data["game"] = (game or self.engine()).versioned_id
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def schedule(self) -> list[tuple[str, JsonObject, int]]:
        """``(episode id, options, seed)`` of every episode, in a stable order.

        Raises:
            ValueError: The seats do not match the game.
            OptionError: A swept or fixed option is not valid for the game.
        """
        return [(e.episode_id, e.options, e.seed) for e in self.plan()]

    def plan(self, base: Game[GameState] | None = None) -> list[EpisodePlan]:
        """Every episode with its engine, in :meth:`schedule`'s order.

        Each distinct combination of options is made once and shared by its episodes.

        Args:
            base: The engine of the fixed options when the caller has made it already
                (reused by a combination with the same options).

        Raises:
            ValueError: The seats do not match the game.
            OptionError: A swept or fixed option is not valid for the game.
        """
        base = base or self.engine()
        seats = 1 + len(self.opponents)
        if seats != base.num_players:
            raise ValueError(
                f"{base.id} has {base.num_players} seats; the agent plus "
                f"{len(self.opponents)} opponent(s) fill {seats}"
            )
        engines = {json.dumps(self.options, sort_keys=True): base}
        keys = sorted(self.sweep)
        plan = []
        for values in itertools.product(*(self.sweep[k] for k in keys)):
            options = {**self.options, **dict(zip(keys, values, strict=True))}
            key = json.dumps(options, sort_keys=True)
            if key not in engines:  # validates the swept values early
                engines[key] = make(self.game, **options)
            for r in range(self.repeats):
                ident = json.dumps([options, self.seed + r], sort_keys=True)
                episode_id = hashlib.sha256(ident.encode()).hexdigest()[:16]
                plan.append(EpisodePlan(episode_id, options, self.seed + r, engines[key]))
        return plan


@dataclass(frozen=True)
class EpisodePlan:
    """One planned episode: its id, game options, seed and engine (shared per options)."""

    episode_id: str
    options: JsonObject
    seed: int
    game: Game[GameState]


@dataclass
class EvalReport:
    """What an evaluation run did, its files and the table."""

    results_path: Path
    summary_path: Path
    played: int = 0
    skipped: int = 0
    errors: int = 0
    table: str = ""
    metrics: list[Mapping[str, object]] = field(default_factory=list)
    truths: list[str] = field(default_factory=list)


def results_path_for(
    spec: EvalSpec, out_dir: str | Path, game: Game[GameState] | None = None
) -> Path:
    """``<out_dir>/eval-<game>-<hash>.jsonl`` (``game``: the spec's engine, if made)."""
    game = game or spec.engine()
    return Path(out_dir) / f"eval-{game.id}-{spec.spec_hash(game)}.jsonl"


def _add_metrics(record: PlayedRecord, game: Game[GameState]) -> None:
    played = record["result"]["record"]
    session = GameSession(game, seed=int(played["seed"]), actions=played["actions"])
    family = family_of(session.game.id)
    record["family"] = family.name
    record["metrics"] = family.episode_metrics(session, counters_of(record["result"]))
    if family.decision_metrics is not None:
        decisions = decisions_of(record.get("trajectory") or [])
        record["metrics"].update(family.decision_metrics(decisions))


async def run_eval(
    spec: EvalSpec,
    out_dir: str | Path = "runs",
    *,
    progress: bool = True,
    on_episode: Callable[[PlayedRecord], None] | None = None,
    store: BaseStore | None = None,
) -> EvalReport:
    """Run (or resume) an evaluation and write its results and summary table.

    With ``spec.truths`` (or an open ``store``) the agent plays with the game's active
    truths in its prompt. They are read once, before any episode, and every episode gets
    that same list (whose fingerprint is the spec's ``truths_digest``); the truth store
    directory is closed again before the episodes start (ChromaStore allows one process
    per directory: evaluate after training, not during it).

    Args:
        spec: The run.
        out_dir: Folder of the results file.
        progress: Show progress bars.
        on_episode: Called with each record after it is written.
        store: An open store to read the truths from instead of ``spec.truths`` (any
            LangGraph store; only its async API is used, so an async store of a
            LangGraph Server works).

    Raises:
        ModelUnavailableError: A model cannot be used (checked before any episode starts).
        PlayerSpecError: A player spec is not understood.
        OptionError: A game option (fixed or swept) is not valid.
        StoreOpenError: ``spec.truths`` is not a truth store.
    """
    if spec.truths is None and store is None:
        return await _run_eval(spec, out_dir, progress=progress, on_episode=on_episode)
    opened: AbstractContextManager[BaseStore] = (
        nullcontext(store) if store is not None else open_truths(str(spec.truths))
    )
    with opened as source:
        readable = await with_async_api(source)
        truths = list(
            await TruthSource(readable, game_class(spec.game).id, limit=spec.truth_limit).get()
        )
    blob = json.dumps(truths, separators=(",", ":")).encode()
    digest = hashlib.sha256(blob).hexdigest()[:16]
    pinned = spec.model_copy(update={"truths_digest": digest})
    report = await _run_eval(
        pinned, out_dir, progress=progress, on_episode=on_episode, truths={0: truths}
    )
    report.truths = truths
    return report


def open_truths(spec: str | Path) -> AbstractContextManager[BaseStore]:
    """Open a truth store for reading: a Chroma directory or another store spec.

    See :mod:`~langgraph_games.memory.stores`; the store must be there already.

    Raises:
        StoreOpenError: Nothing there, or not a store.
        ValueError: ``spec`` is not understood.
    """
    return open_store(spec, create=False)


async def _run_eval(
    spec: EvalSpec,
    out_dir: str | Path,
    *,
    progress: bool,
    on_episode: Callable[[PlayedRecord], None] | None,
    truths: dict[int, list[str]] | None = None,
) -> EvalReport:
    base_game = spec.engine()
    plan = spec.plan(base_game)
    spec_hash = spec.spec_hash(base_game)
    path = results_path_for(spec, out_dir, base_game)
    results = ResultsFile(path)
    models = ModelPool(**spec.model)
    objects = spec.objects
    seats = [
        resolve_seat(spec.agent, models, objects, spec.agent_settings or None),
        *(resolve_seat(opponent, models, objects) for opponent in spec.opponents),
    ]
    players = preflight(seats, base_game)
    write_manifest(
        path,
        {"spec": spec.model_dump(mode="json"), "spec_hash": spec_hash, "players": players},
        models,
    )
    done = results.finished_ids("episode_id")
    jobs = [
        Job(
            job_id=episode.episode_id,
            seats=seats,
            seed=episode.seed,
            extra={"episode_id": episode.episode_id, "label": spec.row_label},
            game=episode.game,
        )
        for episode in plan
        if episode.episode_id not in done
    ]
    report = EvalReport(
        results_path=path,
        summary_path=path.with_suffix(".summary.md"),
        skipped=len(plan) - len(jobs),
    )
    report.played, report.errors = await run_jobs(
        jobs,
        base={"kind": "episode", "spec_hash": spec_hash},
        results=results,
        options=spec.episode,
        concurrency=spec.concurrency,
        workers=spec.workers,
        executor=spec.executor,
        ray_address=spec.ray_address,
        models=models,
        progress=progress,
        total=len(plan),
        finish=_add_metrics,
        on_record=on_episode,
        truths=truths,
    )
    finish_manifest(path, played=report.played, skipped=report.skipped, errors=report.errors)
    table, rows, _ = summarize_episodes([path])
    report.table = table
    report.metrics = [m for episodes in rows.values() for m in episodes]
    report.summary_path.write_text(table, encoding="utf-8")
    return report


@dataclass
class EpisodeGroups:
    """Evaluation records grouped for tables: ``{family: {label: [metrics, ...]}}``.

    Attributes:
        families: Per-episode metrics by family name, then row label.
        games: A game id of each family (to find its :class:`Family`).
        notes: What was left out and why, and labels kept apart by spec.
    """

    families: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _spec_key(family: str, record: EpisodeLine) -> tuple[str, str, str]:
    return (family, str(record.get("label")), record["game"].split("-v")[0])


def group_episodes(paths: list[str | Path]) -> EpisodeGroups:
    """Read evaluation records and group their metrics by family and label.

    What cannot be used (a truncated last line, an unregistered game, another spec than
    the file's, a failed episode, metrics that do not fit the family of the record's game,
    see :func:`~langgraph_games.eval.scoring.metric_lines.table_family`) is left out with
    a note naming the lines. When one label comes from runs
    of different specs of the same game (e.g. the same agent on two maze levels, in two
    files), its rows are kept apart as ``label [spec]`` and a note says so.

    Raises:
        ValueError: A path does not exist.
    """
    loaded = load_results(list(paths), kinds=("episode",))
    groups = EpisodeGroups(notes=list(loaded.notes))
    usable: list[tuple[str, EpisodeLine]] = []
    unfit: dict[tuple[str, str], list[int]] = defaultdict(list)
    for item in loaded.records:
        record = item.record
        if record["kind"] != "episode":
            continue
        if is_failed(record):
            groups.notes.append(
                f"{item.source}: episode {record.get('episode_id')} failed: "
                f"{record.get('error')}; left out"
            )
            continue
        try:
            usable.append((table_family(record), record))
        except ValueError as exc:
            unfit[(item.path.name, str(exc))].append(item.line)
    for (name, why), lines in unfit.items():
        groups.notes.append(f"{name} {line_numbers(lines)}: {why}; left out of the tables")
    specs: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for family, record in usable:
        specs[_spec_key(family, record)].add(record.get("spec_hash", ""))
    for (family, label, game), hashes in specs.items():
        if len(hashes) > 1:
            groups.notes.append(
                f"{family}: label {label!r} holds {game} runs of {len(hashes)} specs "
                f"({', '.join(sorted(h or '-' for h in hashes))}); their rows are kept apart "
                f"as '{label} [spec]'"
            )
    for name, record in usable:
        label = str(record.get("label"))
        if len(specs[_spec_key(name, record)]) > 1:
            label = f"{label} [{record.get('spec_hash', '-')}]"
        groups.games.setdefault(name, record["game"])
        groups.families.setdefault(name, {}).setdefault(label, []).append(record["metrics"])
    return groups


def summarize_episodes(
    paths: list[str | Path],
) -> tuple[str, dict[str, list[Mapping[str, object]]], list[str]]:
    """The paper tables of evaluation results: ``(text, metrics by label, notes)``.

    Several files (e.g. the variants of an ablation) can be summarised together; rows are
    grouped by family and labelled by each record's ``label`` (see :func:`group_episodes`
    for what is left out).

    Raises:
        ValueError: A path does not exist.
    """
    groups = group_episodes(paths)
    text, flat = format_groups(groups)
    return text, flat, groups.notes


def format_groups(groups: EpisodeGroups) -> tuple[str, dict[str, list[Mapping[str, object]]]]:
    """Each family's paper table of grouped episodes, and the metrics by label."""
    parts = []
    flat: dict[str, list[Mapping[str, object]]] = {}
    for family_name, rows in groups.families.items():
        family = family_of(groups.games[family_name])
        title = f"## {family.name} ({family.paper})" if family.paper else f"## {family.name}"
        parts.append(f"{title}\n\n{family.table(rows)}\n")
        for label, metrics in rows.items():
            flat.setdefault(label, []).extend(metrics)
    return "\n".join(parts), flat
