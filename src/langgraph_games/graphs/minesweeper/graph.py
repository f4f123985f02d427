"""The Minesweeper Agent (Wu, 2024): prompt before, board, prompt after; five variants.

``create_minesweeper_agent(model, variant=...)`` compiles a decision graph (see
:mod:`langgraph_games.graphs.common.decision`)::

    model -> END    (one node: ask, then check)

- ``model`` builds one user message, the *prompt before* (rules; tips with +Tips), the
  board (the engine's observation) and the *prompt after* (answer format; the step-back
  instruction and examples with those variants), from
  :mod:`langgraph_games.graphs.minesweeper.prompts`. With +Memory the previous step's
  ``Prompt / Answer / Result`` text goes in front, as the released agent did; the graph
  builds it from the input's ``previous_exchange`` (the board and feedback the seat was
  shown and its answer, which the episode loop fills from the trajectory), or takes it
  as given in the input key ``previous``. Then one model call with retries, recording
  tokens and latency.
- ``check``, in the same node, reads the reply with the paper's parser
  (:func:`parse_minesweeper_reply`), the last ``r,row,col`` or ``f,row,col``. An off-board
  triple is the step-consuming ``invalid:position`` answer; text without a triple has no
  action, and with the paper's protocol (no re-asks, the game's fallback) the game answers
  it with ``invalid answer, ...`` and counts an invalid step. ``info["move_check"]`` holds
  the logic solver's verdict on the operation's claim
  (:func:`~langgraph_games.games.minesweeper.metrics.move_check`). When the prompt asks
  for the certain cells (``report_cells``), the
  ``[Intermediate Thinking Results 1/2: ...]`` answers are scored against the solver's
  certainly-safe and certainly-mined cells (F1, :func:`score_reported_cells`), as GAMEBoT
  scores its subproblems.

One node, as for GAMEBoT: each LangGraph node costs a fixed overhead per decision, and
the pieces stay usable as plain functions.

Variants (:class:`~langgraph_games.graphs.minesweeper.prompts.Variant`, cumulative in
Table 1's order): ``baseline``, ``examples``, ``step_back``, ``tips``, ``memory``; any
:class:`~langgraph_games.graphs.minesweeper.prompts.PromptParts` for other ablations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from langgraph_games.games.minesweeper import Minesweeper, MinesweeperState
from langgraph_games.games.minesweeper.metrics import move_check
from langgraph_games.games.minesweeper.rules import INVALID_POSITION
from langgraph_games.games.subproblems import extract_intermediate, score_answer
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    DecisionOutput,
    GraphPlayer,
    LiveGame,
    live_game,
)
from langgraph_games.graphs.common.prompt_agent import (
    call_model,
    compile_model_check,
    read_off_loop,
    reply_decision,
    to_messages,
    unread_reply,
)
from langgraph_games.graphs.minesweeper.prompts import (
    VARIANTS,
    PromptParts,
    Variant,
    memory_text,
    minesweeper_messages,
    minesweeper_prompt,
    parse_minesweeper_action,
)
from langgraph_games.models.factory import describe_model
from langgraph_games.players.base import Decision, ParseStatus

__all__ = [
    "MS_STRATEGIES",
    "MinesweeperAgentInput",
    "MinesweeperAgentState",
    "MinesweeperPlayer",
    "create_minesweeper_agent",
    "minesweeper_player",
    "parse_minesweeper_reply",
    "parts_of",
    "score_reported_cells",
]

MS_STRATEGIES: dict[str, PromptParts] = {
    "baseline": VARIANTS[Variant.BASELINE],
    "examples": VARIANTS[Variant.EXAMPLES],
    "step_back": VARIANTS[Variant.STEP_BACK],
    "tips": VARIANTS[Variant.TIPS],
    "memory": VARIANTS[Variant.MEMORY],
    "cells": PromptParts(examples=True, step_back=True, tips=True, memory=True, report_cells=True),
}
"""The prompt parts of each ``variant`` of the ``minesweeper`` player: the five rows of
Table 1, then ``cells`` (+Memory that also lists the certain cells, scored against the
solver; ours)."""


class MinesweeperAgentInput(DecisionInput, total=False):
    """Decision input plus, optionally, the previous step for +Memory as text.

    ``previous`` (``prompt``, ``answer``, ``result``) is used as given; without it the
    memory comes from ``previous_exchange``.
    """

    previous: dict[str, str] | None


class MinesweeperAgentState(MinesweeperAgentInput, total=False):
    """Input plus the reply and the decision."""

    reply: str
    usage: dict[str, float]
    latency_s: float
    decision: Decision


def parts_of(variant: Variant | PromptParts | str) -> PromptParts:
    """The prompt parts of a Table 1 variant (by enum or value), or the parts themselves.

    Raises:
        ValueError: Unknown variant name; the message lists the accepted ones.
    """
    if isinstance(variant, PromptParts):
        return variant
    try:
        return VARIANTS[Variant(variant)]
    except ValueError:
        accepted = ", ".join(v.value for v in Variant)
        raise ValueError(f"Unknown Minesweeper variant {variant!r}; accepted: {accepted}") from None


def _engine(state: MinesweeperAgentState, context: object) -> tuple[Minesweeper, MinesweeperState]:
    live = live_game(state, context)
    game, game_state = live.game, live.state
    if not isinstance(game, Minesweeper) or not isinstance(game_state, MinesweeperState):
        raise ValueError(f"The Minesweeper agent plays minesweeper; got {game.id!r}")
    return game, game_state


def _remembered(
    state: MinesweeperAgentState,
    game_state: MinesweeperState,
    parts: PromptParts,
    win_rule: Literal["paper", "flags"],
    truths: Sequence[str],
) -> str | None:
    """The +Memory text: the previous prompt (without its own memory), answer and result.

    The result is why the previous answer was refused when the loop asks again at the
    same step, else the game's feedback on the operation applied (``state.feedback``).
    """
    previous = state.get("previous") or None
    if previous:
        return memory_text(previous["prompt"], previous["answer"], previous["result"])
    exchange = state.get("previous_exchange")
    if not exchange:
        return None
    prompt = minesweeper_prompt(
        exchange["observation"],
        parts,
        None,
        win_rule,
        truths=truths,
        feedback=exchange.get("feedback"),
    )
    feedback = state.get("feedback")
    if int(state.get("attempt") or 0) > 0 and feedback:
        result = feedback
    else:
        result = str(game_state.feedback or "")
    return memory_text(prompt, exchange["answer"], result)


def parse_minesweeper_reply(
    game: Minesweeper, state: MinesweeperState, text: str
) -> tuple[str | None, ParseStatus, dict[str, object]]:
    """``(action, status, info)`` of a reply, with the solver's ``move_check`` in ``info``.

    A reply too long to read is unparsable (see
    :func:`~langgraph_games.models.messages.reply_too_long`).

    Example:
        >>> from langgraph_games.games import make
        >>> game = make("minesweeper")
        >>> parse_minesweeper_reply(game, game.initial_state(0), "f,12,0")[:2]
        ('invalid:position', <ParseStatus.OK: 'ok'>)
    """
    unread = unread_reply(text)
    if unread is not None:
        return unread
    action, status, info = _read(game, state, text)
    if action is not None:
        check = move_check(state, action)
        if check is not None:
            info["move_check"] = check
    return action, status, info


def _read(
    game: Minesweeper, state: MinesweeperState, text: str
) -> tuple[str | None, ParseStatus, dict[str, object]]:
    parsed = parse_minesweeper_action(text, state.rows, state.cols)
    if parsed.action is not None:
        if game.is_legal(state, 0, parsed.action):
            return parsed.action, ParseStatus.OK, {}
        reason = game.refusal(state, parsed.action) or "it is not a legal operation now"
        return parsed.action, ParseStatus.ILLEGAL, {"problem": reason}
    if parsed.reason == INVALID_POSITION and game.is_legal(state, 0, "invalid:position"):
        return "invalid:position", ParseStatus.OK, {"problem": INVALID_POSITION}
    problem = parsed.reason if text.strip() else "your answer was empty"
    return None, ParseStatus.UNPARSABLE, {"problem": problem}


def score_reported_cells(
    game: Minesweeper, state: MinesweeperState, text: str
) -> tuple[dict[int, str], list[dict[str, Any]]]:
    """The reported certain cells and their scores against the solver (subproblems 1, 2).

    A reply too long to read reports none.

    Example:
        >>> from langgraph_games.games import make
        >>> game = make("minesweeper")
        >>> answers, scores = score_reported_cells(
        ...     game, game.initial_state(0), "[Intermediate Thinking Results 1: None]"
        ... )
        >>> answers, [(s["index"], s["answered"], s["value"]) for s in scores]
        ({1: 'None'}, [(1, True, 1.0), (2, False, 0.0)])
    """
    answers = extract_intermediate(text) if unread_reply(text) is None else {}
    truth = game.ground_truth(state, 0)
    scores = [
        {**score_answer(sub, answers.get(sub.index), truth[sub.index]).to_dict(), "scored": True}
        for sub in game.subproblems
        if sub.index in truth
    ]
    return answers, scores


def create_minesweeper_agent(
    model: BaseChatModel,
    *,
    variant: Variant | PromptParts | str = Variant.BASELINE,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    name: str = "minesweeper_agent",
) -> CompiledStateGraph[MinesweeperAgentState, LiveGame, MinesweeperAgentInput, DecisionOutput]:
    """Compile the Minesweeper Agent's decision graph.

    Args:
        model: Any LangChain chat model.
        variant: A Table 1 variant (``"baseline"`` ... ``"memory"``) or explicit parts;
            with ``report_cells`` the graph also scores the reported certain cells.
        call_attempts: Attempts per model call on transient failures (with backoff).
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        name: Name of the compiled graph.

    Returns:
        A decision graph: input :class:`MinesweeperAgentInput`, output
        ``{"decision": Decision}``.

    Raises:
        ValueError: Unknown variant.

    Example:
        >>> import asyncio
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.graphs.common.decision import session_input
        >>> from langgraph_games.models import ScriptedChatModel
        >>> model = ScriptedChatModel(responses=["Corners are safest: r,0,0"])
        >>> agent = create_minesweeper_agent(model, variant="tips")
        >>> session = GameSession("minesweeper", seed=3)
        >>> decision = asyncio.run(agent.ainvoke(session_input(session)))["decision"]
        >>> decision.action, decision.info["move_check"]["verdict"]
        ('r,0,0', 'guess')
    """
    parts = parts_of(variant)

    async def call(
        state: MinesweeperAgentState, config: RunnableConfig, runtime: Runtime[LiveGame]
    ) -> dict[str, Any]:
        game, game_state = _engine(state, runtime.context)
        board = state.get("observation") or game.observation(game_state, 0)
        truths = list(state.get("truths") or [])
        feedback = state.get("feedback")
        win_rule = game.options.win_rule
        remembered = (
            _remembered(state, game_state, parts, win_rule, truths) if parts.memory else None
        )
        pairs = minesweeper_messages(
            board, parts, remembered, win_rule, truths=truths, feedback=feedback
        )
        return await call_model(
            model, to_messages(pairs), config, attempts=call_attempts, delay_s=retry_delay_s
        )

    async def check(state: MinesweeperAgentState, runtime: Runtime[LiveGame]) -> DecisionOutput:
        game, game_state = _engine(state, runtime.context)
        return await read_off_loop(state.get("reply") or "", read, state, game, game_state)

    def read(
        state: MinesweeperAgentState, game: Minesweeper, game_state: MinesweeperState
    ) -> DecisionOutput:
        text = state.get("reply") or ""
        action, status, info = parse_minesweeper_reply(game, game_state, text)
        info = {"strategy": "minesweeper_agent", "parts": _parts_label(parts), **info}
        if not parts.report_cells:
            return reply_decision(state, action, status, info)
        answers, scores = score_reported_cells(game, game_state, text)
        return reply_decision(state, action, status, info, intermediate=answers, scores=scores)

    return compile_model_check(MinesweeperAgentState, MinesweeperAgentInput, call, check, name)


_PART_NAMES = ("examples", "step_back", "tips", "memory", "report_cells")


def _parts_label(parts: PromptParts) -> str:
    on = [f for f in _PART_NAMES if getattr(parts, f)]
    return "+".join(on) if on else "baseline"


class MinesweeperPlayer(GraphPlayer):
    """The Minesweeper Agent as a player (stateless: +Memory reads the request).

    The memory is the released agent's: the previous prompt (without its own memory),
    the answer, and the result, which is the game's feedback for the operation applied
    (``state.feedback``) or, when the loop asked again, why the answer was refused. The
    graph builds it from the request's ``previous_exchange``, which the episode loop fills
    from the trajectory, so one player serves concurrent episodes and a resumed episode
    keeps its memory.
    """


def minesweeper_player(
    model: BaseChatModel,
    *,
    variant: Variant | PromptParts | str = Variant.BASELINE,
    name: str | None = None,
    **settings: Any,
) -> MinesweeperPlayer:
    """A :class:`MinesweeperPlayer` running :func:`create_minesweeper_agent`.

    Extra keyword arguments go to :func:`create_minesweeper_agent`.
    """
    parts = parts_of(variant)
    graph = create_minesweeper_agent(model, variant=parts, **settings)
    return MinesweeperPlayer(
        graph,
        name=name or f"minesweeper_{_parts_label(parts)}",
        description={
            "kind": "minesweeper_agent",
            "parts": _parts_label(parts),
            "model": describe_model(model),
        },
    )
