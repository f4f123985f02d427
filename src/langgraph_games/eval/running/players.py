"""Players by spec string, LLM strategies included: ``gamebot:local``, ``minimax:depth=3``.

LLM specs are ``<strategy>[:<model spec>]``; the model spec is anything
:func:`~langgraph_games.models.load_chat_model` accepts and defaults to ``local``. Other
specs go to the non-LLM registry (:func:`~langgraph_games.players.make_player`).

A strategy builder is ``(model, game, name, **settings) -> Player``; ``settings`` are
strategy options that do not fit in a spec string (SPRING's ``context``, a document's
worth of text) and come from :class:`~langgraph_games.eval.running.runner.EvalSpec`'s
``agent_settings``. A builder that takes no settings is called with none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.graphs.eeb.graph import eeb_player
from langgraph_games.graphs.gamebot.graph import gamebot_player
from langgraph_games.graphs.minesweeper.graph import MS_STRATEGIES, minesweeper_player
from langgraph_games.graphs.minesweeper.prompts import VARIANT_LABELS, Variant
from langgraph_games.graphs.smartplay.graph import smartplay_player
from langgraph_games.graphs.spring.graph import SpringVariant
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.models.factory import ACCEPTED_FORMS, load_chat_model
from langgraph_games.players.base import Player
from langgraph_games.players.registry import PlayerSpecError, accepted_forms, make_player

__all__ = [
    "SPRING_STRATEGIES",
    "STRATEGIES",
    "ModelPool",
    "build_player",
    "is_llm_spec",
    "split_llm_spec",
]

StrategyBuilder = Callable[..., Player]
"""``(model, game, name, **settings) -> Player``."""

STRATEGIES: dict[str, tuple[StrategyBuilder, str]] = {
    "gamebot": (
        lambda model, game, name: gamebot_player(model, game, variant="gamebot", name=name),
        "GAMEBoT subproblem chain-of-thought prompt",
    ),
    "gamebot_action": (
        lambda model, game, name: gamebot_player(model, game, variant="action_only", name=name),
        "GAMEBoT action-only baseline",
    ),
    "gamebot_cot": (
        lambda model, game, name: gamebot_player(model, game, variant="cot", name=name),
        "GAMEBoT generic 'think step by step' baseline",
    ),
    "gamebot_reasoning": (
        lambda model, game, name: gamebot_player(model, game, variant="reasoning", name=name),
        "GAMEBoT looser prompt for reasoning models",
    ),
    "smartplay": (
        lambda model, game, name, **settings: smartplay_player(model, game, name=name, **settings),
        "SmartPlay baseline: think step by step, then choose the exact action "
        "(SmartPlay games and Crafter)",
    ),
    "smartplay_paper": (
        lambda model, game, name, **settings: smartplay_player(
            model, game, question_variant="paper", name=name, **settings
        ),
        "SmartPlay baseline with the paper's wording of question 1",
    ),
    "eeb": (
        lambda model, game, name: eeb_player(model, game, name=name),
        "EvoEmpirBench prompt agent for maze (Action: X) and match2 (JSON)",
    ),
}

SPRING_STRATEGIES: dict[str, SpringVariant] = {
    "spring": SpringVariant.FULL,
    "spring_actions": SpringVariant.ACTIONS,
    "spring_no_context": SpringVariant.NO_CONTEXT,
    "spring_step_by_step": SpringVariant.STEP_BY_STEP,
    "spring_no_dag": SpringVariant.NO_DAG,
    "spring_action_only": SpringVariant.ACTION_ONLY,
}
"""SPRING's strategy names and the Table 3 variant each runs."""

_SPRING_DESCRIPTIONS = {
    SpringVariant.FULL: "SPRING: 9 questions in a DAG over the game context",
    SpringVariant.ACTIONS: "SPRING ablation: context is the action list with requirements",
    SpringVariant.NO_CONTEXT: "SPRING ablation: no context",
    SpringVariant.STEP_BY_STEP: "SPRING ablation: 'think step by step', then the action",
    SpringVariant.NO_DAG: "SPRING ablation: the 9 questions as a list, without the DAG",
    SpringVariant.ACTION_ONLY: "SPRING ablation: the action question alone",
}


def _spring_builder(variant: SpringVariant) -> StrategyBuilder:
    def build(model: BaseChatModel, game: Game[Any], name: str, **settings: Any) -> Player:
        return spring_player(model, game, variant=variant, name=name, **settings)

    return build


for _name, _variant in SPRING_STRATEGIES.items():
    STRATEGIES[_name] = (_spring_builder(_variant), _SPRING_DESCRIPTIONS[_variant])


def _minesweeper_builder(strategy: str) -> StrategyBuilder:
    parts = MS_STRATEGIES[strategy]

    def build(model: BaseChatModel, game: Game[Any], name: str) -> Player:
        if game.id != "minesweeper":
            raise ValueError(f"{strategy} plays minesweeper only; got {game.id!r}")
        return minesweeper_player(model, variant=parts, name=name)

    return build


def _minesweeper_description(strategy: str) -> str:
    if strategy == "ms_cells":
        return "Minesweeper Agent +Memory, also listing the certain cells (scored by the solver)"
    variant = Variant(strategy.removeprefix("ms_"))
    return f"Minesweeper Agent, Table 1 row '{VARIANT_LABELS[variant]}'"


for _strategy in MS_STRATEGIES:
    STRATEGIES[_strategy] = (_minesweeper_builder(_strategy), _minesweeper_description(_strategy))


def split_llm_spec(spec: str) -> tuple[str, str] | None:
    """``"gamebot:openai:gpt-4o"`` -> ``("gamebot", "openai:gpt-4o")``; ``None`` if not LLM."""
    strategy, _, model = spec.strip().partition(":")
    if strategy.lower() not in STRATEGIES:
        return None
    return strategy.lower(), model or "local"


def is_llm_spec(spec: str) -> bool:
    """Whether ``spec`` names an LLM strategy."""
    return split_llm_spec(spec) is not None


def all_accepted_forms() -> str:
    """Every accepted player form, LLM strategies first."""
    llm = "; ".join(
        f"'{name}[:<model>]' ({description})" for name, (_, description) in STRATEGIES.items()
    )
    return f"{llm}; {accepted_forms()}. Models: {ACCEPTED_FORMS}"


class ModelPool:
    """One chat model per model spec, shared by every player that names it."""

    def __init__(self, **settings: Any) -> None:
        self.settings = settings
        self.models: dict[str, BaseChatModel] = {}

    def get(self, spec: str) -> BaseChatModel:
        """The (cached) model for ``spec``."""
        if spec not in self.models:
            self.models[spec] = load_chat_model(spec, **self.settings)
        return self.models[spec]


def build_player(
    spec: str,
    game: Game[Any],
    *,
    models: ModelPool | None = None,
    seed: int = 0,
    settings: dict[str, Any] | None = None,
) -> Player:
    """Build the player named by ``spec`` for ``game``.

    Args:
        spec: A player spec (see the module docstring).
        game: The game to play.
        models: Shared chat models (a new pool by default).
        seed: Seed of a search player's own randomness.
        settings: Strategy options for an LLM strategy's builder (e.g. SPRING's
            ``context``).

    Raises:
        PlayerSpecError: Unknown player or malformed spec (lists the accepted forms), or
            settings given to a player that takes none.
        ModelSpecError: The model part of an LLM spec is not an accepted form.
    """
    pool = models or ModelPool()
    parts = split_llm_spec(spec)
    if parts is not None:
        strategy, model_spec = parts
        builder, _ = STRATEGIES[strategy]
        if not settings:
            return builder(pool.get(model_spec), game, spec)
        try:
            return builder(pool.get(model_spec), game, spec, **settings)
        except TypeError as exc:
            if "unexpected keyword argument" not in str(exc):
                raise
            raise PlayerSpecError(
                f"strategy {strategy!r} does not take the settings {sorted(settings)}"
            ) from exc
    if settings:
        raise PlayerSpecError(f"player {spec!r} takes no settings; got {sorted(settings)}")
    try:
        player = make_player(spec, seed=seed)
    except PlayerSpecError as exc:
        if str(exc).startswith("Unknown player"):
            raise PlayerSpecError(
                f"Unknown player {spec!r}. Accepted forms: {all_accepted_forms()}."
            ) from exc
        raise
    player.name = spec
    return player
