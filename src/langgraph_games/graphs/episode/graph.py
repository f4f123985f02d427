"""The episode loop: one game between players, as a LangGraph graph.

``step -> step ... -> END``: each ``step`` observes the acting seats, asks their players
and plays the joint move; the ``step`` after which the game is over, a seat has forfeited
or the step limit is reached also writes the episode's ``result`` (and the forfeit's
step), and the router after it ends the run. ``finish`` only ends an episode that is over
before any step (a step limit of 0, a finished record). One node per game step, not two,
and no node of its own for the ending: LangGraph costs a fixed overhead per node
execution, and the loop is what every model call goes through. For the same reason a
``step`` goes on to play every following move whose acting seats are all instant
(``Player.instant``: rule players computing their move locally), until the game is over,
the step limit is reached, a seat forfeits or a seat that is not instant is to act: a
model against a rule player costs one node per model call, two rule players one node per
episode. Each move still has its own trajectory step. A checkpoint is written after each
node (with ``durability="sync"``, before the next one starts), so a run killed mid-node
replays its moves on resume (rule players are deterministic: the same moves again). The
graph state holds only the session record ``{game, options, seed, actions}`` and the
trajectory, both JSON, so a SQLite checkpointer can persist it and an interrupted episode
resumes where it stopped. A ``step`` writes only what it adds to them (its moves as
``{"actions": [...]}``, its steps), and a checkpoint saves only those writes
(:mod:`~langgraph_games.graphs.episode.channels`): per-step cost and checkpoint size stay
flat however long the episode. The live ``GameSession`` is cached in the run's context and
rebuilt from the record when the cache does not match (after a resume, for instance). What
each seat saw and said earlier (its observations and its last answer) is read from the
trajectory and passed in every request, so players keep no per-episode state and a resumed
episode keeps its strategies' memory.

In a ``step`` the acting seats of people (interactive players, asked through LangGraph
interrupts) are asked first, one by one, then every other acting player concurrently. An
answer without a legal action is fed back to the player with the reason and the legal
moves, and asked again up to ``max_retries`` times; then the fallback applies (``"game"``:
the source paper's rule for that game, ``"random"``: a random legal move, ``"forfeit"``:
the player loses) and is counted. The trajectory keeps, per step, the observations, every
attempt's raw outputs and parse status, the intermediate answers and their scores, usage
and latency. Each attempt's answers and scores are written once, with the attempt: the
first attempt's are what the model answered before any feedback. The result's per-seat
counters sum those scores per subproblem (``subproblems``), for reports.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer
from typing_extensions import TypedDict

from langgraph_games.games.session import GameSession
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.counters import summarize_players
from langgraph_games.graphs.episode.decide import decide_seat
from langgraph_games.graphs.episode.options import EpisodeState
from langgraph_games.graphs.episode.records import (
    DecisionRecord,
    EpisodeResult,
    SessionRecord,
    Step,
    Turn,
)

__all__ = ["create_episode_graph", "finish_node", "route_next", "step_node"]

ActionRecord = str | dict[str, str]
"""A move as the session record keeps it (one mover's action, or a joint move by seat)."""


class _Asked(TypedDict):
    """The acting seats' turn and decisions, and the seat that forfeited, if one did."""

    turn: Turn
    decisions: dict[str, DecisionRecord]
    forfeit: int | None


class _RecordGrowth(TypedDict):
    """The moves a ``step`` adds to the session record (folded in by its channel)."""

    actions: list[ActionRecord]


class _Update(TypedDict, total=False):
    """What ``step`` writes: the moves and steps it added, the result at the end.

    ``turn``, ``decisions`` and ``forfeit`` are cleared after a move, and kept (a forfeit's)
    at the end.
    """

    turn: Turn | None
    decisions: dict[str, DecisionRecord] | None
    forfeit: int | None
    record: _RecordGrowth
    trajectory: list[Step]
    result: EpisodeResult


class _Finished(TypedDict):
    """What ``finish`` writes."""

    result: EpisodeResult
    trajectory: list[Step]


def _stopped(state: EpisodeState, ctx: EpisodeContext) -> bool:
    return _over(ctx.sessions.get(state["record"]), ctx)


def _over(session: GameSession, ctx: EpisodeContext) -> bool:
    limit = ctx.options.max_steps
    return session.done or (limit is not None and len(session.actions) >= limit)


def _all_instant(session: GameSession, ctx: EpisodeContext) -> bool:
    """Whether every acting seat's player is instant (and none asks a person)."""
    players = ctx.players
    return all(
        players[seat].instant and not players[seat].interactive for seat in session.current_players
    )


async def _decide(
    ctx: EpisodeContext,
    record: SessionRecord,
    session: GameSession,
    trajectory: Sequence[Step],
) -> _Asked:
    """Ask the acting seats of ``session`` (whose steps so far are ``trajectory``)."""
    seats = session.current_players
    turn: Turn = {
        "step": len(session.actions),
        "players": list(seats),
        "observations": {str(p): session.observe(p) for p in seats},
    }
    # People first, one after another: a resumed interrupt re-runs the step from the top,
    # so no model is asked before every person has answered (and none is asked twice).
    people = [seat for seat in seats if ctx.players[seat].interactive]
    decided = {
        seat: await decide_seat(
            ctx.players[seat],
            session,
            seat,
            ctx.options,
            ctx.truths_for(seat),
            observation=turn["observations"][str(seat)],
        )
        for seat in people
    }
    others = [seat for seat in seats if seat not in decided]
    asks = [
        decide_seat(
            ctx.players[seat],
            session,
            seat,
            ctx.options,
            ctx.truths_for(seat),
            ctx.memory_for(record, trajectory, seat),
            turn["observations"][str(seat)],
        )
        for seat in others
    ]
    # One seat (a turn-based game) is awaited as it is: a task of its own would cost a
    # trip through the event loop per decision.
    outcomes = [await asks[0]] if len(asks) == 1 else await asyncio.gather(*asks)
    decided.update(zip(others, outcomes, strict=True))
    outcomes = [decided[seat] for seat in seats]
    decisions = {str(seat): outcome for seat, outcome in zip(seats, outcomes, strict=True)}
    forfeit = next((seat for seat, o in zip(seats, outcomes, strict=True) if o["forfeit"]), None)
    return {"turn": turn, "decisions": decisions, "forfeit": forfeit}


def _apply(
    session: GameSession, turn: Turn, decisions: dict[str, DecisionRecord]
) -> tuple[Step, ActionRecord]:
    """Play the joint move of ``decisions``: its trajectory step and its action record."""
    joint = {int(seat): str(d["action"]) for seat, d in decisions.items()}
    events = session.step(joint)
    step: Step = {
        "step": turn["step"],
        "turn": session.states[-2].turn,
        "observations": turn["observations"],
        "decisions": decisions,
        "actions": {str(p): a for p, a in joint.items()},
        "events": events,
    }
    return step, session.action_record(joint)


async def step_node(state: EpisodeState, runtime: Runtime[EpisodeContext]) -> _Update:
    """Ask the acting seats and play their joint move, then every instant move after it.

    A move whose acting seats are all instant is played here too, one after another,
    until the game is over, the step limit is reached, a seat forfeits or a seat that is
    not instant is to act. Each move keeps its own trajectory step; a seat asked here sees
    the steps played before it in this node.
    """
    ctx = runtime.context
    record = state["record"]
    session = ctx.sessions.get(record)
    trajectory: Sequence[Step] = state.get("trajectory") or []
    asked = await _decide(ctx, record, session, trajectory)
    if asked["forfeit"] is not None:  # a decision without an action: the episode ends
        return _ended(ctx, session, record, [], trajectory, [], asked)
    played: list[Step] = []
    actions: list[ActionRecord] = []
    seen: list[Step] | None = None  # the trajectory as the next instant seats see it
    while True:
        step, action = _apply(session, asked["turn"], asked["decisions"])
        played.append(step)
        actions.append(action)
        if _over(session, ctx) or not _all_instant(session, ctx):
            break
        if seen is None:
            seen = [*trajectory, *played]
        else:
            seen.append(step)
        asked = await _decide(ctx, record, session, seen)
        if asked["forfeit"] is not None:
            break
    # the state's record and trajectory keep only what this step adds (see EpisodeState)
    if asked["forfeit"] is not None:  # an instant seat forfeited
        return _ended(ctx, session, record, actions, trajectory, played, asked)
    if _over(session, ctx):
        return _ended(ctx, session, record, actions, trajectory, played, None)
    return {"record": {"actions": actions}, "trajectory": played, "turn": None, "decisions": None}


def _ended(
    ctx: EpisodeContext,
    session: GameSession,
    record: SessionRecord,
    actions: list[ActionRecord],
    before: Sequence[Step],
    played: list[Step],
    forfeiting: _Asked | None,
) -> _Update:
    """The update of a ``step`` that ends the episode: its steps and moves, the result.

    ``record`` is the session record before this step, ``actions`` the moves it played;
    ``forfeiting`` is the ask in which a seat forfeited (its turn, decisions and seat), if
    one did.
    """
    update: _Update = {"turn": None, "decisions": None, "forfeit": None}
    if forfeiting is not None:
        update = {
            "turn": forfeiting["turn"],
            "decisions": forfeiting["decisions"],
            "forfeit": forfeiting["forfeit"],
        }
    grown: SessionRecord = {**record, "actions": [*record["actions"], *actions]}
    steps, result = _outcome(ctx, session, grown, [*before, *played], update)
    if actions:
        update["record"] = {"actions": actions}
    update["trajectory"] = [*played, *steps]
    update["result"] = result
    return update


async def finish_node(state: EpisodeState, runtime: Runtime[EpisodeContext]) -> _Finished:
    """End an episode that was over before a step (a step limit of 0, a finished record)."""
    record = state["record"]
    ctx = runtime.context
    trajectory = state.get("trajectory") or []
    steps, result = _outcome(ctx, ctx.sessions.get(record), record, trajectory, state)
    return {"result": result, "trajectory": steps}


def _outcome(
    ctx: EpisodeContext,
    session: GameSession,
    record: SessionRecord,
    trajectory: Sequence[Step],
    ending: _Update | EpisodeState,
) -> tuple[list[Step], EpisodeResult]:
    """The steps that end an episode (the forfeit's, if any) and its result.

    ``trajectory`` is every step played; ``ending`` holds the forfeiting seat
    (``forfeit``) with its ``turn`` and ``decisions``, or no seat. The episode's live
    session is dropped.
    """
    forfeit: int | None = ending.get("forfeit")
    turn: Turn | None = ending.get("turn")
    new_steps: list[Step] = []
    returns = list(session.returns)
    status = "finished" if session.done else "truncated"
    if forfeit is not None:
        status = "forfeit"
        scale = session.game.return_scale
        others = max(1, len(returns) - 1)
        returns = [-scale if p == forfeit else scale / others for p in range(len(returns))]
        # The forfeiting seat's last decision is part of the record too.
        new_steps.append(
            {
                "step": len(session.actions),
                "turn": session.state.turn,
                "observations": turn["observations"] if turn is not None else {},
                "decisions": ending.get("decisions") or {},
                "actions": {},
                "events": [{"type": "forfeit", "player": forfeit}],
            }
        )
    best = max(returns) if returns else 0.0
    winners = [p for p, r in enumerate(returns) if r == best and best > min(returns)]
    result: EpisodeResult = {
        "status": status,
        "record": record,
        "returns": returns,
        "winners": winners,
        "steps": len(session.actions),
        "forfeit": forfeit,
        "players": summarize_players([*trajectory, *new_steps], session.game.num_players),
    }
    ctx.forget(record)
    return new_steps, result


# Routers are coroutines: LangGraph runs a synchronous router of an async graph in a
# worker thread, a thread hop per step for a dictionary lookup.
async def route_next(
    state: EpisodeState, runtime: Runtime[EpisodeContext]
) -> Literal["step", "finish", "__end__"]:
    """The node after the start and after a ``step``: ``step``, ``finish`` or the end."""
    if state.get("result") is not None:  # the step that ended the episode recorded it
        return "__end__"  # END
    if state.get("forfeit") is not None or _stopped(state, runtime.context):
        return "finish"
    return "step"


_COMPILED: CompiledStateGraph[EpisodeState, EpisodeContext, EpisodeState, EpisodeState] | None
_COMPILED = None


def create_episode_graph(
    *, checkpointer: Checkpointer = None, store: BaseStore | None = None
) -> CompiledStateGraph[EpisodeState, EpisodeContext, EpisodeState, EpisodeState]:
    """Compile the episode loop (one compiled graph serves every episode).

    Invoke it with ``{"record": {"game": id, "options": {...}, "seed": n, "actions": []}}``
    and ``context=EpisodeContext(players=[...])``; the final state's ``result`` holds the
    outcome and per-player counters, and ``trajectory`` holds every step. With a
    checkpointer, invoke it with ``durability="sync"`` (or ``"exit"``), as
    :func:`~langgraph_games.graphs.episode.run.run_episode` does, and invoking again with
    ``None``, the same ``thread_id`` and the same context resumes an interrupted episode.
    A ``step``'s update holds the steps it played and, as ``{"actions": [...]}``, its
    moves; the state's ``record`` and ``trajectory`` are whole.

    Args:
        checkpointer: Optional LangGraph checkpointer (e.g. ``AsyncSqliteSaver``).
        store: Optional LangGraph store its nodes can reach at run time. The loop reads
            no truths from it: truths come in the context (see :class:`EpisodeContext`).

    Returns:
        The compiled graph (cached when there is neither checkpointer nor store).

    Example:
        >>> import asyncio
        >>> from langgraph_games.players import MinimaxPlayer, RandomPlayer
        >>> graph = create_episode_graph()
        >>> record = {"game": "tictactoe", "seed": 1, "actions": []}
        >>> context = EpisodeContext(players=[MinimaxPlayer(), RandomPlayer()])
        >>> final = asyncio.run(graph.ainvoke({"record": record}, context=context))
        >>> final["result"]["returns"]
        [1.0, -1.0]
    """
    global _COMPILED
    plain = checkpointer is None and store is None
    if plain and _COMPILED is not None:
        return _COMPILED
    builder = StateGraph(EpisodeState, context_schema=EpisodeContext)
    builder.add_node("step", step_node)
    builder.add_node("finish", finish_node)
    builder.add_conditional_edges(START, route_next)
    builder.add_conditional_edges("step", route_next, ["step", "finish", END])
    builder.add_edge("finish", END)
    compiled = builder.compile(checkpointer=checkpointer, store=store, name="episode")
    if plain:
        _COMPILED = compiled
    return compiled
