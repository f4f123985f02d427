"""What the Agent-ExpVer loop runs with (:class:`ExpVerContext`) and its state.

The nodes of the loop (:mod:`~langgraph_games.graphs.expver.nodes`) are module-level
functions of ``(context, state)``; :func:`~langgraph_games.graphs.expver.graph.
create_expver_graph` builds one context per compiled graph and binds it to them. The
state refers to episodes and round records in the ledger by id and carries the level's
experience and its verdict (so no node reads them back from the store); it is rebuilt
from the ledger and the store when a crashed run is started again.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.store.base import BaseStore
from typing_extensions import TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.expver.episodes import EpisodeRunner
from langgraph_games.graphs.expver.parts import (
    ExpVerOptions,
    Ledger,
    Level,
    MetricsFn,
    PlayerFactory,
    metric,
)
from langgraph_games.graphs.expver.records import TestRound
from langgraph_games.graphs.expver.truths import RunTruths
from langgraph_games.graphs.expver.verdicts import ReplayVerdict
from langgraph_games.memory.records import Experience
from langgraph_games.memory.truth_weaver import TruthWeaver

__all__ = ["ExpVerContext", "ExpVerState", "LevelWork", "RoundWork", "marker_namespace"]


def marker_namespace(game: str) -> tuple[str, str]:
    """Where the run marker of a game's training lives: ``("expver", game)``."""
    return ("expver", game)


class LevelWork(TypedDict, total=False):
    """The training level being worked on: ledger ids of its play and replay, and more.

    Attributes:
        level: The level's id.
        play: Ledger id of the play episode.
        truths: The truths the play had in its prompt.
        fresh: The play was played by this run now (not found in the ledger), so no
            experience of it can be recorded yet: ``reflect`` does not look for one.
        experience: InsightForce's experience (as the store holds it, or about to).
        verdict: What the verification decided about it so far.
        replay: Ledger id of the verification replay (``None``: nothing to verify).
    """

    level: str
    play: str
    truths: list[str]
    fresh: bool
    experience: Experience
    verdict: ReplayVerdict
    replay: str | None


class RoundWork(TypedDict):
    """What ``evaluate`` hands to ``judge``.

    Attributes:
        results: Test metrics per level id.
        evaluated: Whether the test levels were played (else the accepted policy's stand).
        counts: What the round did to the truth base (``round_truth_counts``).
        changed: Whether the round changed the policy's prompt.
        refusals: Why each candidate refused in the round was turned away.
    """

    results: dict[str, JsonObject]
    evaluated: bool
    counts: dict[str, int]
    changed: bool
    refusals: list[str]


class ExpVerState(TypedDict, total=False):
    """State of the ExpVer graph (rebuilt from the ledger and store on a rerun).

    Attributes:
        offset: Weave rounds already in the store before this run (its round ``r`` is
            weave round ``offset + r``).
        round: The round being played (1-based; 0 is the baseline).
        cursor: Where the next round takes its levels from in the training pool.
        retry: Retries of the same levels so far after reverted rounds.
        ready: Whether ``plan`` chose levels to play (else the round was judged before).
        levels: The round's training levels (JSON of :class:`Level`).
        index: The training level being played.
        current: The level being worked on.
        verdicts: The verdict of each level's experience in the round so far (by level id).
        evaluation: The round's test results, for ``judge``.
        accepted: Test score per level of the accepted policy.
        rounds: Each round's test record, in order.
    """

    offset: int
    round: int
    cursor: int
    retry: int
    ready: bool
    levels: list[JsonObject]
    index: int
    current: LevelWork
    verdicts: dict[str, ReplayVerdict]
    evaluation: RoundWork
    accepted: dict[str, float]
    rounds: Annotated[list[TestRound], operator.add]


@dataclass(frozen=True)
class ExpVerContext:
    """The loop's dependencies, built once per compiled graph and bound to every node.

    Attributes:
        game: The game id as given (each level's options complete it).
        engine: The game built without options (its id and name).
        model: GeoLink's chat model (handed to ``player_factory``).
        thinker: InsightForce's chat model.
        store: The store of experiences, truths and the run marker.
        weaver: TruthWeaver over the store (the truth base's single writer).
        truths: The truth base as the loop last read or wrote it, and the truths GeoLink's
            prompt gets from it: read once, again only after a revert (a weave hands over
            what it wrote; the nodes call ``truths.changed()`` after writing).
        ledger: Where records go and are looked up on a rerun.
        metrics: ``(session, result, trajectory) -> metrics``.
        player_factory: ``(model, engine) -> Player`` for GeoLink.
        episodes: Plays the loop's episodes (default: on this process's loop with
            ``player_factory``; see :mod:`~langgraph_games.graphs.expver.episodes`).
        options: The loop's options.
        pool: The training levels (JSON of :class:`Level`), taken in turn.
        tests: The test levels of every round.
        run_id: Names this run in the store.
        exclusive: The store holds this run's truth base alone (``train``'s store): another
            run's store is refused. ``False``: runs share the store's truth base one after
            another, each marked under its own id (LangGraph Server's store).
    """

    game: str
    engine: Game[GameState]
    model: BaseChatModel
    thinker: BaseChatModel
    store: BaseStore
    weaver: TruthWeaver
    truths: RunTruths
    ledger: Ledger
    metrics: MetricsFn
    player_factory: PlayerFactory
    episodes: EpisodeRunner
    options: ExpVerOptions
    pool: tuple[JsonObject, ...]
    tests: tuple[Level, ...]
    run_id: str
    exclusive: bool = True

    @property
    def game_id(self) -> str:
        """The game's registry id (``maze``)."""
        return self.engine.id

    def score(self, metrics: Mapping[str, object]) -> float:
        """The metric promotion and evaluation compare (``options.score_key``)."""
        return metric(metrics, self.options.score_key, self.game_id)

    def success(self, metrics: Mapping[str, object]) -> bool:
        """Whether an episode succeeded (``options.success_key`` above 0)."""
        return metric(metrics, self.options.success_key, self.game_id) > 0
