"""Players by spec string, LLM strategies included: ``gamebot:local``, ``minimax:depth=3``.

LLM specs are ``<strategy>[:<model spec>]``; the model spec is anything
:func:`~langgraph_games.models.load_chat_model` accepts and defaults to ``local``. Other
specs go to the non-LLM registry (:func:`~langgraph_games.players.make_player`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.graphs.eeb import eeb_player
from langgraph_games.graphs.gamebot import gamebot_player
from langgraph_games.graphs.minesweeper_agent import MS_STRATEGIES, minesweeper_player
from langgraph_games.graphs.prompts_minesweeper import VARIANT_LABELS, Variant
from langgraph_games.models.factory import ACCEPTED_FORMS, load_chat_model
from langgraph_games.players.base import Player
from langgraph_games.players.registry import PlayerSpecError, accepted_forms, make_player

__all__ = ["STRATEGIES", "ModelPool", "build_player", "is_llm_spec", "split_llm_spec"]

StrategyBuilder = Callable[[BaseChatModel, Game[Any], str], Player]

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
    "eeb": (
        lambda model, game, name: eeb_player(model, game, name=name),
        "EvoEmpirBench prompt agent for maze (Action: X) and match2 (JSON)",
    ),
}


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
    spec: str, game: Game[Any], *, models: ModelPool | None = None, seed: int = 0
) -> Player:
    """Build the player named by ``spec`` for ``game``.

    Raises:
        PlayerSpecError: Unknown player or malformed spec; lists the accepted forms.
        ModelSpecError: The model part of an LLM spec is not an accepted form.
    """
    pool = models or ModelPool()
    parts = split_llm_spec(spec)
    if parts is not None:
        strategy, model_spec = parts
        builder, _ = STRATEGIES[strategy]
        return builder(pool.get(model_spec), game, spec)
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
