"""Agent-ExpVer training runs: a results file, a truth store, rounds that resume after a crash.

A :class:`TrainSpec` names the game, the GeoLink player (an LLM strategy spec such as
``eeb:local``), the levels (the fixed training maps of the maze or Match-2, taken
``train_maps`` per level and round; ``test_maps`` fixed evaluation maps per level) and the
loop's options (:class:`~langgraph_games.graphs.expver.parts.ExpVerOptions`).
:func:`run_training` runs :func:`~langgraph_games.graphs.expver.graph.create_expver_graph` with

- a **results file** ``<out>/train-<game>-<hash>.jsonl`` as the ledger: every episode
  (``kind: "episode"``, with the family's metrics and a label ``<label> r<round>
  <train|replay|test>``, so ``langgraph-games report`` prints the paper's table per round
  and split) and two records per round (``kind: "round"``, split ``train`` and ``test``,
  the shape of :data:`~langgraph_games.eval.reports.report.ROUND_FIELDS`, so the report draws the
  learning curves); plus ``.manifest.json`` and ``.summary.md`` (the per-round table);
- a **store** holding the experiences, the truths and the run marker: any LangGraph
  ``BaseStore`` object, or a store spec (:mod:`~langgraph_games.memory.stores`: a
  :class:`~langgraph_games.memory.ChromaStore` directory, ``sqlite:PATH``,
  ``postgres://...``, ``memory:``); default the ChromaStore directory
  ``<out>/train-<game>-<hash>-store``. ``langgraph-games eval ... --truths SPEC`` plays
  with its truths. A store that does not outlive the process (``memory:``) cannot resume
  the run: a rerun says so.

The hash covers what changes results, not the number of rounds: running the same command
again (after a crash, or with more ``--rounds``) continues the same run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.store.base import BaseStore
from pydantic import BaseModel, ConfigDict, Field

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.eval.protocols.plans import protocol_for
from langgraph_games.eval.running.executor import preflight, write_manifest
from langgraph_games.eval.running.players import ModelPool, resolve
from langgraph_games.eval.running.provenance import finish_manifest
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.training_report import describe_event, round_table
from langgraph_games.eval.running.training_workers import training_episodes
from langgraph_games.eval.scoring.families import counters_of, decisions_of, family_of
from langgraph_games.games.base import Game
from langgraph_games.games.registry import game_class, make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.records import EpisodeResult, Step
from langgraph_games.graphs.expver.episodes import InProcessEpisodes
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerError, ExpVerOptions, Level
from langgraph_games.graphs.expver.records import (
    ExpVerEvent,
    LedgerRecord,
    RoundRecord,
    validate_ledger_record,
)
from langgraph_games.memory.embeddings import minilm_index
from langgraph_games.memory.hooks import aload_truths
from langgraph_games.memory.stores import (
    StoreSpec,
    check_available,
    open_store,
    parse_store,
    store_features,
    with_async_api,
)
from langgraph_games.models.secrets import ModelSettings
from langgraph_games.players import registry
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerRecipe
from langgraph_games.players.errors import PlayerSpecError

__all__ = [
    "FileLedger",
    "TrainReport",
    "TrainSpec",
    "describe_event",
    "family_metrics",
    "round_table",
    "run_training",
    "training_paths",
]

FIXED_SET_SIZES = {"train": 10, "eval": 30}
"""Maps (levels) per maze level or Match-2 difficulty in the fixed sets."""


class TrainSpec(BaseModel):
    """A training run, as pure data.

    Attributes:
        game: Game id (``maze``, ``match2``, or any scored single-player game).
        options: Game options shared by every level.
        agent: GeoLink's player: an LLM strategy spec, ``<strategy>:<model>``.
        levels: Maze levels (1-3) or Match-2 difficulties trained and tested on (default:
            level 1 / easy).
        train_maps: Training maps per level and round (the round plays
            ``train_maps x len(levels)`` levels).
        train_pool: Maps per level the rounds take their training maps from, in turn
            (default: the whole fixed training set, 10).
        test_maps: Fixed evaluation maps per level every round is tested on.
        seed: Episode seed of map 1 (map ``k`` plays seed ``seed + k - 1``).
        label: Names the run in tables (default ``expver``, or ``expver-append`` etc.).
        expver: The loop's options (``levels_per_round`` is set from ``train_maps``).
        model: Model settings (``temperature``, ``max_tokens``, ``base_url`` ...).
        workers: Worker processes (or Ray actors) playing the test levels of each round
            at once (``auto``: ``min(cores, test levels, concurrency)``; 1: this
            process); not hashed: results do not depend on it (see
            :mod:`~langgraph_games.eval.running.training_workers`).
        executor: ``local`` (this process or worker processes) or ``ray`` (not hashed).
        ray_address: The Ray cluster of ``executor="ray"`` (default: ``RAY_ADDRESS``,
            else a local one; not hashed).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    options: JsonObject = Field(default_factory=dict)
    agent: str = "eeb:local"
    levels: list[JsonValue] = Field(default_factory=list)
    train_maps: int = Field(2, ge=1)
    train_pool: int | None = Field(None, ge=1)
    test_maps: int = Field(2, ge=1)
    seed: int = 0
    label: str | None = None
    expver: ExpVerOptions = Field(default_factory=ExpVerOptions)
    model: ModelSettings = Field(default_factory=dict)
    workers: Annotated[int, Field(ge=1)] | Literal["auto"] = 1
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None

    @property
    def row_label(self) -> str:
        """The label of this run's rows and curves."""
        if self.label:
            return self.label
        mode = self.expver.weave_mode.value
        return "expver" if mode == "merge" else f"expver-{mode}"

    def spec_hash(self, game: Game[GameState] | None = None) -> str:
        """Short hash of what changes results (not the rounds, concurrency, workers or label).

        Args:
            game: An engine of the spec's game when the caller has made one already.
        """
        data = self.model_dump(mode="json", exclude={"label", "workers", "executor", "ray_address"})
        data["expver"].pop("rounds")
        data["expver"].pop("concurrency")
        data["game"] = (game or make(self.game, **self.options)).versioned_id
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def level_values(self) -> list[JsonValue]:
        """The maze levels / Match-2 difficulties (protocol default when none given)."""
        if self.levels:
            return list(self.levels)
        protocol = protocol_for(self.game)
        if protocol is not None and protocol.level_option == "difficulty":
            return ["easy"]
        return [1] if protocol is not None else []

    def _base_options(self) -> JsonObject:
        options = dict(self.options)
        limit = self.expver.episode.max_steps
        fields = game_class(self.game).Options.model_fields
        if limit is not None and "max_steps" in fields and "max_steps" not in options:
            options["max_steps"] = limit  # the engine's own limit, shown in the prompt
        return options

    def _levels(self, split: str, count: int) -> list[Level]:
        protocol = protocol_for(self.game)
        base = self._base_options()
        if protocol is None or protocol.level_option is None:
            offset = 0 if split == "train" else 100_000
            return [
                Level(id=f"{split}-s{self.seed + offset + k}", options=base, seed=self.seed + k)
                for k in range(count)
            ]
        key = protocol.level_option
        prefix = "L" if key == "level" else ""
        return [
            Level(
                id=f"{prefix}{value}-{split}{k:02d}",
                options={**base, key: value, "map_set": split, "map_index": k},
                seed=self.seed + k - 1,
            )
            for k in range(1, count + 1)
            for value in self.level_values()
        ]

    def train_levels(self) -> list[Level]:
        """The training pool, map by map (each map of every level in turn)."""
        size = FIXED_SET_SIZES["train"]
        pool = self.train_pool or size
        if protocol_for(self.game) is not None and pool > size:
            raise ValueError(f"train_pool is {pool}; the fixed training set has {size} maps")
        return self._levels("train", pool)

    def test_levels(self) -> list[Level]:
        """The evaluation levels every round is tested on."""
        size = FIXED_SET_SIZES["eval"]
        if protocol_for(self.game) is not None and self.test_maps > size:
            raise ValueError(f"test_maps is {self.test_maps}; the evaluation set has {size}")
        return self._levels("eval", self.test_maps)

    def graph_options(self) -> ExpVerOptions:
        """The loop's options, with the round size from ``train_maps``."""
        per_round = self.train_maps * max(1, len(self.level_values()))
        return self.expver.model_copy(update={"levels_per_round": per_round})


def training_paths(
    spec: TrainSpec, out_dir: str | Path, game: Game[GameState] | None = None
) -> tuple[Path, Path]:
    """``(results file, default store directory)`` of a run in ``out_dir``.

    Args:
        spec: The run.
        out_dir: Its folder.
        game: An engine of the spec's game when the caller has made one already.
    """
    game = game or make(spec.game, **spec.options)
    stem = f"train-{game.id}-{spec.spec_hash(game)}"
    return Path(out_dir) / f"{stem}.jsonl", Path(out_dir) / f"{stem}-store"


def family_metrics(
    session: GameSession, result: EpisodeResult, trajectory: Sequence[Step]
) -> dict[str, Any]:
    """The evaluation family's metrics, so training and evaluation score alike.

    Games without a ``score``/``success`` metric get ``score`` = the seat's return and
    ``success`` = a positive return.
    """
    family = family_of(session.game.id)
    metrics = family.episode_metrics(session, counters_of(result))
    if family.decision_metrics is not None:
        metrics.update(family.decision_metrics(decisions_of(trajectory)))
    value = float(session.returns[0]) if session.returns else 0.0
    metrics.setdefault("score", value)
    metrics.setdefault("success", value > 0)
    return metrics


class FileLedger:
    """The loop's ledger on a results file: records by id, appended durably.

    Episode records get the evaluation fields (``spec_hash``, ``label`` per round and
    split, ``seats``, ``family``), round records the run's label, so reports read them.
    Records already in the file are checked once, when the ledger opens it
    (:func:`~langgraph_games.graphs.expver.records.validate_ledger_record`).

    Raises:
        ExpVerError: A line with an ``id`` is no ledger record or does not fit its type
            (the message names the file, the line and the key).
    """

    def __init__(self, results: ResultsFile, spec: TrainSpec, spec_hash: str | None = None) -> None:
        self.results = results
        self.spec = spec
        self.spec_hash = spec_hash or spec.spec_hash()
        self.family = family_of(game_class(spec.game).id).name
        self.records: dict[str, LedgerRecord] = {}
        read = results.read()
        for line, record in zip(read.lines, read.records, strict=True):
            if "id" not in record:  # not the loop's (the ledger writes an id on each)
                continue
            try:
                typed = validate_ledger_record(record)
            except ValueError as exc:
                raise ExpVerError(
                    f"{results.path.name} line {line}: {exc}; the ledger cannot resume from "
                    "it (move the file aside to start the run again)"
                ) from None
            self.records[typed["id"]] = typed
        self.played = 0

    def get(self, record_id: str) -> LedgerRecord | None:
        """The record under ``record_id``."""
        return self.records.get(record_id)

    def add(self, record: LedgerRecord) -> None:
        """Append ``record`` (fsynced) and index it."""
        out = record.copy()
        out["spec_hash"] = self.spec_hash
        if out["kind"] == "episode":
            out["label"] = f"{self.spec.row_label} r{out['round']} {out['split']}"
            out["seats"] = [self.spec.agent]
            out["family"] = self.family
            self.played += 1
        else:
            out["label"] = self.spec.row_label
        self.results.append(out)
        self.records[out["id"]] = out


@dataclass
class TrainReport:
    """What a training run did, its files and its per-round table.

    Attributes:
        store: The truth store: the spec that opens it again (a Chroma directory,
            ``sqlite:PATH``, ``postgres://...`` with its password hidden) or, for a store
            object given to :func:`run_training`, its class name.
        store_lasts: Whether the truths outlive the process (``False`` for ``memory:``
            and ``InMemoryStore``).
    """

    results_path: Path
    store: str
    summary_path: Path
    rounds: list[RoundRecord] = field(default_factory=list)
    truths: list[str] = field(default_factory=list)
    played: int = 0
    table: str = ""
    store_lasts: bool = True


def _model_part(agent: str) -> str:
    """The model spec of an LLM strategy spec (the registry's default when it names none)."""
    return registry.parse_spec(agent).model or registry.DEFAULT_MODEL


def _strategy_player(recipe: PlayerRecipe) -> Callable[[Any, Game[GameState]], Player]:
    def build(model: Any, game: Game[GameState]) -> Player:
        return recipe.build(game)

    return build


def _opened(where: BaseStore | StoreSpec) -> AbstractContextManager[BaseStore]:
    """The caller's store as it is, or the store a spec names, opened with the MiniLM index."""
    if isinstance(where, BaseStore):
        return nullcontext(where)
    return open_store(where, index=minilm_index(["text"]))


async def run_training(
    spec: TrainSpec,
    out_dir: str | Path = "runs",
    *,
    store: BaseStore | str | Path | None = None,
    on_event: Callable[[ExpVerEvent], None] | None = None,
    model: BaseChatModel | None = None,
) -> TrainReport:
    """Run (or resume) a training run and write its results, store and per-round table.

    Args:
        spec: The run.
        out_dir: Folder of the results file (and of the store by default).
        store: The truth store: any LangGraph store (left open: it is the caller's; one
            without an async API, such as ``SqliteStore``, is used through worker
            threads), or a store spec (see :mod:`~langgraph_games.memory.stores`); default
            the ChromaStore directory ``<out>/train-<game>-<hash>-store``. Stores opened
            from a spec get the MiniLM index where they can have one.
        on_event: Called with each stream event of the graph (see :func:`describe_event`).
        model: A chat model object to play, reflect and merge with instead of loading
            the model ``spec.agent`` names (e.g. a scripted fake); worker processes get
            it pickled, where a named model is loaded again in each.

    Raises:
        PlayerSpecError: ``spec.agent`` is not an LLM strategy.
        ModelUnavailableError: The model cannot be used (checked before anything runs).
        StoreOpenError: The store is not usable (a Chroma directory another process
            holds or that is damaged; ``postgres://`` without its package).
        ValueError: ``store`` is a spec that is not understood.
        ValueError: ``spec.executor`` is ``ray`` and Ray is not installed.
        EpisodeFailedError: An episode failed in a worker (rerun to resume).
        ResultsFileBusyError: Another run writes the results file (its pid is named).
    """
    models = ModelPool(**spec.model)
    if model is not None:
        models.models[_model_part(spec.agent)] = model
    agent = resolve(spec.agent, models)
    if agent.model is None:
        raise PlayerSpecError(
            f"train needs an LLM strategy for GeoLink (e.g. eeb:local); {spec.agent!r} is not one"
        )
    train, test = spec.train_levels(), spec.test_levels()
    first = make(spec.game, **train[0].options)
    spec_hash = spec.spec_hash(first)
    results_path, default_store = training_paths(spec, out_dir, first)
    where: BaseStore | StoreSpec = (
        store if isinstance(store, BaseStore) else parse_store(store or default_store)
    )
    named = str(where) if isinstance(where, StoreSpec) else type(where).__name__
    if isinstance(where, StoreSpec):
        check_available(where)
    preflight([agent], first)
    write_manifest(
        results_path,
        {
            "spec": spec.model_dump(mode="json"),
            "spec_hash": spec_hash,
            "store": named,
            "train_levels": [lv.id for lv in train],
            "test_levels": [lv.id for lv in test],
        },
        models,
    )
    results = ResultsFile(results_path)
    ledger = FileLedger(results, spec, spec_hash)
    options = spec.graph_options()
    factory = _strategy_player(agent)
    here = InProcessEpisodes(agent.model, factory, options.episode, options.concurrency)
    with results.writing(), _opened(where) as opened:
        truth_store = await with_async_api(opened)
        async with training_episodes(
            here,
            agent,
            None if model is not None else models,
            workers=spec.workers,
            executor=spec.executor,
            ray_address=spec.ray_address,
            concurrency=options.concurrency,
            options=options.episode,
            tests=test,
            game=spec.game,
        ) as episodes:
            graph = create_expver_graph(
                agent.model,
                spec.game,
                train_levels=train,
                test_levels=test,
                store=truth_store,
                options=options,
                player_factory=factory,
                ledger=ledger,
                metrics=family_metrics,
                run_id=f"train-{spec_hash}",
                episodes=episodes,
            )
            async for event in graph.astream({}, stream_mode="custom"):
                if on_event is not None:  # the nodes write ExpVerEvents only
                    on_event(cast("ExpVerEvent", event))
        truths = await aload_truths(truth_store, first.id)
        lasts = store_features(opened).lasts
    rounds = [
        r
        for r in ledger.records.values()
        if r["kind"] == "round" and r["round"] <= spec.expver.rounds
    ]
    table = round_table(rounds)
    finish_manifest(results_path, played=ledger.played)
    summary = results_path.with_suffix(".summary.md")
    summary.write_text(
        f"## Training rounds (ExpVer): {spec.row_label}\n\n{table}\n", encoding="utf-8"
    )
    return TrainReport(
        results_path=results_path,
        store=named,
        summary_path=summary,
        rounds=rounds,
        truths=truths,
        played=ledger.played,
        table=table,
        store_lasts=lasts,
    )
