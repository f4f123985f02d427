"""Reading results files for reports and replays: what is usable, and what is not and why.

Reports must keep going on imperfect input and say what they left out. On top of
:class:`~langgraph_games.eval.running.results.ResultsFile`'s tolerant reading (a truncated last
line from a crashed run is skipped with its line number), :func:`load_results` sets aside:

- records of a kind no report knows (known: ``match``, ``episode``, ``round``);
- match and episode records of a game that is not registered here (a game from another
  branch or plugin, or a typo), named with the registered ids;
- records of another spec than the file's own (*mixed specs*, e.g. two runs' files
  concatenated): the file's spec is the ``spec_hash`` of its manifest when there is
  one, else the most common ``spec_hash`` in the file; records without a hash (written
  by hand) are kept;
- records that do not fit their kind's type (malformed): each line is validated once,
  here, against :data:`MatchLine`, :data:`EpisodeLine`, :data:`RoundLine` or
  :data:`FailedLine` (a pydantic ``TypeAdapter`` in strict mode), and a finished match or
  episode also against itself (:func:`validate_line`: one return per seat of its game, as
  many seats and seat counters as returns, winners and seat keys that are seats, scored
  answers with their counts); readers below this boundary index the keys those types
  require and the seats the returns have.

The types say what every line of a kind holds (what reports rely on) as required keys,
and what the writers add as ``NotRequired`` keys, typed: hand-made files and files of
earlier versions hold only the required keys, and still read.

Every set-aside group becomes one note naming the file, the lines and the reason; a value
taken from the file (a kind, a game id, a spec hash) is quoted and cut to 60 characters,
so a note is one line whatever the file holds.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict, TypeIs

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.eval.running.provenance import GitSource, Host
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.games.registry import game_class, list_games
from langgraph_games.graphs.episode.records import (
    EpisodeResult,
    SessionRecord,
    SubproblemCounts,
    Trajectory,
    check_record,
)

__all__ = [
    "KINDS",
    "NOTE_VALUE_CHARS",
    "EpisodeLine",
    "EpisodeResultLine",
    "FailedLine",
    "JobFields",
    "Loaded",
    "LoadedRecord",
    "Manifest",
    "MatchLine",
    "PlayedRecord",
    "ResultLine",
    "ResultsLine",
    "RoundLine",
    "RunFields",
    "ScoreLine",
    "SeatCountersLine",
    "is_failed",
    "line_numbers",
    "load_results",
    "shown",
    "validate_line",
]

KINDS = ("match", "episode", "round")
"""Record kinds reports know: arena matches, evaluation episodes, training rounds."""


NOTE_VALUE_CHARS = 60
"""The most characters of a value from a file (a kind, an id, a key) a note shows."""


def shown(value: object, limit: int = NOTE_VALUE_CHARS) -> str:
    r"""A value from a file as a note quotes it: ``repr``, cut to ``limit`` characters.

    The quote is one line of printable text whatever the value holds (newlines, U+2028,
    NUL, megabyte strings), so notes and one-line errors stay one line.

    Example:
        >>> print(shown("spec\u2028hash"), shown("m" * 100, 12))
        'spec\u2028hash' 'mmmmmmmm...
    """
    text = ascii(value) if not isinstance(value, str) or not value.isprintable() else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class SeatCountersLine(TypedDict, total=False):
    """A seat's counters in a line's ``result.players`` (the loop's ``SeatCounters``).

    Every counter is optional: the set grew over versions (``defaulted``,
    ``ambiguous_answers``, ``subproblems``) and hand-made lines may hold none, so readers
    take a missing counter as 0; a counter that is there has its type. Without
    ``subproblems`` (the seat's summed intermediate scores), I is read from the
    trajectory's decisions.
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


class ScoreLine(TypedDict):
    """A scored intermediate answer in a trajectory (``SubproblemScore.to_dict``).

    I aggregates ``tp``, ``fp`` and ``fn`` (F1 subproblems) or ``correct`` (accuracy ones)
    per subproblem ``index``.
    """

    index: int
    correct: bool
    tp: int
    fp: int
    fn: int
    tn: NotRequired[int]
    answered: NotRequired[bool]
    parsed: NotRequired[JsonValue]
    truth: NotRequired[JsonValue]
    value: NotRequired[float | None]
    metric: NotRequired[str]
    scored: NotRequired[bool]


class _Result(TypedDict):
    returns: list[float]
    status: NotRequired[str]
    record: NotRequired[SessionRecord]
    winners: NotRequired[list[int]]
    steps: NotRequired[int]
    forfeit: NotRequired[int | None]


class ResultLine(_Result):
    """An episode's ``result`` in a match line.

    The loop's :class:`~langgraph_games.graphs.episode.records.EpisodeResult`; ratings and
    tables need ``returns`` and ``players``, one :data:`SeatCountersLine` per seat.
    """

    players: list[SeatCountersLine]


class EpisodeResultLine(_Result):
    """An episode's ``result`` in an episode line (tables need only ``returns``)."""

    players: NotRequired[list[SeatCountersLine]]


class _Played(TypedDict):
    """Keys the executor writes on every played line (match or episode)."""

    spec_hash: NotRequired[str]
    options: NotRequired[JsonObject]
    seed: NotRequired[int]
    started_at: NotRequired[float]
    duration_s: NotRequired[float]
    status: NotRequired[str]
    trajectory: NotRequired[Trajectory]


class MatchLine(_Played):
    """An arena match (``kind: "match"``).

    A match played against a person in ``langgraph-games serve`` adds ``source: "serve"``
    and the person's ``human_seat``.
    """

    kind: Literal["match"]
    game: str
    seats: list[str]
    result: ResultLine
    match_id: NotRequired[str]
    round: NotRequired[int]
    source: NotRequired[str]
    human_seat: NotRequired[int]


class EpisodeLine(_Played):
    """An evaluation or training episode (``kind: "episode"``) with its family's metrics.

    Training episodes (Agent-ExpVer) add ``id``, ``round``, ``split``, ``level`` and
    ``truths``.
    """

    kind: Literal["episode"]
    game: str
    result: EpisodeResultLine
    metrics: dict[str, Any]
    episode_id: NotRequired[str]
    label: NotRequired[str]
    family: NotRequired[str]
    seats: NotRequired[list[str]]
    id: NotRequired[str]
    round: NotRequired[int]
    split: NotRequired[str]
    level: NotRequired[str]
    truths: NotRequired[list[str]]


class FailedLine(TypedDict):
    """A match or episode that raised (``status: "error"``); it is retried on resume."""

    kind: Literal["match", "episode"]
    status: Literal["error"]
    game: NotRequired[str]
    error: NotRequired[str]
    spec_hash: NotRequired[str]
    match_id: NotRequired[str]
    episode_id: NotRequired[str]
    label: NotRequired[str]
    seats: NotRequired[list[str]]
    seed: NotRequired[int]
    options: NotRequired[JsonObject]
    round: NotRequired[int]
    started_at: NotRequired[float]
    duration_s: NotRequired[float]


class RoundLine(TypedDict):
    """An Agent-ExpVer round (``kind: "round"``), split ``train`` or ``test``.

    See :data:`~langgraph_games.eval.reports.report.ROUND_FIELDS` for the meaning of
    each key; a train round also counts what the loop promoted and wove.
    """

    kind: Literal["round"]
    round: int
    id: NotRequired[str]
    label: NotRequired[str]
    game: NotRequired[str]
    split: NotRequired[str]
    success_rate: NotRequired[float]
    score: NotRequired[float]
    steps: NotRequired[float]
    scores: NotRequired[dict[str, float]]
    levels: NotRequired[list[str]]
    promoted: NotRequired[int]
    rejected: NotRequired[int]
    reverted: NotRequired[bool]
    truths_added: NotRequired[int]
    truths_merged: NotRequired[int]
    duplicates: NotRequired[int]
    same_meaning: NotRequired[int]
    supported: NotRequired[int]
    superseded: NotRequired[int]
    refined: NotRequired[int]
    refused: NotRequired[int]
    truths_reverted: NotRequired[int]
    truths_active: NotRequired[int]
    decision: NotRequired[str]
    evaluated: NotRequired[bool]
    accepted_scores: NotRequired[dict[str, float]]
    spec_hash: NotRequired[str]


ResultsLine = MatchLine | EpisodeLine | FailedLine | RoundLine
"""A usable line of a results file."""


class RunFields(TypedDict):
    """The fields every record of a run starts with (the executor's ``base``)."""

    kind: Literal["match", "episode"]
    spec_hash: str


class JobFields(TypedDict, total=False):
    """A job's own fields (the arena's ``match_id`` and ``round``, an evaluation's ``label``)."""

    match_id: str
    round: int
    episode_id: str
    label: str


class PlayedRecord(RunFields, JobFields):
    """What the executor appends for one job: the writer's type of a match or episode line.

    A finished job has ``result`` and ``trajectory`` (evaluation episodes get ``family``
    and ``metrics`` before the append); a failed one ``status: "error"`` and ``error``. A job
    lost with its worker process has no ``options``, ``started_at`` nor ``duration_s``.
    Every such record reads back as a :data:`MatchLine`, :data:`EpisodeLine` or
    :data:`FailedLine`.
    """

    game: str
    options: NotRequired[JsonObject]
    seed: int
    seats: list[str]
    started_at: NotRequired[float]
    status: str
    error: NotRequired[str]
    result: NotRequired[EpisodeResult]
    trajectory: NotRequired[Trajectory]
    duration_s: NotRequired[float]
    family: NotRequired[str]
    metrics: NotRequired[dict[str, Any]]


class Manifest(TypedDict):
    """``<results>.manifest.json``: the run's spec and what it ran with.

    The spec's own fields (game, players, seeds ...) sit beside these keys. Manifests
    from before runs recorded them lack the dependency versions, ``git`` (``None``
    outside a checkout), ``host`` and the times; ``finished_at`` (with the run's counts)
    is added when the run ends.
    """

    spec_hash: str
    package_version: str
    python: str
    models: JsonObject
    dependencies: NotRequired[dict[str, str | None]]
    git: NotRequired[GitSource | None]
    host: NotRequired[Host]
    started_at: NotRequired[str]
    finished_at: NotRequired[str]


_TYPES: dict[str, type[Any]] = {
    "match": MatchLine,
    "episode": EpisodeLine,
    "round": RoundLine,
    "error": FailedLine,
}
_ADAPTERS: dict[str, TypeAdapter[Any]] = {key: TypeAdapter(t) for key, t in _TYPES.items()}
_SCORE = TypeAdapter(ScoreLine)
_SCORES = TypeAdapter(list[ScoreLine])


def validate_line(record: dict[str, Any]) -> ResultsLine:
    """Check one line of a known kind against its type; returns the line itself.

    A finished match or episode is also checked against itself: one return per seat of
    its game (when the game is registered), as many ``seats`` and ``result.players`` as
    returns (an episode's counters may be left out or empty), winners, a forfeit and a
    human seat that are seats, trajectory decisions keyed by seats, and every scored
    answer a :data:`ScoreLine`.

    Raises:
        ValueError: The line is of no known kind, or does not fit its kind's type. The
            message is ``"<kind> record without <keys>"`` (a missing nested record is named
            by its required keys, e.g. ``result.returns, result.players``) and/or ``"with
            <key> <problem>"``, the first few of each; or ``"<kind> record with <what does
            not agree>"``.
    """
    kind = record.get("kind")
    key = "error" if record.get("status") == "error" else kind
    if not isinstance(key, str) or key not in _TYPES:
        raise ValueError(f"record of unknown kind {shown(kind)} (known: {', '.join(KINDS)})")
    check_record(_ADAPTERS[key], _TYPES[key], record, f"{kind} record")
    typed = cast("ResultsLine", record)
    if typed["kind"] != "round" and not is_failed(typed):
        _check_played(typed)
    return typed


def _check_played(record: MatchLine | EpisodeLine) -> None:
    """What the types cannot say: the seats, returns, counters and trajectory agree."""
    what = f"{record['kind']} record"
    result = record["result"]
    seats = len(result["returns"])
    if seats == 0:
        raise ValueError(f"{what} with no result.returns")
    try:
        game = game_class(record["game"])
    except UnknownGameError:  # a game from elsewhere: load_results sets it aside by name
        game = None
    expected = seats if game is None else len(game.player_names)
    played = result.get("record")
    if game is not None and played is not None and not _same_game(game, played["game"]):
        raise ValueError(
            f"{what} of {record['game']} with result.record of {shown(played['game'])}"
        )
    if seats != expected:
        raise ValueError(f"{what} with {seats} result.returns for a game of {expected} seat(s)")
    named = record.get("seats")
    if named is not None and len(named) != seats:
        raise ValueError(f"{what} with {len(named)} seats and {seats} result.returns")
    counters = result.get("players")  # an episode's may be left out, or empty
    if counters is not None and len(counters) != seats and (counters or record["kind"] == "match"):
        raise ValueError(f"{what} with {len(counters)} result.players and {seats} seats")
    given: list[tuple[str, int | None]] = [("result.winners", w) for w in result.get("winners", [])]
    given.append(("result.forfeit", result.get("forfeit")))
    if record["kind"] == "match":
        given.append(("human_seat", record.get("human_seat")))
    for name, index in given:
        if index is not None and not 0 <= index < seats:
            raise ValueError(f"{what} with {name} {index}, not one of its {seats} seat(s)")
    keys = {str(index) for index in range(seats)}
    scores: list[tuple[int, dict[str, Any]]] = []
    for number, step in enumerate(record.get("trajectory", [])):
        for key, decision in step["decisions"].items():
            if key not in keys:
                raise ValueError(
                    f"{what} with trajectory.{number}.decisions key {shown(key)}, not a seat"
                )
            own = decision.get("scores", [])  # older files and hand-made lines
            scores += [(number, s) for s in own]
            scores += [(number, s) for a in decision["attempts"] for s in a["scores"]]
    try:  # every score at once; one by one only to name the first that does not fit
        _SCORES.validate_python([score for _, score in scores], strict=True)
    except ValidationError:
        for number, score in scores:
            check_record(_SCORE, ScoreLine, score, f"{what} with a score at step {number}")


def is_failed(record: ResultsLine) -> TypeIs[FailedLine]:
    """Whether ``record`` is a match or episode that ended in an error."""
    return record.get("status") == "error"


@dataclass(frozen=True)
class LoadedRecord:
    """A usable record, where it came from (file and line)."""

    path: Path
    line: int
    record: ResultsLine

    @property
    def source(self) -> str:
        """``"<file> line <n>"``."""
        return f"{self.path.name} line {self.line}"


@dataclass
class Loaded:
    """The usable records of some results files, and notes on what was set aside.

    ``unknown_games`` counts the match and episode records set aside because their game
    is not registered here, by game id.
    """

    records: list[LoadedRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unknown_games: dict[str, int] = field(default_factory=dict)

    def of_kind(self, kind: str, path: Path | None = None) -> list[ResultsLine]:
        """The records of one kind (of one file when ``path`` is given)."""
        return [
            r.record
            for r in self.records
            if r.record["kind"] == kind and (path is None or r.path == path)
        ]

    def matches(self, path: Path | None = None) -> list[MatchLine | FailedLine]:
        """The match records, failed ones included (of one file when ``path`` is given)."""
        return [r for r in self.of_kind("match", path) if r["kind"] == "match"]

    def episodes(self, path: Path | None = None) -> list[EpisodeLine | FailedLine]:
        """The episode records, failed ones included (of one file when ``path`` is given)."""
        return [r for r in self.of_kind("episode", path) if r["kind"] == "episode"]

    def rounds(self, path: Path | None = None) -> list[RoundLine]:
        """The training-round records (of one file when ``path`` is given)."""
        return [r for r in self.of_kind("round", path) if r["kind"] == "round"]

    def paths(self, kind: str) -> list[Path]:
        """The files holding records of ``kind``, in the order given."""
        seen: dict[Path, None] = {}
        for r in self.records:
            if r.record["kind"] == kind:
                seen.setdefault(r.path, None)
        return list(seen)


def _same_game(game: type[object], game_id: str) -> bool:
    try:
        return game_class(game_id) is game
    except UnknownGameError:
        return False


def line_numbers(numbers: Sequence[int]) -> str:
    """``line 3``, ``lines 1, 2, 5`` or ``lines 1, ..., 8 and 4 more``, as notes name lines."""
    listed = ", ".join(str(n) for n in numbers[:8])
    more = f" and {len(numbers) - 8} more" if len(numbers) > 8 else ""
    return f"line{'s' if len(numbers) > 1 else ''} {listed}{more}"


def _file_spec(path: Path, hashes: Iterable[str]) -> tuple[str | None, str]:
    manifest = path.with_suffix(".manifest.json")
    if manifest.is_file():
        try:
            spec = json.loads(manifest.read_text(encoding="utf-8")).get("spec_hash")
        except (OSError, ValueError, AttributeError, RecursionError):
            spec = None
        if isinstance(spec, str) and spec:
            return spec, "its manifest"
    counts = Counter(hashes)
    if not counts:
        return None, ""
    return counts.most_common(1)[0][0], "most of its records"


def _hash(value: str | None) -> str:
    """A spec hash as written (hex), anything else quoted."""
    text = str(value)
    return text if text.isalnum() and len(text) <= NOTE_VALUE_CHARS else shown(text)


def _registered(game_id: str) -> bool:
    try:
        game_class(game_id)
    except UnknownGameError:
        return False
    return True


def load_results(
    paths: Sequence[str | Path], kinds: Sequence[str] = KINDS, *, check_specs: bool = True
) -> Loaded:
    """Read results files, keep what reports can use and note the rest.

    Args:
        paths: Results files (``.jsonl``).
        kinds: The record kinds wanted; others are noted as skipped unless they are
            :data:`KINDS` (a report of matches need not mention a file's rounds).
        check_specs: Set aside records of another spec than the file's (tables must
            not mix specs; a replay of one record may).

    Raises:
        ValueError: A path does not exist.
    """
    loaded = Loaded()
    known_games: dict[str, bool] = {}
    for raw_path in paths:
        path = Path(raw_path)
        if not path.is_file():
            raise ValueError(f"results file {path} does not exist")
        read = ResultsFile(path).read()
        loaded.notes += [f"{path.name} line {n}: {why}; skipped" for n, why in read.skipped]
        rows = list(zip(read.lines, read.records, strict=True))
        spec, spec_from = _file_spec(
            path,
            (
                r["spec_hash"]
                for _, r in rows
                if r.get("kind") in ("match", "episode") and isinstance(r.get("spec_hash"), str)
            ),
        )
        unknown_kind: dict[str, list[int]] = defaultdict(list)
        unknown_game: dict[str, list[int]] = defaultdict(list)
        other_spec: dict[str, list[int]] = defaultdict(list)
        malformed: dict[str, list[int]] = defaultdict(list)
        for line, record in rows:
            kind = record.get("kind")
            if not isinstance(kind, str) or kind not in KINDS:
                unknown_kind[shown(kind)].append(line)
                continue
            if kind not in kinds:
                continue
            if kind in ("match", "episode"):
                game = record.get("game", "")
                if not isinstance(game, str):
                    game = shown(game)
                if game not in known_games:
                    known_games[game] = _registered(game)
                if not known_games[game]:
                    unknown_game[game].append(line)
                    continue
                record_spec = record.get("spec_hash")
                if (
                    check_specs
                    and spec is not None
                    and isinstance(record_spec, str)
                    and record_spec
                    and record_spec != spec
                ):
                    other_spec[record_spec].append(line)
                    continue
            try:
                typed = validate_line(record)
            except ValueError as exc:
                malformed[str(exc)].append(line)
                continue
            loaded.records.append(LoadedRecord(path, line, typed))
        for kind, lines in unknown_kind.items():
            loaded.notes.append(
                f"{path.name} {line_numbers(lines)}: unknown record kind {kind} (known: "
                f"{', '.join(KINDS)}); skipped"
            )
        for game, lines in unknown_game.items():
            loaded.unknown_games[game] = loaded.unknown_games.get(game, 0) + len(lines)
            registered = ", ".join(info.versioned_id for info in list_games())
            loaded.notes.append(
                f"{path.name} {line_numbers(lines)}: game {shown(game)} is not registered here "
                f"(registered: {registered}); {len(lines)} record(s) skipped"
            )
        for other, lines in other_spec.items():
            loaded.notes.append(
                f"{path.name} {line_numbers(lines)}: spec {_hash(other)} differs from the "
                f"file's spec {_hash(spec)} (from {spec_from}); mixed specs are not summarised "
                f"together, {len(lines)} record(s) skipped"
            )
        for why, lines in malformed.items():
            loaded.notes.append(f"{path.name} {line_numbers(lines)}: malformed ({why}); skipped")
    return loaded
