"""Agent-ExpVer: the play-reflect-verify-promote loop, its parts, typed lessons and prompts."""

from __future__ import annotations

from langgraph_games.graphs.expver.context import (
    ExpVerContext,
    ExpVerState,
    LevelWork,
    RoundWork,
    marker_namespace,
)
from langgraph_games.graphs.expver.episodes import (
    Delivered,
    EpisodeRequest,
    EpisodeRunner,
    InProcessEpisodes,
    PlayedEpisode,
)
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.lessons import (
    REFLECTION_SCHEMA,
    read_typed_reflection,
    type_items,
)
from langgraph_games.graphs.expver.parts import (
    ExpVerError,
    ExpVerOptions,
    Ledger,
    Level,
    MemoryLedger,
    MetricsFn,
    PlayerFactory,
    default_metrics,
    reverted_lessons,
    round_touched,
    round_truth_counts,
)
from langgraph_games.graphs.expver.truths import RunTruths
from langgraph_games.graphs.expver.verdicts import ReplayVerdict, judge_replay

__all__ = [
    "REFLECTION_SCHEMA",
    "Delivered",
    "EpisodeRequest",
    "EpisodeRunner",
    "ExpVerContext",
    "ExpVerError",
    "ExpVerOptions",
    "ExpVerState",
    "InProcessEpisodes",
    "Ledger",
    "Level",
    "LevelWork",
    "MemoryLedger",
    "MetricsFn",
    "PlayedEpisode",
    "PlayerFactory",
    "ReplayVerdict",
    "RoundWork",
    "RunTruths",
    "create_expver_graph",
    "default_metrics",
    "judge_replay",
    "marker_namespace",
    "read_typed_reflection",
    "reverted_lessons",
    "round_touched",
    "round_truth_counts",
    "type_items",
]
