"""Pieces of the Agent-ExpVer loop: levels, options, the ledger, scoring, round statistics.

:mod:`langgraph_games.graphs.expver.graph` wires them into the LangGraph graph. Everything a
training run decides is kept in two durable places, so that a run killed anywhere and
started again continues exactly where it stopped:

- the **ledger** (a results file in ``langgraph-games train``; :class:`MemoryLedger` by
  default): one record per episode played (training play, verification replay, test
  episode) and two per finished round, each under a stable id; a unit of work whose record
  is there is never redone;
- the **store**: experiences (``("experiences", game)``), the truth base (``("truths",
  game)``, written only by TruthWeaver, idempotently by candidate id) and the run marker
  (``("expver", game)``).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field

from langgraph_games._json import JsonObject
from langgraph_games.games.base import Game
from langgraph_games.games.match2.metrics import episode_metrics as match2_metrics
from langgraph_games.games.maze.metrics import episode_metrics as maze_metrics
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import EpisodeResult, Step
from langgraph_games.graphs.expver.records import LedgerRecord
from langgraph_games.memory._revert import round_of_changes
from langgraph_games.memory.merge_prompts import normalize_text
from langgraph_games.memory.records import Truth, TruthStatus
from langgraph_games.memory.truth_weaver import WeaveMode
from langgraph_games.players.base import Player

__all__ = [
    "ExpVerError",
    "ExpVerOptions",
    "Ledger",
    "Level",
    "MemoryLedger",
    "MetricsFn",
    "PlayerFactory",
    "candidate_fates",
    "default_metrics",
    "reverted_lessons",
    "round_refusals",
    "round_touched",
    "round_truth_counts",
]

MetricsFn = Callable[[GameSession, EpisodeResult, Sequence[Step]], JsonObject]
"""``(session, result, trajectory) -> metrics`` of one finished episode."""

PlayerFactory = Callable[[BaseChatModel, Game[GameState]], Player]
"""``(model, engine) -> player``: GeoLink's policy for one episode (the truths come in
every :class:`~langgraph_games.players.base.DecisionRequest`)."""


class ExpVerError(ValueError):
    """The loop cannot run as asked (a store of another run, metrics without a score...)."""


class Level(BaseModel):
    """One level to train or test on: the game options and the seed of its episodes.

    Play and verification replay of a level use the same options and seed, so they face
    the same map and the same dynamics (monster moves, Match-2 refills).

    Attributes:
        id: Stable name, e.g. ``L1-train03`` (part of every record id).
        options: Game options of the level.
        seed: Episode seed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.:+-]+$")
    options: JsonObject = Field(default_factory=dict)
    seed: int = 0


class ExpVerOptions(BaseModel):
    """Options of the Agent-ExpVer loop (defaults: the paper's rules, small sizes).

    Attributes:
        rounds: Training rounds (a resumed run may ask for more than it first did).
        levels_per_round: Training levels played per round, taken in turn from the pool.
        retry_reverted: After a reverted round, the next round plays the same levels again
            (the paper: "the newest updates are reverted and abstraction is repeated");
            ``False`` moves on to the next levels of the pool.
        revert_retries: How many times in a row the same levels are played again after
            reverted rounds; then the loop moves on through the pool even if the retry
            was reverted too (a deterministic model would otherwise promote and revert the
            same lesson every remaining round).
        reverted_shown: Most lessons reverted earlier in the run shown to InsightForce as
            lessons not to propose again (newest first).
        promote: ``all``: the summary and every strength and weakness become candidate
            truths (the released code); ``summary``: only the summary.
        require_advice: Only the summary and the lessons the reflecting model typed as
            advice become truths (:mod:`~langgraph_games.graphs.expver.lessons`); ``False``
            promotes every item as written, as released.
        require_success: Promotion needs a successful replay (the paper's rule).
        min_score_gain: Promotion needs ``replay score - play score > min_score_gain``
            (0: strictly higher, the paper's rule).
        score_key: The metric compared by promotion and evaluation alike (one definition
            for both); ``custom_score`` gives the released evaluation script's maze score.
        success_key: The success metric, also shared by promotion and evaluation.
        revert: Revert a round whose test score drops (paper eq. 6).
        revert_tolerance: Revert when the mean test-score change is below
            ``-revert_tolerance`` (0: any drop).
        reevaluate_unchanged: Evaluate the test levels again after a round that changed
            no truth (by default such a round keeps the previous scores: same policy).
        weave_mode: TruthWeaver's mode: ``merge`` (default), ``rewrite`` (released code),
            ``append`` (the paper's ablation without TruthWeaver).
        duplicate_threshold: TruthWeaver's near-duplicate cosine similarity.
        merge_threshold: TruthWeaver's merge cosine similarity.
        truth_limit: At most this many truths in GeoLink's prompt (``None``: all).
        episode: Re-asks, fallback and step limit of every episode.
        concurrency: Test episodes at once (results do not depend on it).
        reflect_first: Steps shown to InsightForce from the start (released: 5).
        reflect_last: Steps shown from the end (released: 3).
        reflect_chars: Characters of reasoning shown per step (released: 200).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: int = Field(4, ge=1)
    levels_per_round: int = Field(2, ge=1)
    retry_reverted: bool = True
    revert_retries: int = Field(2, ge=0)
    reverted_shown: int = Field(10, ge=0)
    promote: str = Field("all", pattern="^(all|summary)$")
    require_advice: bool = True
    require_success: bool = True
    min_score_gain: float = 0.0
    score_key: str = "score"
    success_key: str = "success"
    revert: bool = True
    revert_tolerance: float = Field(0.0, ge=0.0)
    reevaluate_unchanged: bool = False
    weave_mode: WeaveMode = WeaveMode.MERGE
    duplicate_threshold: float = Field(0.95, gt=0.0, le=1.0)
    merge_threshold: float = Field(0.65, gt=0.0, le=1.0)
    truth_limit: int | None = Field(None, ge=0)
    episode: EpisodeOptions = Field(default_factory=EpisodeOptions)
    concurrency: int = Field(4, ge=1)
    reflect_first: int = Field(5, ge=0)
    reflect_last: int = Field(3, ge=0)
    reflect_chars: int = Field(200, ge=20)


class Ledger(Protocol):
    """Where the loop keeps its records: each unit of work under a stable id.

    ``get`` must return what ``add`` stored, also in a later process, for a run to resume.
    """

    def get(self, record_id: str) -> LedgerRecord | None:
        """The record stored under ``record_id`` (``None`` if there is none)."""
        ...

    def add(self, record: LedgerRecord) -> None:
        """Store ``record`` under ``record["id"]`` (durably, before returning)."""
        ...


class MemoryLedger:
    """A ledger in memory (records are lost with the process; pass a file-backed one to resume).

    Example:
        >>> ledger = MemoryLedger()
        >>> ledger.add({"id": "r1/train/a", "kind": "episode"})
        >>> ledger.get("r1/train/a")["kind"], ledger.get("nope")
        ('episode', None)
    """

    def __init__(self) -> None:
        self.records: dict[str, LedgerRecord] = {}
        self._lock = threading.Lock()

    def get(self, record_id: str) -> LedgerRecord | None:
        """The record under ``record_id``."""
        return self.records.get(record_id)

    def add(self, record: LedgerRecord) -> None:
        """Keep ``record`` under its ``id``."""
        with self._lock:
            self.records[str(record["id"])] = record


def default_metrics(
    session: GameSession, result: EpisodeResult, trajectory: Sequence[Step]
) -> JsonObject:
    """The paper's per-episode metrics for the maze and Match-2; ``return`` for other games.

    The same functions score evaluation runs (``eval/scoring/families.py`` routes to them), so
    training and evaluation share one definition of score and success.
    """
    counters = result["players"][0]
    calls = int(counters["model_calls"])
    game_id = session.game.id
    if game_id == "maze":
        return maze_metrics(session, api_calls=calls)
    if game_id == "match2":
        valid = int(counters["decisions"]) - int(counters["fallbacks"])
        return match2_metrics(session, api_calls=calls, valid_responses=min(valid, calls))
    score = float(session.returns[0]) if session.returns else 0.0
    return {"success": score > 0, "score": score, "steps": len(session.actions)}


def metric(metrics: Mapping[str, object], key: str, game: str) -> float:
    """``metrics[key]`` as a number, or a clear error naming the metrics there are.

    Raises:
        ExpVerError: The key is missing or not a number.
    """
    value = metrics.get(key)
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and math.isfinite(float(value)):
        return float(value)
    numeric = sorted(k for k, v in metrics.items() if isinstance(v, (int, float)))
    raise ExpVerError(
        f"the {game} metrics have no number {key!r} (got {value!r}); choose score_key / "
        f"success_key among: {', '.join(numeric)}"
    )


def numbers(metrics: Mapping[str, object]) -> dict[str, float]:
    """The numeric metrics (booleans as 0/1), as experiences store them."""
    out: dict[str, float] = {}
    for key, value in metrics.items():
        if isinstance(value, (bool, int, float)) and math.isfinite(float(value)):
            out[key] = float(value)
    return out


def round_touched(truth: Truth, stamp: int) -> bool:
    """Whether a live truth holds a change made in weave round ``stamp``."""
    if truth.status in (TruthStatus.REVERTED, TruthStatus.DELETED):
        return False
    return stamp in round_of_changes(truth)


def round_truth_counts(truths: Sequence[Truth], stamp: int) -> dict[str, int]:
    """What weave round ``stamp`` did to the truth base, read back from the truths.

    Counting from the store rather than from TruthWeaver's reports keeps the figures right
    after a resume (a resumed insert reports the candidates it skips as already present).
    Read before a revert: reverting undoes the round's changes.

    Returns:
        ``truths_added`` (candidates that became active entries), ``truths_merged``
        (merged entries made: the ``rewrite`` mode), ``duplicates`` (repeats of an entry's
        text), ``same_meaning`` (paraphrases recorded on an entry), ``supported`` (lessons
        that said part of an entry), ``refined`` (entries replaced by a more specific
        one), ``superseded`` (entries and candidates that lost a contest), ``restored``
        (retired entries brought back), ``refused`` (candidates meaning a retired lesson,
        without new evidence), ``contests`` and ``truths_active`` (active entries now).
    """
    created = [t for t in truths if t.round == stamp and t.live]
    changes = [c for t in truths for c in t.history if c.round == stamp]
    actions = Counter(c.action for c in changes)
    superseded = [c for c in changes if c.action == "superseded"]
    contests = [e for t in truths for e in t.evidence if e.round == stamp and e.kind == "contest"]
    return {
        "truths_added": sum(1 for t in created if t.kind != "merged" and t.active),
        "truths_merged": sum(1 for t in created if t.kind == "merged"),
        "duplicates": actions["exact-duplicate"] + actions["near-duplicate"],
        "same_meaning": actions["same-meaning"],
        "supported": actions["narrower"],
        "refined": sum(1 for c in superseded if c.detail.startswith("refined")),
        "superseded": sum(1 for c in superseded if not c.detail.startswith("refined")),
        "restored": actions["restored"],
        "refused": actions["refused"],
        "contests": len(contests) // 2,
        "truths_active": sum(1 for t in truths if t.status == TruthStatus.ACTIVE),
    }


def candidate_fates(truths: Sequence[Truth], ids: Sequence[str]) -> dict[str, str]:
    """What became of each candidate id, read back from the truths' histories.

    Read from the store rather than from TruthWeaver's report, so a resumed insert (which
    reports its candidates as already present) tells the same story.
    """
    fates: dict[str, str] = {}
    for truth in truths:
        for change in truth.history:
            other = change.other
            if other is not None and other in ids and other not in fates:
                fates[other] = f"{change.action} {truth.id}"
    return {cid: fates.get(cid, "not recorded") for cid in ids}


def round_refusals(truths: Sequence[Truth], stamp: int) -> list[str]:
    """Why each candidate refused in weave round ``stamp`` was turned away."""
    return [
        f"{c.other}: {c.detail}"
        for t in truths
        for c in t.history
        if c.round == stamp and c.action == "refused"
    ]


def reverted_lessons(truths: Sequence[Truth], limit: int) -> list[str]:
    """Lessons the loop reverted, newest first, for InsightForce's "do not propose" list.

    The texts of reverted entries, each once (normalised text), leaving out any that is
    active again (the same lesson re-entered and kept); at most ``limit``.
    """
    active = {normalize_text(t.text) for t in truths if t.status == TruthStatus.ACTIVE}
    reverted = sorted(
        (t for t in truths if t.status == TruthStatus.REVERTED),
        key=lambda t: (t.round, t.order, t.id),
        reverse=True,
    )
    out: list[str] = []
    seen = set(active)
    for truth in reverted:
        key = normalize_text(truth.text)
        if key not in seen:
            seen.add(key)
            out.append(truth.text)
    return out[:limit]
