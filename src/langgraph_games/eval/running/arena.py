"""Head-to-head arenas: a run spec, round-robin scheduling and a concurrent executor.

An :class:`ArenaSpec` is pure data (game and options, player specs, matches per pair,
seed, seat swapping and seeding, episode options, model settings). Its hash names the
results file, and every match has an id derived from the pair, the round and the seating,
so a rerun of the same spec skips the matches already on disk: an interrupted arena
resumes, and each match appears exactly once.

Seeding: with seats swapped, matches ``2k`` and ``2k + 1`` of a pair play the same seed
(``seed + k``) with the seats exchanged, so both players get the same deals (Texas
Hold'em's cards, Negotiation's pool and values) from both seats (``seeding="mirrored"``,
the default); ``"per_match"`` gives match ``m`` the seed ``seed + m`` (the former rule).
The field is part of the spec hash, so results files written before it existed (every
match its own seed) are not resumed by a new run: it starts a new file.

Matches run concurrently under a bound; a match whose model calls keep failing is recorded
with ``status: "error"`` without stopping the others (and is retried by the next rerun).

**Labels.** ``labels`` (``{short name: player spec}``, ``--label NAME=SPEC``) name a player
briefly: its seats in the results records, the tables, the leaderboard and the manifest's
``names`` use the short name, while the spec's ``players`` (and the match ids) keep the
full spec. Labels are part of the spec hash when there are any, so renaming a player
starts a new results file rather than mixing two names for one player in one file (a
spec without labels keeps the hash it had before labels existed).

**Paper protocol.** The spec's field defaults are the generic ones (10 matches per pair,
2 re-asks, no token limit), kept so that specs built before the paper protocol existed
keep their hash; ``langgraph-games arena`` builds its spec with
:func:`~langgraph_games.eval.protocols.plans.plan_arena`, which fills in the game's paper
protocol (:mod:`~langgraph_games.eval.protocols.gamebot`: GAMEBoT's 20 matches, no
re-asks, 4096 output tokens). Whatever built the spec, the summary's header and the
manifest say ``paper protocol`` or which settings differ from it
(:meth:`ArenaSpec.protocol_summary`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from langgraph_games._json import JsonObject
from langgraph_games.eval.protocols.gamebot import (
    ArenaSettings,
    arena_protocol_for,
    protocol_record,
    protocol_summary,
)
from langgraph_games.eval.running.executor import Job, preflight, run_jobs, write_manifest
from langgraph_games.eval.running.players import ModelPool, resolve_seat, split_players
from langgraph_games.eval.running.provenance import finish_manifest
from langgraph_games.eval.running.records import (
    FailedLine,
    MatchLine,
    PlayedRecord,
    is_failed,
    load_results,
)
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.scoring.metrics import PlayerRow, Scoring, pairwise_wdl, player_rows
from langgraph_games.eval.scoring.tables import arena_csv, arena_markdown
from langgraph_games.games.base import Game
from langgraph_games.games.errors import GameError
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.models.secrets import ModelSettings
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerRecipe

__all__ = [
    "ArenaReport",
    "ArenaSpec",
    "ArenaSummary",
    "MatchSpec",
    "check_labels",
    "run_arena",
    "settled_matches",
    "summarize",
    "summarize_file",
]


class ArenaSpec(BaseModel):
    """A round-robin arena, as pure data.

    The defaults are the generic ones (10 matches, 2 re-asks, no token limit), not a
    paper's: :func:`~langgraph_games.eval.protocols.plans.plan_arena` builds a spec with
    the game's paper protocol, and :meth:`protocol_summary` says how a spec differs from it.

    Attributes:
        game: Game id (with or without version).
        options: Game options.
        players: Player specs, e.g. ``["gamebot:local", "minimax"]``, or objects: a
            player, a decision graph, a question DAG, a tool agent, a chat model or a
            function (see :func:`~langgraph_games.players.compose.as_player`). An object
            is named by its player's ``name`` (``as_player(obj, name=...)`` gives
            another), which the spec keeps (its hash, results file and manifest): the
            objects stay beside the data, in :attr:`objects`.
        matches: Matches per pair of players.
        seed: Base seed (see ``seeding``).
        swap_seats: Alternate who moves first within each pair (half and half).
        seeding: ``"mirrored"``: the two seatings of a pair's round play the same seed,
            match ``m`` using ``seed + m // 2`` (``seed + m`` without seat swapping);
            ``"per_match"``: match ``m`` uses ``seed + m``.
        baseline: Add the ``random`` player if it is not among ``players``.
        concurrency: Matches run at once (does not change results, so not hashed).
        workers: Worker processes (or Ray actors) playing them, each with its own event
            loop; ``auto``: one per core, at most one per episode left (not hashed; see
            :mod:`~langgraph_games.eval.running.workers_dispatch`).
        executor: ``local`` (this process or worker processes) or ``ray`` (not hashed).
        ray_address: The Ray cluster of ``executor="ray"`` (default: ``RAY_ADDRESS``,
            else a local one; not hashed).
        episode: Retries, fallback and step limit.
        model: Model settings (``temperature``, ``max_tokens``, ``base_url`` ...).
        labels: Short names, ``{name: player spec}``: a labelled player is named by its
            label in results, tables and leaderboards (see :func:`check_labels`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    options: JsonObject = Field(default_factory=dict)
    players: list[str]
    matches: int = Field(10, ge=1)
    seed: int = 0
    swap_seats: bool = True
    seeding: Literal["mirrored", "per_match"] = "mirrored"
    baseline: bool = True
    concurrency: int = Field(4, ge=1)
    workers: Annotated[int, Field(ge=1)] | Literal["auto"] = 1
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    episode: EpisodeOptions = Field(default_factory=EpisodeOptions)
    model: ModelSettings = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    _objects: dict[str, Player] = PrivateAttr(default_factory=dict)

    def __init__(self, **data: object) -> None:
        objects: dict[str, Player] = {}
        players = data.get("players")
        if isinstance(players, list):
            data["players"], objects = split_players(players)
        super().__init__(**data)
        self._objects = objects

    @property
    def objects(self) -> dict[str, Player]:
        """The player objects given in :attr:`players`, by their names there."""
        return dict(self._objects)

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: list[str]) -> list[str]:
        if not players:
            raise ValueError("an arena needs at least one player spec")
        if len(set(players)) != len(players):
            raise ValueError(f"player specs must be distinct, got {players}")
        return players

    @model_validator(mode="after")
    def _labels_name_players(self) -> ArenaSpec:
        check_labels(self.labels, self.roster)
        return self

    def names(self) -> dict[str, str]:
        """``{player spec: its name in results}``: the label where one is given."""
        shown = {spec: name for name, spec in self.labels.items()}
        return {spec: shown.get(spec, spec) for spec in self.roster}

    @property
    def roster(self) -> list[str]:
        """The players, with the random baseline added when asked for."""
        roster = list(self.players)
        if self.baseline and "random" not in roster:
            roster.append("random")
        return roster

    def engine(self) -> Game[GameState]:
        """The game engine this arena plays (``make`` of its game and options).

        Raises:
            UnknownGameError: The game is not registered.
            OptionError: An option is not valid for it.
        """
        return make(self.game, **self.options)

    def spec_hash(self, game: Game[GameState] | None = None) -> str:
        """Short hash of everything that changes results (not how or where it runs).

        Args:
            game: The arena's engine when the caller has made it already.
        """
        data = self.model_dump(
            mode="json", exclude={"concurrency", "workers", "executor", "ray_address"}
        )
        data["game"] = (game or self.engine()).versioned_id
        if not self.labels:
            del data["labels"]  # the hash of a spec from before labels existed
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def protocol_settings(self, game: Game[GameState] | None = None) -> ArenaSettings:
        """The spec's settings in a protocol's terms (``game``: its engine, if made)."""
        game = game or self.engine()
        temperature = self.model.get("temperature")
        max_tokens = self.model.get("max_tokens")
        return ArenaSettings(
            matches=self.matches,
            swap_seats=self.swap_seats,
            baseline=self.baseline,
            max_retries=self.episode.max_retries,
            fallback=self.episode.fallback,
            max_steps=self.episode.max_steps,
            history=self.episode.history,
            max_tokens=None if max_tokens is None else int(max_tokens),
            temperature=None if temperature is None else float(temperature),
            options=game.options.model_dump(mode="json"),
        )

    def protocol_summary(self, game: Game[GameState] | None = None) -> str:
        """``paper protocol (...)``, or ``paper protocol except: ...`` naming what differs.

        Args:
            game: The arena's engine when the caller has made it already.

        Example:
            >>> ArenaSpec(game="tictactoe", players=["minimax"], matches=20,
            ...           episode={"max_retries": 2}, model={"max_tokens": 4096}
            ...           ).protocol_summary()
            'paper protocol except: re-asks 2 (paper: 0)'
        """
        game = game or self.engine()
        return protocol_summary(arena_protocol_for(game.id), self.protocol_settings(game))

    def schedule(self, game: Game[GameState] | None = None) -> list[MatchSpec]:
        """Every match of the round robin, in a stable order.

        Args:
            game: The arena's engine when the caller has made it already.
        """
        game = game or self.engine()
        if game.num_players != 2:
            raise ValueError(
                f"the arena plays two-player games; {game.id} has {game.num_players} seats"
            )
        matches = []
        for a, b in itertools.combinations(self.roster, 2):
            for m in range(self.matches):
                seats = [b, a] if self.swap_seats and m % 2 == 1 else [a, b]
                key = json.dumps([a, b, m, seats])
                match_id = hashlib.sha256(key.encode()).hexdigest()[:16]
                mirrored = self.seeding == "mirrored" and self.swap_seats
                seed = self.seed + (m // 2 if mirrored else m)
                matches.append(MatchSpec(match_id=match_id, seats=seats, seed=seed, round=m))
        return matches


def check_labels(labels: dict[str, str], roster: Sequence[str]) -> None:
    """Check that every label names one player of ``roster`` and no two players share a name.

    Raises:
        ValueError: An empty label; a spec not in ``roster``; a spec labelled twice; a
            label that is another player's spec. One line naming it and the players.

    Example:
        >>> check_labels({"mm": "minimax:depth=2"}, ["minimax:depth=2", "random"])
        >>> check_labels({"mm": "minimax"}, ["minimax:depth=2", "random"])
        Traceback (most recent call last):
        ...
        ValueError: --label mm=minimax: 'minimax' is not one of the players: minimax:depth=2, random
    """
    players = ", ".join(roster)
    labelled: dict[str, str] = {}
    for name, spec in labels.items():
        if not name.strip():
            raise ValueError(f"--label ={spec}: the name is empty; give NAME=SPEC")
        if name != name.strip():
            raise ValueError(f"--label {name!r}: a name cannot start or end with a space")
        if spec not in roster:
            raise ValueError(
                f"--label {name}={spec}: {spec!r} is not one of the players: {players}"
            )
        if spec in labelled:
            raise ValueError(
                f"--label {name}={spec}: {spec!r} is already labelled {labelled[spec]!r}"
            )
        if name in roster and name != spec:
            raise ValueError(
                f"--label {name}={spec}: {name!r} is the spec of another player; choose "
                "another name"
            )
        labelled[spec] = name


def _named(recipe: PlayerRecipe, name: str) -> PlayerRecipe:
    """``recipe`` with its player named ``name`` in results (the spec itself unchanged)."""
    if recipe.spec.label == name:
        return recipe
    return dataclasses.replace(recipe, spec=dataclasses.replace(recipe.spec, text=name))


@dataclass(frozen=True)
class MatchSpec:
    """One match: its id, the player spec of each seat, the seed and round number."""

    match_id: str
    seats: list[str]
    seed: int
    round: int


@dataclass
class ArenaReport:
    """What a run did and where its files are (``protocol``: the header's protocol line)."""

    results_path: Path
    summary_path: Path
    csv_path: Path
    played: int = 0
    skipped: int = 0
    errors: int = 0
    markdown: str = ""
    rows: list[PlayerRow] = field(default_factory=list)
    protocol: str = ""


def results_path_for(
    spec: ArenaSpec, out_dir: str | Path, game: Game[GameState] | None = None
) -> Path:
    """``<out_dir>/arena-<game>-<hash>.jsonl`` (``game``: the spec's engine, if made)."""
    game = game or spec.engine()
    return Path(out_dir) / f"arena-{game.id}-{spec.spec_hash(game)}.jsonl"


def settled_matches(
    records: Sequence[MatchLine | FailedLine],
) -> tuple[list[MatchLine], list[FailedLine]]:
    """``(finished, failed)``: each match once, a rerun's result over an earlier error.

    A match whose first run ended in an error is played again by the next run and
    appended; its error record stays in the file. A match counts as failed only when no
    record of it finished; the first finished record of a match is the one used.
    Records without a ``match_id`` (written by hand) are taken as they are.
    """
    finished: list[MatchLine] = []
    seen: set[str] = set()
    errors: dict[str, FailedLine] = {}
    anonymous_errors: list[FailedLine] = []
    for record in records:
        match_id = record.get("match_id")
        if is_failed(record):
            if match_id is None:
                anonymous_errors.append(record)
            else:
                errors.setdefault(str(match_id), record)
            continue
        if match_id is not None:
            if str(match_id) in seen:
                continue
            seen.add(str(match_id))
        finished.append(record)
    failed = [r for key, r in errors.items() if key not in seen] + anonymous_errors
    return finished, failed


@dataclass
class ArenaSummary:
    """The tables of a results file, and what they leave out.

    Attributes:
        markdown: Each game's O/I table and head-to-head grid.
        rows: Per-player rows of every game (each with its ``game``).
        csv: Each game's per-player table as CSV.
        notes: What was skipped, and why.
        unfinished: ``{game: players}``: players of a game's records with no finished
            match in it (every match of theirs ended in an error).
        protocols: ``{game: protocol line}`` of the games the file's spec plays.
    """

    markdown: str
    rows: list[PlayerRow]
    csv: str
    notes: list[str]
    unfinished: dict[str, list[str]] = field(default_factory=dict)
    protocols: dict[str, str] = field(default_factory=dict)


def _manifest_protocol(results: Path) -> dict[str, str]:
    """``{versioned game id: protocol line}`` from the manifest beside ``results``.

    The line is the one the run recorded (its manifest's ``protocol.summary``), so a file
    summarizes as it did when it was written: a manifest from before runs recorded their
    protocol gives none. Empty too when there is no manifest, or its spec is not an
    arena's or cannot be read.
    """
    manifest = results.with_suffix(".manifest.json")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        line = data["protocol"]["summary"]
        spec = ArenaSpec.model_validate(data["spec"])
        game = spec.engine()
    except (OSError, ValueError, KeyError, TypeError, RecursionError, ValidationError, GameError):
        return {}
    return {game.versioned_id: line} if isinstance(line, str) and line else {}


def _unfinished(finished: Sequence[MatchLine], failed: Sequence[FailedLine]) -> list[str]:
    """Players seated in failed matches who finished no match (in the order first seen)."""
    played = {name for record in finished for name in record["seats"]}
    seated = dict.fromkeys(name for record in failed for name in record.get("seats", []))
    return [name for name in seated if name not in played]


def summarize_file(
    results: str | Path,
    scoring: Scoring | None = None,
    protocol: str | None = None,
    *,
    matches: Sequence[MatchLine | FailedLine] | None = None,
) -> ArenaSummary:
    """Tables of a results file, with its unfinished players and protocol line.

    Lines a crashed run truncated, records of unregistered games or of another spec than
    the file's, and matches whose every run ended in an error are left out, each with a
    note (see :func:`~langgraph_games.eval.running.records.load_results`); a match that a
    rerun finished counts once, with its finished record. Each row carries its ``game``.

    Args:
        results: The results file.
        scoring: How matches are scored (default: the paper's).
        protocol: The header's protocol line for the file's spec (default: read from the
            manifest beside the file, when it has one).
        matches: The file's match records, when the caller has read them with
            :func:`~langgraph_games.eval.running.records.load_results` already (the notes
            of that reading are then the caller's); default: the file is read here.

    Raises:
        ValueError: The file holds no finished match of a known game.
    """
    notes: list[str] = []
    if matches is None:
        loaded = load_results([results], kinds=("match",))
        notes += loaded.notes
        matches = loaded.matches()
    games = sorted({str(r["game"]) for r in matches})
    if not games:
        raise ValueError(f"{results} holds no match records")
    if protocol is None:
        protocols = _manifest_protocol(Path(results))
    else:
        protocols = {game_id: protocol for game_id in games}
    summary = ArenaSummary("", [], "", notes)
    markdown_parts: list[str] = []
    csv_parts: list[str] = []
    for game_id in games:
        records, failed = settled_matches([r for r in matches if r["game"] == game_id])
        if failed:
            notes.append(
                f"{game_id}: {len(failed)} match(es) ended with an error and are left out "
                "(rerun the same command to play them again)"
            )
        unfinished = _unfinished(records, failed)
        if unfinished:
            summary.unfinished[game_id] = unfinished
        engine = make(game_id)  # once per game of the file, for every table
        rows = player_rows(records, scoring, engine)
        summary.rows.extend({**row, "game": game_id} for row in rows)
        line = protocols.get(game_id)
        if line is not None:
            summary.protocols[game_id] = line
        markdown_parts.append(
            arena_markdown(game_id, rows, pairwise_wdl(records), scoring, engine, protocol=line)
        )
        csv_parts.append(arena_csv(game_id, rows, engine))
    summary.markdown = "\n".join(markdown_parts)
    summary.csv = "\n".join(csv_parts)
    return summary


def summarize(
    results: str | Path, scoring: Scoring | None = None
) -> tuple[str, list[PlayerRow], str, list[str]]:
    """Tables of a results file: ``(markdown, rows, csv, notes about what was skipped)``.

    See :func:`summarize_file` (which also gives the unfinished players and the protocol
    line read from the file's manifest).

    Raises:
        ValueError: The file holds no finished match of a known game.
    """
    summary = summarize_file(results, scoring)
    return summary.markdown, summary.rows, summary.csv, summary.notes


async def run_arena(
    spec: ArenaSpec,
    out_dir: str | Path = "runs",
    *,
    progress: bool = True,
    on_match: Callable[[PlayedRecord], None] | None = None,
    scoring: Scoring | None = None,
) -> ArenaReport:
    """Run (or resume) an arena and write its results, summary and CSV.

    Args:
        spec: The arena.
        out_dir: Folder of the results file and summaries.
        progress: Show a progress bar on stderr.
        on_match: Called with each match record as it is written.
        scoring: How the summary scores the matches (O's scale for games that are not
            constant-sum, which answers I counts); default the paper's.

    Returns:
        Paths and counts, and the summary tables.

    The game and the players are resolved once, here: one engine for every match, each
    player spec parsed and its model loaded once (each match builds its players from
    them).

    Raises:
        ModelUnavailableError: A model cannot be used (checked before any match starts).
        PlayerSpecError: A player spec is not understood.
    """
    game = spec.engine()
    spec_hash = spec.spec_hash(game)
    schedule = spec.schedule(game)
    path = results_path_for(spec, out_dir, game)
    results = ResultsFile(path)
    models = ModelPool(**spec.model)
    names = spec.names()
    players = {
        name: _named(resolve_seat(name, models, spec.objects), names[name]) for name in spec.roster
    }
    preflight(list(players.values()), game)
    settings = spec.protocol_settings(game)
    protocol = protocol_record(arena_protocol_for(game.id), settings)
    write_manifest(
        path,
        {
            "spec": spec.model_dump(mode="json"),
            "spec_hash": spec_hash,
            "roster": spec.roster,
            "protocol": protocol,
            **({"names": names} if spec.labels else {}),
        },
        models,
    )
    done = results.finished_ids()
    jobs = [
        Job(
            job_id=m.match_id,
            seats=[players[name] for name in m.seats],
            seed=m.seed,
            extra={"match_id": m.match_id, "round": m.round},
            game=game,
        )
        for m in schedule
        if m.match_id not in done
    ]
    report = ArenaReport(
        results_path=path,
        summary_path=path.with_suffix(".summary.md"),
        csv_path=path.with_suffix(".summary.csv"),
        skipped=len(schedule) - len(jobs),
        protocol=protocol["summary"],
    )
    report.played, report.errors = await run_jobs(
        jobs,
        base={"kind": "match", "spec_hash": spec_hash},
        results=results,
        options=spec.episode,
        concurrency=spec.concurrency,
        workers=spec.workers,
        executor=spec.executor,
        ray_address=spec.ray_address,
        models=models,
        progress=progress,
        total=len(schedule),
        on_record=on_match,
    )
    finish_manifest(path, played=report.played, skipped=report.skipped, errors=report.errors)
    if report.played + report.skipped > 0:  # some match record is on disk
        summary = summarize_file(path, scoring, protocol=report.protocol)
        report.markdown, report.rows = summary.markdown, summary.rows
        report.summary_path.write_text(summary.markdown, encoding="utf-8")
        report.csv_path.write_text(summary.csv, encoding="utf-8")
    return report
