"""Agent-ExpVer as a LangGraph graph: play, reflect, verify, promote, weave, evaluate, revert.

``create_expver_graph(model, game, train_levels=..., test_levels=..., store=...)``
compiles (all nodes async)::

    begin -> plan -> play -> reflect -> replay -> promote --> play (next level)
                                                          --> evaluate -> judge -> plan
    plan -> plan (a round an earlier run judged)      plan -> END (after the last round)

- **begin**: claims the store for this run (a marker under ``("expver", game)``) and
  evaluates the starting policy on the test levels (round 0, the baseline of eq. 6).
- **plan**: picks the round's training levels (in turn from the pool; the same levels
  again after a reverted round when ``retry_reverted``, at most ``revert_retries`` times
  in a row).
- **play** (GeoLink): the player plays the level with the current truths in its prompt.
- **reflect** (InsightForce): the model reads the metrics and the reasoning of the
  first, middle and last steps and writes an experience, "Due to ..., ... happened. Next
  time, I should ...", with strengths and weaknesses; saved as ``pending``. The lessons
  reverted earlier in the run are listed in its prompt as lessons not to propose again.
- **replay**: the same level (same options and seed) with the truths plus the experience.
- **promote**: promoted when the replay succeeds and its score beats the play's (the
  paper's rule; ``require_success`` and ``min_score_gain`` are options); its candidates
  (summary and every strength and weakness, or only the summary; only those that read as
  advice, unless ``require_advice=False``) go to TruthWeaver, stamped with the round;
  otherwise ``rejected``.
- **evaluate**: the policy (base prompt + active truths, eq. 5) plays the test levels.
- **judge** (eq. 6): ``ΔP = mean(new test score - previous accepted test score)``; when
  ``ΔP < 0`` the round's truths are reverted (``TruthWeaver.revert_round``).

Shape: the nodes are module-level async functions of ``(context, state)``
(:mod:`~langgraph_games.graphs.expver.nodes`, their units of work in
:mod:`~langgraph_games.graphs.expver.steps`); the dependencies (models, store, ledger,
options...) are one :class:`~langgraph_games.graphs.expver.context.ExpVerContext`, built
here and bound to each node; this module only wires them. Truths reach GeoLink through the
context's :class:`~langgraph_games.memory.hooks.TruthSource`: read once, and again only
after a weave or a revert changed them; episodes get them in their context. Every store
call is async.

Resume: each step's work is recorded under a stable id, episodes and round records in the
ledger, experiences and truths in the store (see :mod:`~langgraph_games.graphs.expver.parts`),
and every node first looks for its record. Invoking the graph again after a crash walks
through what is recorded without playing or calling a model, and continues at the first
missing piece; TruthWeaver inserts are idempotent by candidate id, and a round's decision is
written before its revert, so no truth is lost or duplicated. Invoke with ``{}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langgraph_games.games.registry import make
from langgraph_games.graphs.eeb.graph import eeb_player
from langgraph_games.graphs.expver import nodes
from langgraph_games.graphs.expver.context import ExpVerContext, ExpVerState, marker_namespace
from langgraph_games.graphs.expver.episodes import EpisodeRunner, InProcessEpisodes
from langgraph_games.graphs.expver.parts import (
    ExpVerError,
    ExpVerOptions,
    Ledger,
    Level,
    MemoryLedger,
    MetricsFn,
    PlayerFactory,
    default_metrics,
)
from langgraph_games.graphs.expver.truths import RunTruths
from langgraph_games.memory.truth_weaver import TruthWeaver

__all__ = ["ExpVerState", "create_expver_graph", "marker_namespace"]


def create_expver_graph(
    model: BaseChatModel,
    game: str,
    *,
    train_levels: Sequence[Level],
    test_levels: Sequence[Level],
    store: BaseStore | None = None,
    options: ExpVerOptions | None = None,
    player_factory: PlayerFactory | None = None,
    reflect_model: BaseChatModel | None = None,
    merge_model: BaseChatModel | None = None,
    embeddings: Embeddings | None = None,
    ledger: Ledger | None = None,
    metrics: MetricsFn | None = None,
    run_id: str = "expver",
    exclusive_store: bool = True,
    episodes: EpisodeRunner | None = None,
) -> CompiledStateGraph[ExpVerState, None, ExpVerState, ExpVerState]:
    """Compile the Agent-ExpVer training loop for one game.

    Args:
        model: GeoLink's chat model (and InsightForce's and TruthWeaver's by default).
        game: Game id; each level's options complete it.
        train_levels: The pool of training levels (taken ``levels_per_round`` at a time).
        test_levels: The levels every round is evaluated on (eq. 6).
        store: Any LangGraph store (e.g. :class:`~langgraph_games.memory.ChromaStore`);
            the graph is compiled with it. Default: a new ``InMemoryStore``.
        options: The loop's options.
        player_factory: ``(model, engine) -> Player`` for GeoLink; default the
            EvoEmpirBench agent (:func:`~langgraph_games.graphs.eeb.graph.eeb_player`).
        reflect_model: InsightForce's model (default ``model``).
        merge_model: TruthWeaver's model (default ``model``).
        embeddings: TruthWeaver's sentence embeddings (default the offline MiniLM).
        ledger: Where records go and are looked up on a rerun (default in memory).
        metrics: ``(session, result, trajectory) -> metrics``; default the paper's.
        run_id: Names this run in the store (experience ids, run marker).
        exclusive_store: The store is this run's alone (default; another run's store is
            refused). ``False``: the store's truth base is shared by runs made one after
            another (each marks the store under its own ``run_id``; their rounds come after
            the truths already there), as in LangGraph Server's store.
        episodes: Who plays the episodes (default: this process's loop, with
            ``player_factory``, ``options.concurrency`` test levels at once); see
            :mod:`~langgraph_games.graphs.expver.episodes`.

    Returns:
        The compiled graph (recursion limit raised for long runs). Invoke it with ``{}``
        (asynchronously: ``ainvoke``/``astream``); the final state's ``rounds`` holds each
        round's test record. Custom stream events (``stream_mode="custom"``) report each step.

    Raises:
        ExpVerError: No training or test level, or repeated level ids. At run time: the
            store belongs to another run, or the metrics lack ``score_key``/``success_key``.
    """
    ctx = _context(
        model,
        game,
        train_levels=train_levels,
        test_levels=test_levels,
        store=store if store is not None else InMemoryStore(),
        options=options or ExpVerOptions(),
        player_factory=player_factory or eeb_player,
        reflect_model=reflect_model,
        merge_model=merge_model,
        embeddings=embeddings,
        ledger=ledger if ledger is not None else MemoryLedger(),
        metrics=metrics or default_metrics,
        run_id=run_id,
        episodes=episodes,
        exclusive=exclusive_store,
    )
    builder = StateGraph(ExpVerState)
    for name, node in (
        ("begin", nodes.begin),
        ("plan", nodes.plan),
        ("play", nodes.play),
        ("reflect", nodes.reflect),
        ("replay", nodes.replay),
        ("promote", nodes.promote),
        ("evaluate", nodes.evaluate),
        ("judge", nodes.judge),
    ):
        builder.add_node(name, partial(node, ctx))
    builder.add_edge(START, "begin")
    builder.add_edge("begin", "plan")
    builder.add_conditional_edges("plan", partial(nodes.after_plan, ctx), ["play", "plan", END])
    builder.add_edge("play", "reflect")
    builder.add_edge("reflect", "replay")
    builder.add_edge("replay", "promote")
    builder.add_conditional_edges("promote", nodes.after_promote)
    builder.add_edge("evaluate", "judge")
    builder.add_edge("judge", "plan")
    compiled = builder.compile(store=ctx.store, name="expver")
    return compiled.with_config(recursion_limit=10**6)


def _context(
    model: BaseChatModel,
    game: str,
    *,
    train_levels: Sequence[Level],
    test_levels: Sequence[Level],
    store: BaseStore,
    options: ExpVerOptions,
    player_factory: PlayerFactory,
    reflect_model: BaseChatModel | None,
    merge_model: BaseChatModel | None,
    embeddings: Embeddings | None,
    ledger: Ledger,
    metrics: MetricsFn,
    run_id: str,
    episodes: EpisodeRunner | None,
    exclusive: bool = True,
) -> ExpVerContext:
    """Check the levels and build the loop's dependencies."""
    if not train_levels or not test_levels:
        raise ExpVerError("the loop needs at least one training level and one test level")
    for group in (train_levels, test_levels):
        ids = [level.id for level in group]
        if len(set(ids)) != len(ids):
            raise ExpVerError(f"level ids must be unique: {ids}")
    engine = make(game)
    weaver = TruthWeaver(
        store,
        engine.id,
        model=merge_model or model,
        embeddings=embeddings,
        mode=options.weave_mode,
        duplicate_threshold=options.duplicate_threshold,
        merge_threshold=min(options.merge_threshold, options.duplicate_threshold),
        game_name=engine.name,
    )
    return ExpVerContext(
        game=game,
        engine=engine,
        model=model,
        thinker=reflect_model or model,
        store=store,
        weaver=weaver,
        truths=RunTruths(weaver, options.truth_limit),
        ledger=ledger,
        metrics=metrics,
        player_factory=player_factory,
        episodes=episodes
        or InProcessEpisodes(model, player_factory, options.episode, options.concurrency),
        options=options,
        pool=tuple(level.model_dump(mode="json") for level in train_levels),
        tests=tuple(test_levels),
        run_id=run_id,
        exclusive=exclusive,
    )
