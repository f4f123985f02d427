"""Evaluation: run specs, executors, results files, metrics, arenas and reports."""

from __future__ import annotations

from langgraph_games.eval.protocols.plans import (
    PROTOCOLS,
    plan_ablation,
    plan_eval,
    run_specs,
)
from langgraph_games.eval.protocols.smartplay import SmartPlayReport, run_smartplay, smartplay_specs
from langgraph_games.eval.running.arena import (
    ArenaReport,
    ArenaSpec,
    MatchSpec,
    run_arena,
    summarize,
)
from langgraph_games.eval.running.players import STRATEGIES, ModelPool, build_player, is_llm_spec
from langgraph_games.eval.running.results import ReadReport, ResultsFile
from langgraph_games.eval.scoring.metrics import Scoring, outcome_score, pairwise_wdl, player_rows
from langgraph_games.eval.scoring.smartplay_summary import SmartPlaySummary, smartplay_summary

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
