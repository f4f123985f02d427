"""The GAMEBoT strategy: a subproblem chain-of-thought prompt, parsing and verification.

``create_gamebot_agent(model, game)`` compiles a decision graph (see
:mod:`langgraph_games.graphs.common.decision`)::

    model -> END    (one node: ask, then check)

- ``model`` builds the game's three-part prompt (rules, input, output; our own words in
  :mod:`langgraph_games.graphs.gamebot.prompts`) as the system message, plus truths from
  memory, and the observation (plus feedback on a rejected answer) as the user message,
  then calls the chat model with retries, recording tokens and latency.
- ``check``, in the same node, reads the ``[Intermediate Thinking Results k: ...]``
  answers (the first one of each tag that reads as a value, as GAMEBoT's released
  checkers took the first) and the move: the first action named after the last
  ``Chosen Move`` (or the game's final label) that stands as a label, by the game's
  reader (commentary ignored; an answer whose final section lists two different actions
  is ambiguous), and scores each intermediate answer against the rule-based ground truth.
  ``reader="released"`` reads the move as GAMEBoT's released parsers did instead
  (:mod:`~langgraph_games.graphs.gamebot.released`), for parity studies.

The pieces are plain functions too (:func:`build_gamebot_messages`,
:func:`parse_gamebot_reply`, :func:`score_intermediate`), for graphs of your own. One
node rather than one per piece: each LangGraph node costs a fixed overhead per decision
(see ``benchmarks/decision_overhead.py``), and the pieces need no checkpoint between them.

Variants: ``"gamebot"`` (the paper's prompts), ``"action_only"`` and ``"cot"`` (the two
baselines of the paper's Table 3: move only, and a generic "think step by step"), and
``"reasoning"``, the looser prompt the paper describes for reasoning models (section
2.4): it states the subproblems, the definition each ground truth uses (a prompt module's
``DEFINITIONS``, the same text the ``gamebot`` prompt embeds: the Texas pre-flop table,
Othello's wedge gaps, ...) and the answer formats, but not the step-by-step procedure.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from langgraph_games.games._answer import AnswerStatus
from langgraph_games.games.base import Game
from langgraph_games.games.registry import list_games, make
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import extract_intermediate, score_answer
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    DecisionOutput,
    GraphPlayer,
    LiveGame,
    engine_of,
    live_context,
    live_game,
)
from langgraph_games.graphs.common.prompt_agent import compile_model_check, read_off_loop
from langgraph_games.graphs.gamebot.released import read_released
from langgraph_games.memory.hooks import format_truths
from langgraph_games.models.constrain import (
    constrained_model,
    constraint_kind,
    structured_reply_text,
)
from langgraph_games.models.factory import describe_model
from langgraph_games.models.messages import clip_reply, reply_too_long
from langgraph_games.models.usage import ainvoke_measured
from langgraph_games.players.base import Decision, ParseStatus

__all__ = [
    "READERS",
    "VARIANTS",
    "GamebotState",
    "build_gamebot_messages",
    "create_gamebot_agent",
    "gamebot_player",
    "load_prompt",
    "parse_gamebot_reply",
    "score_intermediate",
]

Variant = Literal["gamebot", "action_only", "cot", "reasoning"]
VARIANTS: tuple[str, ...] = ("gamebot", "action_only", "cot", "reasoning")
Reader = Literal["rule", "released"]
READERS: tuple[str, ...] = ("rule", "released")
"""How a move is read: ``rule``, the answer rule (the default), or ``released``, as
GAMEBoT's released parsers did (:mod:`~langgraph_games.graphs.gamebot.released`)."""
_SCORED_VARIANTS = {"gamebot", "reasoning"}


class GamebotState(DecisionInput, total=False):
    """Decision input plus the prompt, the reply and the decision."""

    messages: list[BaseMessage]
    reply: str
    usage: dict[str, float]
    latency_s: float
    decision: Decision


def load_prompt(game: Game[GameState] | str) -> ModuleType:
    """The prompt module of a game (``RULES``, ``INPUT``, ``OUTPUT`` and friends).

    Raises:
        ValueError: The game has no GAMEBoT prompt; the message lists those that do.
    """
    game_id = game if isinstance(game, str) else game.id
    game_id = re.sub(r"-v\d+$", "", game_id)
    try:
        return importlib.import_module(f"langgraph_games.graphs.gamebot.prompts.{game_id}")
    except ModuleNotFoundError:
        with_prompts = []
        for info in list_games():
            try:
                importlib.import_module(f"langgraph_games.graphs.gamebot.prompts.{info.id}")
            except ModuleNotFoundError:
                continue
            with_prompts.append(info.id)
        raise ValueError(
            f"No GAMEBoT prompt for game {game_id!r}; games with one: {', '.join(with_prompts)}"
        ) from None


def _answer_format(prompt: ModuleType) -> str:
    return str(getattr(prompt, "ANSWER_FORMAT", f"{_label(prompt)}: <your move>"))


def _label(prompt: ModuleType) -> str:
    return str(getattr(prompt, "FINAL_LABEL", "Chosen Move"))


def _definitions(game: Game[GameState], prompt: ModuleType) -> dict[int, str]:
    """The prompt's definition of every subproblem of ``game`` (what its truth computes).

    Raises:
        ValueError: The prompt module leaves a subproblem undefined.
    """
    definitions = dict(getattr(prompt, "DEFINITIONS", {}))
    missing = [sub.index for sub in game.subproblems if sub.index not in definitions]
    if missing:
        raise ValueError(
            f"the GAMEBoT prompt of {game.id} has no DEFINITIONS for subproblems {missing}"
        )
    return definitions


def _output_section(game: Game[GameState], prompt: ModuleType, variant: str) -> str:
    answer = _answer_format(prompt)
    if variant == "gamebot":
        return str(prompt.OUTPUT)
    if variant == "action_only":
        return f'Reply with your move only, written as "{answer}", and nothing else.'
    if variant == "cot":
        return (
            "Think step by step about the best move. Then end your reply with your move, "
            f'written as "{answer}".'
        )
    lines = [
        "Analyse the position in whatever way you find best. Your answers to the questions "
        "below are checked, so include each one in your reply in the format given.",
    ]
    definitions = _definitions(game, prompt)
    for sub in game.subproblems:
        lines.append(
            f"- {sub.question} {definitions[sub.index]} Answer as "
            f'"[Intermediate Thinking Results {sub.index}: {sub.answer_format}]".'
        )
    lines.append(f'Finish with your move, written as "{answer}".')
    return "\n".join(lines)


def build_gamebot_messages(
    game: Game[GameState],
    observation: str,
    *,
    variant: str = "gamebot",
    truths: list[str] | None = None,
    feedback: str | None = None,
) -> list[BaseMessage]:
    """The system and user messages of one GAMEBoT decision.

    Raises:
        ValueError: Unknown variant, or a game without a GAMEBoT prompt.
    """
    if variant not in VARIANTS:
        raise ValueError(f"Unknown GAMEBoT variant {variant!r}; accepted: {', '.join(VARIANTS)}")
    prompt = load_prompt(game)
    role = getattr(prompt, "ROLE", f"You are an expert player of the game {game.name}.")
    system = (
        f"{role}\n\n**Game Rules**\n{prompt.RULES}\n\n**Input**\n{prompt.INPUT}\n\n"
        f"**Output**\n{_output_section(game, prompt, variant)}"
    )
    if truths:
        system += f"\n\n{format_truths(truths)}"
    user = observation
    if feedback:
        user += f"\n\n{feedback}"
    return [SystemMessage(content=system), HumanMessage(content=user)]


def create_gamebot_agent(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    variant: Variant = "gamebot",
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    name: str = "gamebot",
    constrain: bool = False,
    reader: Reader = "rule",
) -> CompiledStateGraph[GamebotState, LiveGame, DecisionInput, DecisionOutput]:
    r"""Compile the GAMEBoT decision graph for one game.

    Args:
        model: Any LangChain chat model (see :func:`~langgraph_games.models.load_chat_model`).
        game: The game (engine or id) whose prompt to use.
        variant: ``"gamebot"``, ``"action_only"``, ``"cot"`` or ``"reasoning"``.
        call_attempts: Attempts per model call on transient failures (with backoff).
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        name: Name of the compiled graph.
        constrain: Hold the final answer to a legal move: each decision's model call is
            bound to the request's legal moves (a GBNF grammar for the local model, a
            JSON-schema ``response_format`` for an OpenAI-compatible endpoint, its JSON
            reply turned back into ``reasoning`` + ``Chosen Move: X``; see
            :mod:`langgraph_games.models.constrain`). The reader stays the same.
        reader: How the move is read: ``"rule"`` (the answer rule) or ``"released"``
            (as GAMEBoT's released parsers did, for parity studies; see
            :func:`parse_gamebot_reply`).

    Returns:
        A decision graph: input :class:`DecisionInput`, output ``{"decision": Decision}``,
        context :class:`~langgraph_games.graphs.common.decision.LiveGame` (optional).

    Raises:
        ValueError: Unknown variant or reader, no GAMEBoT prompt for the game, or
            ``constrain`` with a model that cannot be constrained.

    Example:
        >>> import asyncio
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.graphs.common.decision import session_input
        >>> from langgraph_games.models import ScriptedChatModel
        >>> reply = ("[Intermediate Thinking Results 1: None]\n"
        ...          "[Intermediate Thinking Results 2: None]\nChosen Move: (1,1)")
        >>> agent = create_gamebot_agent(ScriptedChatModel(responses=[reply]), "tictactoe")
        >>> session = GameSession("tictactoe")
        >>> out = asyncio.run(agent.ainvoke(session_input(session)))
        >>> out["decision"].action, [s["value"] for s in out["decision"].scores]
        ('(1,1)', [1.0, 1.0])
    """
    engine = make(game) if isinstance(game, str) else game
    if variant not in VARIANTS:
        raise ValueError(f"Unknown GAMEBoT variant {variant!r}; accepted: {', '.join(VARIANTS)}")
    _check_reader(reader)
    prompt = load_prompt(engine)
    label = _label(prompt)
    scored = variant in _SCORED_VARIANTS
    constraint = constraint_kind(model) if constrain else None

    async def call_model(
        state: GamebotState, config: RunnableConfig, runtime: Runtime[LiveGame]
    ) -> dict[str, Any]:
        live = live_context(runtime.context)
        messages = build_gamebot_messages(
            engine_of(state) if live is None else live.game,
            state["observation"],
            variant=variant,
            truths=list(state.get("truths") or []),
            feedback=state.get("feedback"),
        )
        caller = model
        if constraint is not None:
            caller = constrained_model(model, label, list(state["legal_actions"]))
        reply, usage = await ainvoke_measured(
            caller, messages, config, attempts=call_attempts, base_delay_s=retry_delay_s
        )
        text = str(reply.text)
        if constraint == "json_schema":
            text = structured_reply_text(text, label) or text
        return {"messages": messages, "reply": text, "usage": usage}

    async def check(state: GamebotState, runtime: Runtime[LiveGame]) -> DecisionOutput:
        live = live_game(state, runtime.context)
        return await read_off_loop(state.get("reply") or "", read, state, live)

    def read(state: GamebotState, live: LiveGame) -> DecisionOutput:
        player = int(state["player"])
        decision = parse_gamebot_reply(
            live.game,
            live.state,
            player,
            state.get("reply") or "",
            label=label,
            scored=scored,
            reader=reader,
        )
        decision.info["variant"] = variant
        if constraint is not None:
            decision.info["constrained"] = constraint
        usage = dict(state.get("usage") or {})
        decision.latency_s = usage.pop("latency_s", 0.0)
        decision.usage = usage
        if scored and live.game.subproblems:
            decision.scores = score_intermediate(
                live.game, live.state, player, decision.intermediate, decision.action
            )
        return {"decision": decision}

    return compile_model_check(GamebotState, DecisionInput, call_model, check, name)


def parse_gamebot_reply(
    game: Game[GameState],
    state: GameState,
    player: int,
    text: str,
    *,
    label: str = "Chosen Move",
    scored: bool = True,
    reader: Reader = "rule",
) -> Decision:
    """Read a GAMEBoT answer: the move of its final section and the tagged answers.

    With ``reader="rule"`` the move is read by
    :meth:`~langgraph_games.games.base.Game.read_action`: the first action named after
    the last final label that stands as a label (the game's ``answer_labels``, else
    ``label``; a remark that repeats the label's words is no label); commentary after it
    is ignored (words, a sentence in brackets), and a final section that lists two
    different actions, or an answer without the label that names two, is ambiguous. With
    ``reader="released"`` it is read as GAMEBoT's released parser of the game did
    (:func:`~langgraph_games.graphs.gamebot.released.read_released`), and
    ``info["reader"]`` records it. Either way each tag's answer is the first that reads
    as a value of its subproblem (:func:`~langgraph_games.games.subproblems.extract_intermediate`
    with ``keep="first"``). A reply too long to read
    (:func:`~langgraph_games.models.messages.reply_too_long`) is unparsable, and only an
    excerpt of it is kept.

    Returns:
        The :class:`~langgraph_games.players.base.Decision` (no usage, scores or latency
        yet), with ``info["problem"]`` explaining an unusable answer and ``info["named"]``
        the actions an ambiguous one names.

    Raises:
        ValueError: An unknown reader, or ``"released"`` for a game GAMEBoT released no
            parser of.
    """
    _check_reader(reader)
    info: dict[str, object] = {} if reader == "rule" else {"reader": reader}
    too_long = reply_too_long(text)
    if too_long is not None:
        info.update(problem=too_long, reply_chars=len(text))
        return Decision(
            action=None,
            status=ParseStatus.UNPARSABLE,
            raw_outputs=[clip_reply(text)],
            info=info,
        )
    if reader == "released":
        reading = read_released(game, state, player, text)
    else:
        labels = None if game.answer_labels else (label,)
        reading = game.read_action(state, player, text, labels=labels)
    action: str | None = None
    if reading.status is AnswerStatus.FOUND and reading.legal:
        status = ParseStatus.OK
        action = reading.action
    elif reading.status is AnswerStatus.FOUND:
        status = ParseStatus.ILLEGAL
        chosen = str(reading.action)
        info["problem"] = game.rejection_reason(state, player, chosen) or (
            f"the move after '{label}:' ({chosen!r}) is not one of the legal moves"
            if reading.labelled
            else f"{chosen!r} is not one of the legal moves"
        )
    elif reading.status is AnswerStatus.AMBIGUOUS:
        status = ParseStatus.AMBIGUOUS
        info["named"] = list(reading.named)
        listed = ", ".join(repr(a) for a in reading.named)
        info["problem"] = (
            f"your '{label}:' section names more than one move ({listed}); give exactly one"
            if reading.labelled
            else f"your answer has no '{label}:' line and names more than one move ({listed})"
        )
    else:
        status = ParseStatus.UNPARSABLE
        if reading.labelled:
            info["problem"] = f"nothing follows your last '{label}:' that names a move"
        else:
            info["problem"] = (
                f"your answer has no '{label}:' line" if text.strip() else "your answer was empty"
            )
    intermediate = extract_intermediate(text, game.subproblems, keep="first") if scored else {}
    return Decision(
        action=action, status=status, raw_outputs=[text], intermediate=intermediate, info=info
    )


def _check_reader(reader: str) -> None:
    if reader not in READERS:
        raise ValueError(f"Unknown GAMEBoT reader {reader!r}; accepted: {', '.join(READERS)}")


def score_intermediate(
    game: Game[GameState],
    state: GameState,
    player: int,
    intermediate: Mapping[int, str] | Mapping[str, str],
    action: str | None = None,
) -> list[dict[str, Any]]:
    """Score tagged answers (by subproblem index, a number or its text) against the truth.

    Truth about the chosen move itself (e.g. Negotiation's "value of your proposal") is
    added from :meth:`~langgraph_games.games.base.Game.action_ground_truth` when the
    answer had a legal move; without one, such subproblems are not scored.
    """
    truth = game.ground_truth(state, player)
    if action is not None:
        truth = {**truth, **game.action_ground_truth(state, player, action)}
    answers = {int(k): v for k, v in intermediate.items()}
    return [
        {
            **score_answer(sub, answers.get(sub.index), truth[sub.index]).to_dict(),
            "scored": sub.scored,
        }
        for sub in game.subproblems
        if sub.index in truth
    ]


def gamebot_player(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    variant: Variant = "gamebot",
    name: str | None = None,
    constrain: bool = False,
    reader: Reader = "rule",
    **settings: Any,
) -> GraphPlayer:
    """A :class:`GraphPlayer` running :func:`create_gamebot_agent` for ``game``.

    Extra keyword arguments go to :func:`create_gamebot_agent`. The player's description
    (the run manifest's) names a ``constrain`` or a ``reader`` other than the default.
    """
    graph = create_gamebot_agent(
        model, game, variant=variant, constrain=constrain, reader=reader, **settings
    )
    label = name or ("gamebot" if variant == "gamebot" else f"gamebot:variant={variant}")
    description: dict[str, object] = {
        "kind": "gamebot",
        "variant": variant,
        "model": describe_model(model),
    }
    if constrain:  # only when on, so default manifests stay as they were
        description["constrain"] = constraint_kind(model)
    if reader != "rule":
        description["reader"] = reader
    return GraphPlayer(graph, name=label, description=description)
