"""SPRING's entry in the player registry: ``spring[:variant=...][:<model>]``.

``variant`` runs SPRING or one of its Table 3 ablations (``full``, ``actions``,
``no_context``, ``step_by_step``, ``no_dag``, ``action_only``); the former names
``spring_actions`` ... ``spring_action_only`` are refused with their current spelling
(``spring:variant=no_dag``). ``context`` is the game
context C; a document does not fit in a spec, so runs pass it as a setting of the agent
(``EvalSpec.agent_settings``, ``eval --context FILE``).
"""

from __future__ import annotations

from pydantic import Field

from langgraph_games.graphs.question_dag.graph import Execution
from langgraph_games.graphs.spring.graph import SpringVariant
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import PlayerSettings

__all__ = ["SpringSettings"]


class SpringSettings(PlayerSettings):
    """Settings of ``spring``."""

    variant: SpringVariant = Field(
        SpringVariant.FULL,
        description="full (SPRING: 9 questions in a DAG over C), or a Table 3 ablation: "
        "actions (C is the action list with requirements), no_context (no C), step_by_step "
        "('think step by step', then the action), no_dag (the 9 questions as a list), "
        "action_only (the action question alone)",
    )
    context: str | None = Field(
        None, description="the game context C as text (default: the game's manual)"
    )
    history_window: int = Field(2, ge=1, description="observations shown, the current one included")
    execution: Execution = Field(
        "levelled",
        description="levelled (questions of a DAG level at once) or sequential",
    )


def _build(request: PlayerBuild[SpringSettings]) -> Player:
    settings = request.settings
    return spring_player(
        request.chat_model,
        request.engine,
        variant=settings.variant,
        context=settings.context,
        history_window=settings.history_window,
        execution=settings.execution,
        name=request.name,
    )


ENTRY = register_player(
    PlayerEntry(
        name="spring",
        build=_build,
        description="SPRING: questions in a DAG over the game context (and its Table 3 ablations)",
        settings=SpringSettings,
        needs_model=True,
        renamed={
            f"spring_{variant.value}": {"variant": variant.value}
            for variant in SpringVariant
            if variant is not SpringVariant.FULL
        },
        games=("crafter", "bandit", "rock_paper_scissors", "hanoi", "messenger"),
    )
)
