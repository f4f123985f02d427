"""EvoEmpirBench's evaluation of the maze, as data (see :mod:`langgraph_games.games.protocol`).

The fixed evaluation maps (``map_set=eval``), all 30 of the level, one episode each;
without ``--level`` all three levels (90 maps, the paper's Table 4). No re-asks: an
unreadable reply plays action 0, as the released agent did. Table 7's ablation plays the
agent with and without full vision.
"""

from __future__ import annotations

from langgraph_games.games.protocol import AblationArm, EvalProtocol

__all__ = ["FAMILY", "PROTOCOL"]

FAMILY = "maze"
PROTOCOL = EvalProtocol(
    level_option="level",
    options={"map_set": "eval"},
    sweep={"level": (1, 2, 3)},
    map_sets={"eval": 30, "train": 10},
    max_retries=0,
    ablation=(AblationArm("EEB"), AblationArm("Full-Vision", {"full_vision": True})),
)
