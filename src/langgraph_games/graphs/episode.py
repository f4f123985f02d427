"""The episode loop: one game between players, as a LangGraph graph.

``decide -> apply -> decide ... -> finish``: ``decide`` observes the acting seats and asks
their players, ``apply`` plays the joint move, and a router after ``apply`` (and at the
start) goes to ``finish`` once the game is over or the step limit is reached. The graph
state holds only the session record ``{game, options, seed, actions}`` and the trajectory,
both JSON, so a SQLite checkpointer can persist it and an interrupted episode resumes
where it stopped. The live ``GameSession`` is cached in the run's context and rebuilt from
the record when the cache does not match (after a resume, for instance).

In ``decide`` every acting player is asked concurrently. An answer without a legal action
is fed back to the player with the reason and the legal moves, and asked again up to
``max_retries`` times; then the fallback applies (``"game"``: the source paper's rule for
that game, ``"random"``: a random legal move, ``"forfeit"``: the player loses) and is
counted. The trajectory keeps, per step, the observations, every attempt's raw outputs
(of a reply too long to read, its two ends, see
:func:`~langgraph_games.models.messages.clip_reply`) and parse status, the intermediate
answers and their scores, usage and latency; a decision's own ``intermediate`` and
``scores`` are those of its first attempt (what the model answered before any feedback),
and ``retry_scores`` those of the re-asked attempts.
"""

from __future__ import annotations

import asyncio
import json
import operator
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer
from pydantic import BaseModel, ConfigDict, Field

from langgraph_games.games.base import Game
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import derive_rng
from langgraph_games.memory.hooks import load_truths
from langgraph_games.models.messages import clip_reply
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player

__all__ = [
    "EpisodeContext",
    "EpisodeOptions",
    "EpisodeState",
    "create_episode_graph",
    "run_episode",
    "summarize_players",
]

Fallback = Literal["game", "random", "forfeit"]


class EpisodeOptions(BaseModel):
    """How an episode treats unusable answers and how long it may run.

    Attributes:
        max_retries: Re-asks after an unparsable or illegal answer, before the fallback.
        fallback: ``"game"`` (the source paper's choice for the game), ``"random"`` (a
            random legal move) or ``"forfeit"`` (the player loses the game).
        max_steps: Stop after this many joint moves (``None``: play to the end).
        history: How many recent moves to pass to players as text (0: none).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_retries: int = Field(2, ge=0, le=20)
    fallback: Fallback = "game"
    max_steps: int | None = Field(None, ge=1)
    history: int = Field(0, ge=0)


class EpisodeState(TypedDict, total=False):
    """State of the episode graph (JSON only, so checkpoints stay portable)."""

    record: dict[str, Any]
    trajectory: Annotated[list[dict[str, Any]], operator.add]
    turn: dict[str, Any] | None
    decisions: dict[str, Any] | None
    forfeit: int | None
    result: dict[str, Any] | None


def _record_key(record: Mapping[str, Any]) -> str:
    return json.dumps([record["game"], record.get("options") or {}, record["seed"]])


class _Sessions:
    """Live sessions beside the graph, checked against (and rebuilt from) the record."""

    def __init__(self, game: Game[Any] | None) -> None:
        self._game = game
        self._live: dict[str, GameSession] = {}

    def get(self, record: Mapping[str, Any]) -> GameSession:
        key = _record_key(record)
        session = self._live.get(key)
        actions = record["actions"]
        if (
            session is None
            or len(session.actions) != len(actions)
            or (actions and session.action_record(session.actions[-1]) != actions[-1])
        ):
            if self._game is not None:
                session = GameSession(self._game, seed=int(record["seed"]), actions=actions)
            else:
                session = GameSession.from_dict(record)
            self._live[key] = session
        return session

    def drop(self, record: Mapping[str, Any]) -> None:
        self._live.pop(_record_key(record), None)


def _history_lines(session: GameSession, count: int) -> tuple[str, ...]:
    if count <= 0:
        return ()
    start = max(0, len(session.actions) - count)
    lines = []
    for index, joint in enumerate(session.actions[start:], start=start + 1):
        moves = ", ".join(f"{session.game.player_label(p)} played {a}" for p, a in joint.items())
        lines.append(f"Move {index}: {moves}")
    return tuple(lines)


def _problem(
    decision: Decision, legal: Sequence[str], game: Game[Any], state: Any, seat: int
) -> str:
    """The feedback a player gets when its answer is rejected."""
    if decision.action is None:
        reason = decision.info.get("problem") or "your answer contained no move I could read"
        return (
            f"Your answer was rejected: {reason}. Answer again in the required format "
            f"with one of the legal moves: {', '.join(legal)}."
        )
    try:
        game.apply(state, {seat: decision.action})
    except IllegalActionError as exc:
        return f"Your answer was rejected. {exc}"
    return f"Your answer was rejected: {decision.action!r} is not a legal move now."


async def _decide_seat(
    player: Player,
    session: GameSession,
    seat: int,
    options: EpisodeOptions,
    truths: Sequence[str],
) -> dict[str, Any]:
    game, state = session.game, session.state
    legal = session.legal_actions(seat)
    observation = session.observe(seat)
    history = _history_lines(session, options.history)
    attempts: list[dict[str, Any]] = []
    feedback: str | None = None
    started = time.perf_counter()
    chosen: Decision | None = None
    for attempt in range(options.max_retries + 1):
        request = DecisionRequest(
            game=game,
            state=state,
            player=seat,
            observation=observation,
            legal_actions=legal,
            history=history,
            feedback=feedback,
            truths=tuple(truths),
            attempt=attempt,
        )
        decision = await player.adecide(request)
        valid = decision.action is not None and game.is_legal(state, seat, decision.action)
        if not valid and decision.status is ParseStatus.OK:
            decision.status = (
                ParseStatus.UNPARSABLE if decision.action is None else ParseStatus.ILLEGAL
            )
        entry = decision.to_dict()
        entry["raw_outputs"] = [clip_reply(str(text)) for text in entry["raw_outputs"]]
        if not valid:
            feedback = _problem(decision, legal, game, state, seat)
            entry["feedback"] = feedback
        attempts.append(entry)
        if valid:
            chosen = decision
            break
    outcome: dict[str, Any] = {"attempts": attempts, "fallback": None, "forfeit": False}
    if chosen is not None:
        outcome["action"] = chosen.action
        outcome["status"] = chosen.status.value
    else:
        rng = derive_rng("fallback", session.seed, state.turn, seat)
        if options.fallback == "forfeit":
            action = None
        elif options.fallback == "random":
            action = rng.choice(legal)
        else:
            action = game.fallback_action(state, seat, rng)
        outcome["action"] = action
        outcome["status"] = ParseStatus.FALLBACK.value
        outcome["fallback"] = options.fallback
        outcome["forfeit"] = action is None
    # GAMEBoT's I scores what the model answered unprompted: the first attempt. Answers
    # given after feedback are kept apart (each attempt also keeps its own scores).
    first = attempts[0]
    outcome["intermediate"] = first["intermediate"]
    outcome["scores"] = first["scores"]
    outcome["retry_scores"] = [
        {**score, "attempt": number}
        for number, attempt in enumerate(attempts[1:], start=1)
        for score in attempt["scores"]
    ]
    outcome["latency_s"] = time.perf_counter() - started
    outcome["usage"] = _sum_usage(a["usage"] for a in attempts)
    return outcome


def _sum_usage(usages: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in (usage or {}).items():
            if isinstance(value, (int, float)):
                total[key] = total.get(key, 0) + int(value)
    return total


@dataclass
class EpisodeContext:
    """What an episode runs with, given to the graph at invocation (``context=``).

    The compiled episode graph is generic: players, engine, options and truths are
    runtime dependencies, so one compiled graph serves every episode (LangGraph's
    ``context_schema``). Nothing here is checkpointed; pass the same context to resume.

    Attributes:
        players: The player of each seat, in seat order.
        game: The engine to replay records with; by default the registry builds it from
            the record's game id and options.
        options: Retries, fallback and step limit.
        truths: Lessons per seat, passed to players in every request. A seat without an
            entry here gets the game's truths from the graph's store (compiled with
            ``store=``), read once per episode with
            :func:`~langgraph_games.memory.hooks.load_truths`, if it is in
            ``truth_seats``.
        truth_seats: Seats that read truths from the store (``None``: every seat).
        truth_limit: At most this many truths from the store.
    """

    players: Sequence[Player]
    game: Game[Any] | None = None
    options: EpisodeOptions = field(default_factory=EpisodeOptions)
    truths: Mapping[int, Sequence[str]] = field(default_factory=dict)
    truth_seats: Sequence[int] | None = None
    truth_limit: int | None = None
    sessions: _Sessions = field(init=False)
    _from_store: dict[int, tuple[str, ...]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.sessions = _Sessions(self.game)

    def truths_for(self, seat: int, game_id: str, store: BaseStore | None) -> tuple[str, ...]:
        """The truths of ``seat``: given ones, else the store's (read once), else none."""
        if seat in self.truths:
            return tuple(self.truths[seat])
        if store is None or (self.truth_seats is not None and seat not in self.truth_seats):
            return ()
        if seat not in self._from_store:
            found = load_truths(store, game_id, limit=self.truth_limit)
            self._from_store[seat] = tuple(found)
        return self._from_store[seat]


def _stopped(state: EpisodeState, ctx: EpisodeContext) -> bool:
    session = ctx.sessions.get(state["record"])
    limit = ctx.options.max_steps
    return session.done or (limit is not None and len(session.actions) >= limit)


async def _decide(state: EpisodeState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
    ctx = runtime.context
    session = ctx.sessions.get(state["record"])
    seats = session.current_players
    turn = {
        "step": len(session.actions),
        "players": list(seats),
        "observations": {str(p): session.observe(p) for p in seats},
    }
    outcomes = await asyncio.gather(
        *(
            _decide_seat(
                ctx.players[seat],
                session,
                seat,
                ctx.options,
                ctx.truths_for(seat, session.game.id, runtime.store),
            )
            for seat in seats
        )
    )
    decisions = {str(seat): outcome for seat, outcome in zip(seats, outcomes, strict=True)}
    forfeit = next((seat for seat, o in zip(seats, outcomes, strict=True) if o["forfeit"]), None)
    return {"turn": turn, "decisions": decisions, "forfeit": forfeit}


async def _apply(state: EpisodeState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
    session = runtime.context.sessions.get(state["record"])
    decisions = state["decisions"] or {}
    joint = {int(seat): d["action"] for seat, d in decisions.items()}
    turn = state["turn"] or {}
    events = session.step(joint)
    step = {
        "step": turn.get("step", len(session.actions) - 1),
        "turn": session.states[-2].turn,
        "observations": turn.get("observations", {}),
        "decisions": decisions,
        "actions": {str(p): a for p, a in joint.items()},
        "events": events,
    }
    return {"record": session.to_dict(), "trajectory": [step], "turn": None, "decisions": None}


async def _finish(state: EpisodeState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
    record = state["record"]
    session = runtime.context.sessions.get(record)
    new_steps: list[dict[str, Any]] = []
    forfeit = state.get("forfeit")
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
                "observations": (state.get("turn") or {}).get("observations", {}),
                "decisions": state.get("decisions") or {},
                "actions": {},
                "events": [{"type": "forfeit", "player": forfeit}],
            }
        )
    best = max(returns) if returns else 0.0
    winners = [p for p, r in enumerate(returns) if r == best and best > min(returns)]
    trajectory = [*(state.get("trajectory") or []), *new_steps]
    result = {
        "status": status,
        "record": record,
        "returns": returns,
        "winners": winners,
        "steps": len(session.actions),
        "forfeit": forfeit,
        "players": summarize_players(trajectory, session.game.num_players),
    }
    runtime.context.sessions.drop(record)
    return {"result": result, "trajectory": new_steps}


def _next_move(
    state: EpisodeState, runtime: Runtime[EpisodeContext]
) -> Literal["decide", "finish"]:
    return "finish" if _stopped(state, runtime.context) else "decide"


def _after_decide(state: EpisodeState) -> Literal["apply", "finish"]:
    return "finish" if state.get("forfeit") is not None else "apply"


_COMPILED: CompiledStateGraph[EpisodeState, EpisodeContext, EpisodeState, EpisodeState] | None
_COMPILED = None


def create_episode_graph(
    *, checkpointer: Checkpointer = None, store: BaseStore | None = None
) -> CompiledStateGraph[EpisodeState, EpisodeContext, EpisodeState, EpisodeState]:
    """Compile the episode loop (one compiled graph serves every episode).

    Invoke it with ``{"record": {"game": id, "options": {...}, "seed": n, "actions": []}}``
    and ``context=EpisodeContext(players=[...])``; the final state's ``result`` holds the
    outcome and per-player counters, and ``trajectory`` holds every step. With a
    checkpointer, invoking again with ``None``, the same ``thread_id`` and the same context
    resumes an interrupted episode.

    Args:
        checkpointer: Optional LangGraph checkpointer (e.g. ``AsyncSqliteSaver``).
        store: Optional LangGraph store (e.g. ``ChromaStore``) holding truths that seats
            without given truths read (see :class:`EpisodeContext`).

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
    builder.add_node("decide", _decide)
    builder.add_node("apply", _apply)
    builder.add_node("finish", _finish)
    builder.add_conditional_edges(START, _next_move)
    builder.add_conditional_edges("decide", _after_decide)
    builder.add_conditional_edges("apply", _next_move)
    builder.add_edge("finish", END)
    compiled = builder.compile(checkpointer=checkpointer, store=store, name="episode")
    if plain:
        _COMPILED = compiled
    return compiled


def summarize_players(
    trajectory: Sequence[Mapping[str, Any]], num_players: int
) -> list[dict[str, Any]]:
    """Per-seat counters over a trajectory: decisions, invalid answers, fallbacks, usage.

    ``fallbacks`` counts the loop's fallbacks (after the retries); ``defaulted`` counts
    decisions where the player itself took its paper's default action because the answer
    named none (status ``fallback`` without a loop fallback, e.g. SPRING's "Do");
    ``ambiguous_answers`` counts the answers (first or re-asked) that named two different
    actions, which are also among ``invalid_answers``.
    """
    summary = [
        {
            "decisions": 0,
            "first_try_valid": 0,
            "invalid_answers": 0,
            "ambiguous_answers": 0,
            "retries": 0,
            "fallbacks": 0,
            "defaulted": 0,
            "model_calls": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "latency_s": 0.0,
        }
        for _ in range(num_players)
    ]
    for step in trajectory:
        for seat, decision in (step.get("decisions") or {}).items():
            entry = summary[int(seat)]
            attempts = decision.get("attempts") or []
            entry["decisions"] += 1
            invalid = sum(1 for a in attempts if a.get("status") != ParseStatus.OK.value)
            entry["invalid_answers"] += invalid
            entry["ambiguous_answers"] += sum(
                1 for a in attempts if a.get("status") == ParseStatus.AMBIGUOUS.value
            )
            entry["retries"] += max(0, len(attempts) - 1)
            entry["first_try_valid"] += int(bool(attempts) and attempts[0].get("status") == "ok")
            entry["fallbacks"] += int(decision.get("fallback") is not None)
            entry["defaulted"] += int(
                decision.get("fallback") is None
                and decision.get("status") == ParseStatus.FALLBACK.value
            )
            usage = decision.get("usage") or {}
            entry["model_calls"] += int(usage.get("calls", 0))
            entry["input_tokens"] += int(usage.get("input_tokens", 0))
            entry["output_tokens"] += int(usage.get("output_tokens", 0))
            entry["latency_s"] += float(decision.get("latency_s", 0.0))
    return summary


async def run_episode(
    game: Game[Any] | str,
    players: Sequence[Player],
    *,
    seed: int = 0,
    options: EpisodeOptions | None = None,
    truths: Mapping[int, Sequence[str]] | None = None,
    store: BaseStore | None = None,
    truth_seats: Sequence[int] | None = None,
    truth_limit: int | None = None,
    checkpointer: Checkpointer = None,
    thread_id: str | None = None,
    **game_options: Any,
) -> dict[str, Any]:
    """Play one episode and return ``{"result": ..., "trajectory": [...]}``.

    With a checkpointer and a ``thread_id`` that already has a checkpoint, the episode
    resumes from it instead of starting over. With a ``store``, seats without given
    ``truths`` (and in ``truth_seats``, default all) play with the game's truths from it.

    Raises:
        ValueError: The number of players does not match the game's seats.
    """
    engine = make(game, **game_options) if isinstance(game, str) else game
    if len(players) != engine.num_players:
        raise ValueError(f"{engine.id} has {engine.num_players} seats; got {len(players)} players")
    graph = create_episode_graph(checkpointer=checkpointer, store=store)
    context = EpisodeContext(
        players=players,
        game=engine,
        options=options or EpisodeOptions(),
        truths=truths or {},
        truth_seats=truth_seats,
        truth_limit=truth_limit,
    )
    config: RunnableConfig = {"recursion_limit": 10**6}
    graph_input: EpisodeState | None = {
        "record": {
            "game": engine.versioned_id,
            "options": engine.options_dict(),
            "seed": seed,
            "actions": [],
        },
        "trajectory": [],
    }
    if checkpointer is not None:
        config["configurable"] = {"thread_id": thread_id or f"episode-{seed}"}
        saved = await graph.aget_state(config)
        if saved.values.get("record") is not None and saved.next:
            graph_input = None  # resume
        elif saved.values.get("result") is not None:
            return {"result": saved.values["result"], "trajectory": saved.values["trajectory"]}
    if checkpointer is None:
        final = await graph.ainvoke(graph_input, config=config, context=context)
    else:  # write each checkpoint before the next step, so a crash loses nothing
        final = await graph.ainvoke(graph_input, config=config, context=context, durability="sync")
    return {"result": final["result"], "trajectory": final["trajectory"]}
