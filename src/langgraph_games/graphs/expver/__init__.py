"""Agent-ExpVer: the play-reflect-verify-promote loop, its parts, advice rule and prompts."""

from __future__ import annotations

from langgraph_games.graphs.expver.advice import IMPERATIVES, advice_candidates, is_advice
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

__all__ = [
    "IMPERATIVES",
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
    "RoundWork",
    "advice_candidates",
    "create_expver_graph",
    "default_metrics",
    "is_advice",
    "marker_namespace",
    "reverted_lessons",
    "round_touched",
    "round_truth_counts",
]
