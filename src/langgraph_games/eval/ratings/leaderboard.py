"""A leaderboard per game and overall: ratings, O, I and win rates with bootstrap intervals.

Per game (the versioned id), from that game's matches (see
:mod:`~langgraph_games.eval.ratings.matches`):

- the **rating** players are ranked by: a Bradley-Terry fit of all the matches at once
  on Elo's scale, with its interval (:mod:`~langgraph_games.eval.ratings.bradley_terry`);
  the board is sorted by the interval's **low end**, a conservative rating, so a player
  with few matches does not outrank one that has shown its level over many; a player
  with fewer than ``min_matches`` matches is flagged as **provisional**;
- **Elo** and openskill **skill** ``mu`` (:mod:`~langgraph_games.eval.ratings.systems`),
  averaged over ``orderings`` seeded permutations of the matches;
- **O**, **I** and W-D-L from :func:`~langgraph_games.eval.scoring.metrics.player_rows`,
  the report's own scoring (so a leaderboard's O and I equal the report's); the **win
  rate** is ``(wins + draws / 2) / matches``;
- per pair that met, A's **score rate** against B, the Elo and ``mu`` differences and
  the matches needed to tell them apart
  (:func:`~langgraph_games.eval.ratings.stats.matches_to_separate`).

**Overall** (when the files hold more than one game): one Elo and one skill pool over
every game's matches (a player is the same spec string in every game); W-D-L and the
win rate pooled over all its matches; O and I the mean of the player's per-game values
over the games it played (with intervals); pairs pool their head-to-head matches of
every game.

**The paper's table** (when more than one game was played, counting a game whose every
match failed): GAMEBoT's Table 2 from the same per-game O and I, with ``Avg. O``,
``Avg. I`` and ``Avg.``, a game a player did not finish counting as O = -0.5
(:mod:`~langgraph_games.eval.scoring.cross_game`, the table ``report`` prints too). Its
averages differ from the overall board's O and I only where a player did not finish a
game.

**Intervals**: ``bootstrap`` replicates, each resampling every game's matches with
replacement (as many as it has; games are resampled separately, so the overall board's
replicate is the union of the games' replicates); the replicate's ratings come from one
seeded random order of its matches. Each statistic's interval is the central
``confidence`` percentile range over the replicates in which it exists. Seeds derive
from ``seed`` and the game id, so a game's board is the same whether or not other
games' files are given. A match of a player against itself counts in its O, I and
W-D-L (as in the report) but not in ratings or pairs.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from langgraph_games.eval.ratings.bradley_terry import (
    BradleyTerrySettings,
    Fitted,
    fit_bradley_terry,
)
from langgraph_games.eval.ratings.matches import Match, MatchSet
from langgraph_games.eval.ratings.stats import (
    Estimate,
    Separation,
    estimate,
    matches_to_separate,
    z_value,
)
from langgraph_games.eval.ratings.systems import (
    SKILL_MODELS,
    EloSettings,
    Ratings,
    rate,
    skill_unavailable,
)
from langgraph_games.eval.scoring.cross_game import CrossGameTable, build_cross_game
from langgraph_games.eval.scoring.metrics import Scoring, player_rows
from langgraph_games.games.state import derive_rng

__all__ = [
    "POOLING",
    "Board",
    "Leaderboard",
    "PairStanding",
    "RatingSettings",
    "Standing",
    "build_leaderboard",
]

POOLING = (
    "one rating pool over every game's matches; W-D-L and win rate pooled over all "
    "matches; O and I are the mean of the player's per-game values over the games it played"
)
"""How the overall board pools games (printed under it)."""


@dataclass(frozen=True)
class RatingSettings:
    """How a leaderboard is computed.

    Attributes:
        bootstrap: Replicates for the intervals (0: no intervals).
        seed: Seeds the permutations and the resampling.
        orderings: Permutations the point ratings are averaged over.
        confidence: Of every interval.
        elo: Elo's constants.
        skill_model: The openskill model (``bradley_terry``, ``plackett_luce``,
            ``thurstone_mosteller``).
        scoring: How O and I are read (as ``report``'s flags).
        min_matches: A player with fewer matches on a board is flagged as provisional.
        prior_sd: The ranking rating's prior standard deviation, in rating points (see
            :mod:`~langgraph_games.eval.ratings.bradley_terry`).
    """

    bootstrap: int = 1000
    seed: int = 0
    orderings: int = 100
    confidence: float = 0.95
    elo: EloSettings = field(default_factory=EloSettings)
    skill_model: str = "bradley_terry"
    scoring: Scoring = field(default_factory=Scoring)
    min_matches: int = 10
    prior_sd: float = 400.0

    def __post_init__(self) -> None:
        if self.bootstrap < 0:
            raise ValueError(f"bootstrap replicates must be 0 or more, got {self.bootstrap}")
        if self.orderings < 1:
            raise ValueError(f"orderings must be at least 1, got {self.orderings}")
        z_value(self.confidence)  # validates
        if self.min_matches < 0:
            raise ValueError(f"min matches must be 0 or more, got {self.min_matches}")
        if not self.prior_sd > 0:
            raise ValueError(
                f"the prior's standard deviation must be positive, got {self.prior_sd}"
            )
        if self.skill_model not in SKILL_MODELS:
            raise ValueError(
                f"skill model {self.skill_model!r}: accepted {', '.join(sorted(SKILL_MODELS))}"
            )


@dataclass(frozen=True)
class Standing:
    """A player's line on a board.

    Attributes:
        rating: The ranking rating and its interval (the board is sorted by ``low``).
        provisional: Fewer matches than the settings' ``min_matches``.
    """

    player: str
    matches: int
    wins: int
    draws: int
    losses: int
    rating: Estimate
    provisional: bool
    elo: Estimate
    mu: Estimate
    sigma: float
    outcome: Estimate
    intermediate: Estimate
    win_rate: Estimate


@dataclass(frozen=True)
class PairStanding:
    """Two players who met: A (ranked higher) against B."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    score_rate: Estimate
    elo_diff: Estimate
    mu_diff: Estimate
    separation: Separation


@dataclass
class Board:
    """One game's leaderboard, or the overall one (``name == "overall"``)."""

    name: str
    matches: int
    standings: list[Standing]
    pairs: list[PairStanding]
    pooling: str | None = None


@dataclass
class Leaderboard:
    """Every board, and what was read and left out.

    Attributes:
        boards: Each game's, then the overall one (when there are several games).
        settings: How it was computed.
        files: Files read.
        counts: Records left out, by reason (see ``MatchSet.counts``).
        notes: What was left out, in words.
        skill_model: The openskill model used, ``None`` when openskill is missing.
        cross_game: The paper's cross-game table (O and I per game, ``Avg.``), when more
            than one game was played.
    """

    boards: list[Board]
    settings: RatingSettings
    files: int
    counts: dict[str, int]
    notes: list[str]
    skill_model: str | None = None
    cross_game: CrossGameTable | None = None


@dataclass
class _Stats:
    """The statistics of one match set (all matches, or one bootstrap replicate)."""

    ratings: Ratings
    outcome: dict[str, float] = field(default_factory=dict)
    intermediate: dict[str, float] = field(default_factory=dict)
    wdl: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    pair_scores: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def win_rate(self, player: str) -> float:
        wins, draws, losses = self.wdl[player]
        return (wins + draws / 2) / (wins + draws + losses)


def _rated(matches: Sequence[Match]) -> list[tuple[str, str, float]]:
    return [(m.seats[0], m.seats[1], m.score) for m in matches if m.seats[0] != m.seats[1]]


def _pair_scores(matches: Sequence[Match]) -> dict[tuple[str, str], list[float]]:
    """``{(a, b): a's scores}`` with ``a < b`` by name."""
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for m in matches:
        a, b = m.seats
        if a == b:
            continue
        if a < b:
            pairs[(a, b)].append(m.score)
        else:
            pairs[(b, a)].append(1.0 - m.score)
    return dict(pairs)


def _game_stats(
    matches: Sequence[Match],
    rng: random.Random,
    orderings: int,
    settings: RatingSettings,
    skill: str | None,
) -> _Stats:
    ratings = rate(
        _rated(matches),
        rng,
        orderings=orderings,
        elo=settings.elo,
        model=skill,
    )
    stats = _Stats(ratings, pair_scores=_pair_scores(matches))
    for row in player_rows([m.record for m in matches], settings.scoring):
        name = str(row["player"])
        stats.outcome[name] = float(row["O"])
        if row["I"] is not None:
            stats.intermediate[name] = float(row["I"])
        stats.wdl[name] = (int(row["wins"]), int(row["draws"]), int(row["losses"]))
    return stats


def _overall_stats(
    per_game: Mapping[str, _Stats],
    matches: Sequence[Match],
    rng: random.Random,
    orderings: int,
    settings: RatingSettings,
    skill: str | None,
) -> _Stats:
    ratings = rate(_rated(matches), rng, orderings=orderings, elo=settings.elo, model=skill)
    stats = _Stats(ratings, pair_scores=_pair_scores(matches))
    outcomes: dict[str, list[float]] = defaultdict(list)
    intermediates: dict[str, list[float]] = defaultdict(list)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for game_stats in per_game.values():
        for name, value in game_stats.outcome.items():
            outcomes[name].append(value)
        for name, value in game_stats.intermediate.items():
            intermediates[name].append(value)
        for name, wdl in game_stats.wdl.items():
            for i in range(3):
                totals[name][i] += wdl[i]
    stats.outcome = {name: sum(v) / len(v) for name, v in outcomes.items()}
    stats.intermediate = {name: sum(v) / len(v) for name, v in intermediates.items()}
    stats.wdl = {name: (t[0], t[1], t[2]) for name, t in totals.items()}
    return stats


def _resample(matches: Sequence[Match], rng: random.Random) -> list[Match]:
    n = len(matches)
    return [matches[rng.randrange(n)] for _ in range(n)]


def _series(replicates: Sequence[_Stats], pick: Callable[[_Stats], float | None]) -> list[float]:
    """A statistic over the replicates in which it exists."""
    values = (pick(r) for r in replicates)
    return [float(v) for v in values if v is not None]


def _pair_rate(stats: _Stats, key: tuple[str, str], flip: bool) -> float | None:
    scores = stats.pair_scores.get(key)
    if not scores:
        return None
    value = sum(scores) / len(scores)
    return 1.0 - value if flip else value


def _diff(values: Mapping[str, float], a: str, b: str) -> float | None:
    return values[a] - values[b] if a in values and b in values else None


def _rating(fitted: Fitted | None, z: float) -> Estimate:
    if fitted is None:  # only self-play: nobody to be rated against
        return Estimate(None)
    low, high = fitted.interval(z)
    return Estimate(fitted.rating, low, high)


def _standing(
    p: str,
    point: _Stats,
    replicates: Sequence[_Stats],
    fitted: Mapping[str, Fitted],
    settings: RatingSettings,
) -> Standing:
    confidence = settings.confidence
    wins, draws, losses = point.wdl[p]
    return Standing(
        player=p,
        matches=wins + draws + losses,
        wins=wins,
        draws=draws,
        losses=losses,
        rating=_rating(fitted.get(p), z_value(confidence)),
        provisional=wins + draws + losses < settings.min_matches,
        elo=estimate(
            point.ratings.elo.get(p),
            _series(replicates, lambda r: r.ratings.elo.get(p)),
            confidence,
        ),
        mu=estimate(
            point.ratings.mu.get(p), _series(replicates, lambda r: r.ratings.mu.get(p)), confidence
        ),
        sigma=point.ratings.sigma.get(p, float("nan")),
        outcome=estimate(
            point.outcome.get(p), _series(replicates, lambda r: r.outcome.get(p)), confidence
        ),
        intermediate=estimate(
            point.intermediate.get(p),
            _series(replicates, lambda r: r.intermediate.get(p)),
            confidence,
        ),
        win_rate=estimate(
            point.win_rate(p),
            _series(replicates, lambda r: r.win_rate(p) if p in r.wdl else None),
            confidence,
        ),
    )


def _pair(
    key: tuple[str, str],
    rank: Mapping[str, int],
    point: _Stats,
    replicates: Sequence[_Stats],
    confidence: float,
) -> PairStanding:
    x, y = key
    flip = rank[y] < rank[x]
    a, b = (y, x) if flip else (x, y)
    mine = [1.0 - s if flip else s for s in point.pair_scores[key]]
    return PairStanding(
        a=a,
        b=b,
        wins=sum(1 for s in mine if s == 1.0),
        draws=sum(1 for s in mine if s == 0.5),
        losses=sum(1 for s in mine if s == 0.0),
        score_rate=estimate(
            _pair_rate(point, key, flip),
            _series(replicates, lambda r: _pair_rate(r, key, flip)),
            confidence,
        ),
        elo_diff=estimate(
            _diff(point.ratings.elo, a, b),
            _series(replicates, lambda r: _diff(r.ratings.elo, a, b)),
            confidence,
        ),
        mu_diff=estimate(
            _diff(point.ratings.mu, a, b),
            _series(replicates, lambda r: _diff(r.ratings.mu, a, b)),
            confidence,
        ),
        separation=matches_to_separate(mine, confidence),
    )


def _rank_key(standing: Standing) -> tuple[float, float, str]:
    low = standing.rating.low
    value = standing.rating.value
    return (
        -(low if low is not None else float("-inf")),
        -(value if value is not None else float("-inf")),
        standing.player,
    )


def _board(
    name: str,
    matches: Sequence[Match],
    point: _Stats,
    replicates: Sequence[_Stats],
    settings: RatingSettings,
    pooling: str | None = None,
) -> Board:
    fitted = fit_bradley_terry(
        _rated(matches),
        BradleyTerrySettings(settings.elo.base, settings.elo.scale, settings.prior_sd),
    )
    confidence = settings.confidence
    standings = [_standing(p, point, replicates, fitted, settings) for p in point.wdl]
    standings.sort(key=_rank_key)
    rank = {s.player: i for i, s in enumerate(standings)}
    pairs = [_pair(key, rank, point, replicates, confidence) for key in point.pair_scores]
    pairs.sort(key=lambda pair: (rank[pair.a], rank[pair.b]))
    return Board(name, len(matches), standings, pairs, pooling)


def build_leaderboard(
    found: MatchSet,
    settings: RatingSettings | None = None,
    *,
    on_replicate: Callable[[], None] | None = None,
) -> Leaderboard:
    """Every game's board, and the overall one when there are several games.

    Args:
        found: From :func:`~langgraph_games.eval.ratings.matches.load_matches`.
        settings: Replicates, seed, orderings, Elo constants, skill model, scoring.
        on_replicate: Called after each bootstrap replicate (a progress bar's tick).

    Raises:
        ValueError: No two-seat match to rate.
    """
    settings = settings or RatingSettings()
    games = found.by_game()
    if not games:
        why = "; ".join(found.notes) or "the files hold no match records"
        raise ValueError(f"no finished two-seat matches to rate: {why}")
    seed = settings.seed
    missing = skill_unavailable()
    skill = None if missing else settings.skill_model
    point = {
        game: _game_stats(
            matches, derive_rng(seed, "orderings", game), settings.orderings, settings, skill
        )
        for game, matches in games.items()
    }
    draws = {game: derive_rng(seed, "bootstrap", game) for game in games}
    overall_draw = derive_rng(seed, "bootstrap", "overall")
    replicates: dict[str, list[_Stats]] = {game: [] for game in games}
    overall_replicates: list[_Stats] = []
    for _ in range(settings.bootstrap):
        samples = {game: _resample(matches, draws[game]) for game, matches in games.items()}
        stats = {
            game: _game_stats(sample, draws[game], 1, settings, skill)
            for game, sample in samples.items()
        }
        for game, game_stats in stats.items():
            replicates[game].append(game_stats)
        if len(games) > 1:
            pooled = [m for game in games for m in samples[game]]
            overall_replicates.append(
                _overall_stats(stats, pooled, overall_draw, 1, settings, skill)
            )
        if on_replicate is not None:
            on_replicate()
    boards = [_board(game, games[game], point[game], replicates[game], settings) for game in games]
    if len(games) > 1:
        everything = [m for matches in games.values() for m in matches]
        overall = _overall_stats(
            point,
            everything,
            derive_rng(seed, "orderings", "overall"),
            settings.orderings,
            settings,
            skill,
        )
        boards.append(_board("overall", everything, overall, overall_replicates, settings, POOLING))
    cross_game = None
    if len(set(games) | set(found.unfinished)) > 1:
        cross_game = build_cross_game(
            [
                (player, game, value, stats.intermediate.get(player))
                for game, stats in point.items()
                for player, value in stats.outcome.items()
            ],
            [(player, game) for game, players in found.unfinished.items() for player in players],
        )
    notes = list(found.notes)
    if missing:
        notes.append(missing)
    self_play = sum(1 for m in found.matches if m.seats[0] == m.seats[1])
    if self_play:
        notes.append(
            f"{self_play} match(es) of a player against itself count in its O, I and W-D-L "
            "but not in ratings or pairs"
        )
    return Leaderboard(boards, settings, found.files, dict(found.counts), notes, skill, cross_game)
