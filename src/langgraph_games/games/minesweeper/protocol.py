"""The Minesweeper Agent paper's evaluation, as data (see :mod:`langgraph_games.games.protocol`).

9x9 boards, mines 1, 2 and 3, 10 tries each with seeds 0-9 (the released protocol behind
Table 1). No re-asks: a reply without a triple is the game's ``invalid answer`` step,
exactly the paper's loop. Table 1's ablation varies the prompt design, so it takes a model
spec and plays one ``ms_<variant>`` strategy per row.
"""

from __future__ import annotations

from langgraph_games.games.protocol import AblationArm, EvalProtocol

__all__ = ["FAMILY", "PROTOCOL"]

FAMILY = "minesweeper"
PROTOCOL = EvalProtocol(
    options={"rows": 9, "cols": 9},
    sweep={"mines": (1, 2, 3)},
    repeats=10,
    repeats_per_map=10,
    max_retries=0,
    ablation=(
        AblationArm("Baseline", strategy="minesweeper:variant=baseline"),
        AblationArm("+ Examples", strategy="minesweeper:variant=examples"),
        AblationArm("+ Step Back Prompting", strategy="minesweeper:variant=step_back"),
        AblationArm("+ Tips and Tricks", strategy="minesweeper:variant=tips"),
        AblationArm("+ Memory", strategy="minesweeper:variant=memory"),
    ),
    ablation_takes_model=True,
)
