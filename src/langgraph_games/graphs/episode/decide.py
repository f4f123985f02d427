"""One seat's decision in the episode loop: ask, re-ask with feedback, fall back."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.graphs.episode.memory import SeatMemory, exchange_of
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import AttemptEntry, DecisionRecord
from langgraph_games.models.messages import clip_reply
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player

__all__ = ["decide_seat"]


def _history_lines(session: GameSession, count: int) -> tuple[str, ...]:
    if count <= 0:
        return ()
    start = max(0, len(session.actions) - count)
    lines = []
    for index, joint in enumerate(session.actions[start:], start=start + 1):
        moves = ", ".join(f"{session.game.player_label(p)} played {a}" for p, a in joint.items())
        lines.append(f"Move {index}: {moves}")
    return tuple(lines)


def _problem(decision: Decision, game: Game[GameState], state: GameState, seat: int) -> str:
    """The feedback a player gets when its answer is rejected."""
    if decision.action is None:
        reason = decision.info.get("problem") or "your answer contained no move I could read"
        return (
            f"Your answer was rejected: {reason}. Answer again in the required format "
            f"with one of the legal moves: {game.legal_moves_text(state, seat)}."
        )
    try:
        game.apply(state, {seat: decision.action})
    except IllegalActionError as exc:
        return f"Your answer was rejected. {exc}"
    return f"Your answer was rejected: {decision.action!r} is not a legal move now."


async def decide_seat(
    player: Player,
    session: GameSession,
    seat: int,
    options: EpisodeOptions,
    truths: Sequence[str],
    memory: SeatMemory | None = None,
    observation: str | None = None,
) -> DecisionRecord:
    """Ask ``seat``'s player (re-asking with feedback), else apply the fallback.

    ``memory`` is what the seat saw and said earlier in the episode; a re-ask's previous
    exchange is the rejected attempt before it. ``observation`` is the seat's view now,
    when the caller has it already (default: observed here).
    """
    game, state = session.game, session.state
    legal = session.legal_actions(seat)
    if observation is None:
        observation = session.observe(seat)
    history = _history_lines(session, options.history)
    memory = memory or SeatMemory()
    truths = tuple(truths)
    attempts: list[AttemptEntry] = []
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
            truths=truths,
            attempt=attempt,
            previous_observations=memory.observations,
            previous_exchange=exchange_of(observation, attempts) if attempts else memory.exchange,
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
            feedback = _problem(decision, game, state, seat)
            entry["feedback"] = feedback
        attempts.append(entry)
        if valid:
            chosen = decision
            break
    fallback: str | None = None
    if chosen is not None:
        action, status = chosen.action, chosen.status.value
    else:
        rng = derive_rng("fallback", session.seed, state.turn, seat)
        if options.fallback == "forfeit":
            action = None
        elif options.fallback == "random":
            action = rng.choice(legal)
        else:
            action = game.fallback_action(state, seat, rng)
        status, fallback = ParseStatus.FALLBACK.value, options.fallback
    # Each attempt keeps its own answers and scores; I scores the first (what the model
    # answered unprompted), so they are not copied onto the decision.
    return {  # key order is the trajectory's (goldens compare JSON text)
        "attempts": attempts,
        "fallback": fallback,
        "forfeit": chosen is None and action is None,
        "action": action,
        "status": status,
        "latency_s": time.perf_counter() - started,
        "usage": _sum_usage(a["usage"] for a in attempts),
    }


def _sum_usage(usages: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in (usage or {}).items():
            if isinstance(value, (int, float)):
                total[key] = total.get(key, 0) + int(value)
    return total
