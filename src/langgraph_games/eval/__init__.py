"""Evaluation: run specs, executors, results files, metrics, arenas and reports."""

from __future__ import annotations

from langgraph_games.eval.arena import ArenaReport, ArenaSpec, MatchSpec, run_arena, summarize
from langgraph_games.eval.metrics import Scoring, outcome_score, pairwise_wdl, player_rows
from langgraph_games.eval.players import STRATEGIES, ModelPool, build_player, is_llm_spec
from langgraph_games.eval.protocols import (
    PROTOCOLS,
    plan_ablation,
    plan_eval,
    run_specs,
)
from langgraph_games.eval.results import ReadReport, ResultsFile
from langgraph_games.eval.smartplay import (
    SmartPlayReport,
    SmartPlaySummary,
    run_smartplay,
    smartplay_specs,
    smartplay_summary,
)

__all__ = [
    "PROTOCOLS",
    "STRATEGIES",
    "ArenaReport",
    "ArenaSpec",
    "MatchSpec",
    "ModelPool",
    "ReadReport",
    "ResultsFile",
    "Scoring",
    "SmartPlayReport",
    "SmartPlaySummary",
    "build_player",
    "is_llm_spec",
    "outcome_score",
    "pairwise_wdl",
    "plan_ablation",
    "plan_eval",
    "player_rows",
    "run_arena",
    "run_smartplay",
    "run_specs",
    "smartplay_specs",
    "smartplay_summary",
    "summarize",
]
