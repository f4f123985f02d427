"""EvoEmpirBench's evaluation of Match-2, as data (see :mod:`langgraph_games.games.protocol`).

The fixed evaluation levels, all 30 of the difficulty (``--level easy``), without it all
three (90, Table 5). Refused answers cost no step and are asked again (the loop's cap, 2
re-asks; the released loop re-asked until a 5-minute level timeout), then a random valid
action. Table 7's ablation plays the agent with and without props.
"""

from __future__ import annotations

from langgraph_games.games.protocol import AblationArm, EvalProtocol

__all__ = ["FAMILY", "PROTOCOL"]

FAMILY = "match2"
PROTOCOL = EvalProtocol(
    level_option="difficulty",
    options={"map_set": "eval"},
    sweep={"difficulty": ("easy", "medium", "hard")},
    map_sets={"eval": 30, "train": 10},
    max_retries=None,
    ablation=(AblationArm("EEB"), AblationArm("NoProps", {"props": False})),
)
