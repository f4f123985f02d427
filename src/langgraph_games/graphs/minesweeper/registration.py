"""The Minesweeper Agent's entry in the player registry: ``minesweeper[:variant=...][:<model>]``.

``variant`` is a row of the paper's Table 1 (``baseline``, ``examples``, ``step_back``,
``tips``, ``memory``; each adds a part to the one before) or ``cells`` (ours: +Memory that
also lists the certain cells, scored against the solver). The former names
``ms_baseline`` ... ``ms_cells`` are refused with their current spelling
(``minesweeper:variant=memory``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from langgraph_games.graphs.minesweeper.graph import MS_STRATEGIES, minesweeper_player
from langgraph_games.players.base import Player
from langgraph_games.players.entry import PlayerBuild, PlayerEntry, only
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import PlayerSettings

__all__ = ["MinesweeperSettings"]

MinesweeperVariant = Literal["baseline", "examples", "step_back", "tips", "memory", "cells"]


class MinesweeperSettings(PlayerSettings):
    """Settings of ``minesweeper``."""

    variant: MinesweeperVariant = Field(
        "baseline",
        description="Table 1's row: baseline, examples (+ Examples), step_back (+ Step Back "
        "Prompting), tips (+ Tips and Tricks), memory (+ Memory); or cells (+ Memory, also "
        "listing the certain cells, scored by the solver)",
    )


def _build(request: PlayerBuild[MinesweeperSettings]) -> Player:
    if request.engine.id != "minesweeper":
        raise ValueError(f"{request.name} plays minesweeper only; got {request.engine.id!r}")
    parts = MS_STRATEGIES[request.settings.variant]
    return minesweeper_player(request.chat_model, variant=parts, name=request.name)


ENTRY = register_player(
    PlayerEntry(
        name="minesweeper",
        build=_build,
        description="Minesweeper Agent with the prompt variants of the paper's Table 1",
        settings=MinesweeperSettings,
        needs_model=True,
        renamed={f"ms_{variant}": {"variant": variant} for variant in MS_STRATEGIES},
        games=("minesweeper",),
        plays=only("minesweeper"),
    )
)
