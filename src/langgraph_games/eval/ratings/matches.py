"""The two-seat matches that ratings are computed from, in an order that ignores the files'.

Records are read with :func:`~langgraph_games.eval.running.records.load_results` (a
truncated last line, an unregistered game or another spec than the file's is left out
with a note). Of what remains, a rating uses every finished record with two seats: arena
matches, and evaluation episodes of a two-seat game (the agent against its opponent).
Left out and counted:

- one-seat evaluation episodes (maze, Minesweeper, SmartPlay, ...: nobody to rate against);
- records with another number of seats, and two-seat records without the seats' counters
  (``result.players``, which O and I are read from);
- error records (a match whose every run failed; an error that a rerun finished is
  counted apart, as the report does, and the finished record is used); a player seated
  only in such matches of a game did not finish it (``MatchSet.unfinished``, which the
  cross-game table counts as the paper did);
- the same match given twice (the same file passed twice, or a file and its copy): a
  match is ``(kind, spec hash, match or episode id)``; records without an id are each
  taken as they are;
- with a game filter, the records of other games.

**Order.** The matches are sorted by their content (game, then the record's canonical
JSON), so everything computed from them is the same whatever order the files and their
lines came in; of two finished records of one match the first in that order is used.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langgraph_games.eval.running.records import EpisodeLine, MatchLine, is_failed, load_results
from langgraph_games.games.registry import game_class

__all__ = ["Match", "MatchSet", "load_matches", "seat_score"]


@dataclass(frozen=True)
class Match:
    """One finished two-seat game.

    Attributes:
        game: The versioned game id (``"tictactoe-v1"``).
        seats: The player spec of each seat.
        score: Seat 0's score: 1 for a win, 0.5 for a draw, 0 for a loss.
        record: The results record (what the scoring functions read).
    """

    game: str
    seats: tuple[str, str]
    score: float
    record: MatchLine | EpisodeLine


@dataclass
class MatchSet:
    """The matches of some results files, and what was left out.

    Attributes:
        matches: In content order (see the module docstring).
        files: How many files were read.
        counts: Records left out, by reason (``one_seat_episodes``, ``error_records``,
            ``retried_errors``, ``duplicates``, ``other_seats``, ``malformed``, ``other_games``).
        notes: What :func:`load_results` set aside, and the counts in words.
        unfinished: ``{game: players}``: the players seated in a game's error records
            (matches whose every run failed) who finished no match of that game.
    """

    matches: list[Match] = field(default_factory=list)
    files: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unfinished: dict[str, list[str]] = field(default_factory=dict)

    def by_game(self) -> dict[str, list[Match]]:
        """The matches of each game, games sorted by id."""
        games: dict[str, list[Match]] = {}
        for match in self.matches:
            games.setdefault(match.game, []).append(match)
        return dict(sorted(games.items()))


def seat_score(returns: Sequence[float], seat: int) -> float:
    """1, 0.5 or 0: whether ``seat`` won, drew or lost, as the report's W-D-L counts it.

    Example:
        >>> seat_score([1.0, -1.0], 0), seat_score([0.0, 0.0], 1), seat_score([21, 9], 1)
        (1.0, 0.5, 0.0)
    """
    mine = float(returns[seat])
    best_other = max(float(r) for i, r in enumerate(returns) if i != seat)
    return 1.0 if mine > best_other else 0.0 if mine < best_other else 0.5


def _check_paths(paths: Sequence[str | Path]) -> list[Path]:
    if not paths:
        raise ValueError(
            "no results files given: pass one or more .jsonl files written by "
            "'langgraph-games arena' (or 'eval' with an opponent)"
        )
    checked = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            raise ValueError(f"{path} is a folder; give the .jsonl results files in it")
        if not path.exists():
            raise ValueError(f"results file {path} does not exist")
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise ValueError(f"cannot read results file {path}: {exc.strerror or exc}") from exc
        checked.append(path)
    return checked


def _base_id(game_id: str) -> str:
    return game_id.split("-v")[0]


def _canonical(record: Mapping[str, object]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), default=str)


def load_matches(paths: Sequence[str | Path], game: str | None = None) -> MatchSet:
    """Read results files and gather their finished two-seat matches.

    Args:
        paths: Results files (``.jsonl``).
        game: Only this game: a versioned id (``"tictactoe-v1"``) or a bare one
            (``"tictactoe"``: every version).

    Raises:
        ValueError: No paths, a path that does not exist, is a folder or cannot be read.
        UnknownGameError: ``game`` is not a registered game.
    """
    files = _check_paths(paths)
    if game is not None:
        game_class(game)  # a clear error listing the registered games
    loaded = load_results(files, kinds=("match", "episode"))
    found = MatchSet(files=len(files), notes=list(loaded.notes))
    counts: Counter[str] = Counter()
    finished: list[tuple[str, tuple[str, str, str] | None, MatchLine | EpisodeLine]] = []
    error_keys: list[tuple[str, str, str] | None] = []
    error_seats: list[tuple[str, list[str]]] = []
    for item in loaded.records:
        record = item.record
        if record["kind"] == "round":
            continue
        kind = str(record["kind"])
        record_game = record.get("game", "")
        if game is not None and game not in (record_game, _base_id(record_game)):
            counts["other_games"] += 1
            continue
        seats = record.get("seats")
        if seats is None or len(seats) != 2:
            one_seat = kind == "episode" and seats is not None and len(seats) == 1
            counts["one_seat_episodes" if one_seat else "other_seats"] += 1
            continue
        ident = record.get("match_id" if kind == "match" else "episode_id")
        key = None
        if ident is not None:
            key = (kind, str(record.get("spec_hash") or item.path.resolve()), str(ident))
        if is_failed(record):
            error_keys.append(key)
            error_seats.append((str(record_game), list(seats)))
            continue
        players = record["result"].get("players")
        if players is None or len(players) != 2:
            counts["malformed"] += 1
            continue
        finished.append((f"{record_game}\n{_canonical(record)}", key, record))
    finished.sort(key=lambda entry: entry[0])
    seen: set[tuple[str, str, str]] = set()
    for _, key, record in finished:
        if key is not None:
            if key in seen:
                counts["duplicates"] += 1
                continue
            seen.add(key)
        returns = record["result"]["returns"]
        pair = (record["seats"][0], record["seats"][1])
        found.matches.append(Match(record["game"], pair, seat_score(returns, 0), record))
    for key in error_keys:
        counts["retried_errors" if key is not None and key in seen else "error_records"] += 1
    played = {(m.game, name) for m in found.matches for name in m.seats}
    for record_game, names in error_seats:
        for name in names:
            listed = found.unfinished.setdefault(record_game, [])
            if (record_game, name) not in played and name not in listed:
                listed.append(name)
    found.unfinished = {g: sorted(names) for g, names in sorted(found.unfinished.items()) if names}
    found.counts = {name: counts[name] for name in sorted(counts)}
    found.notes += _count_notes(found.counts, game)
    return found


_WHY = {
    "one_seat_episodes": "one-seat evaluation episode(s) skipped (nobody to rate against)",
    "other_seats": "record(s) without exactly two seats skipped",
    "error_records": "error record(s) skipped (matches whose every run failed)",
    "retried_errors": "error record(s) of matches a rerun finished (the finished record is used)",
    "duplicates": "duplicate record(s) of a match already counted skipped (a file given twice?)",
    "malformed": "record(s) without the two seats' counters (result.players) skipped",
    "other_games": "record(s) of other games skipped (--game {game})",
}


def _count_notes(counts: Mapping[str, int], game: str | None) -> list[str]:
    return [f"{number} {_WHY[name].format(game=game)}" for name, number in counts.items() if number]
