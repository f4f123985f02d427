"""Strategy graphs (LangGraph), the episode loop and the learning loops."""

from __future__ import annotations

from langgraph_games.graphs.decision import DecisionInput, GraphPlayer, request_to_input
from langgraph_games.graphs.eeb import create_eeb_agent, eeb_player
from langgraph_games.graphs.episode import (
    EpisodeContext,
    EpisodeOptions,
    EpisodeState,
    create_episode_graph,
    run_episode,
)
from langgraph_games.graphs.gamebot import (
    VARIANTS,
    build_gamebot_messages,
    create_gamebot_agent,
    gamebot_player,
)
from langgraph_games.graphs.minesweeper_agent import (
    MS_STRATEGIES,
    MinesweeperPlayer,
    create_minesweeper_agent,
    minesweeper_player,
)
from langgraph_games.graphs.question_dag import (
    DagError,
    DagPlan,
    QuestionDagInput,
    QuestionDagOutput,
    create_question_dag,
    plan_question_dag,
)
from langgraph_games.graphs.smartplay import (
    SmartPlayPlayer,
    create_smartplay_agent,
    smartplay_player,
)
from langgraph_games.graphs.spring import (
    SPRING_EDGES,
    SPRING_QUESTIONS,
    SpringVariant,
    create_spring_agent,
    spring_context,
)
from langgraph_games.graphs.spring_player import (
    SpringPlayer,
    create_spring_decision_graph,
    spring_player,
)
from langgraph_games.graphs.study import StudyError, create_study_graph, read_document

__all__ = [
    "MS_STRATEGIES",
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "VARIANTS",
    "DagError",
    "DagPlan",
    "DecisionInput",
    "EpisodeContext",
    "EpisodeOptions",
    "EpisodeState",
    "GraphPlayer",
    "MinesweeperPlayer",
    "QuestionDagInput",
    "QuestionDagOutput",
    "SmartPlayPlayer",
    "SpringPlayer",
    "SpringVariant",
    "StudyError",
    "build_gamebot_messages",
    "create_eeb_agent",
    "create_episode_graph",
    "create_gamebot_agent",
    "create_minesweeper_agent",
    "create_question_dag",
    "create_smartplay_agent",
    "create_spring_agent",
    "create_spring_decision_graph",
    "create_study_graph",
    "eeb_player",
    "gamebot_player",
    "minesweeper_player",
    "plan_question_dag",
    "read_document",
    "request_to_input",
    "run_episode",
    "smartplay_player",
    "spring_context",
    "spring_player",
]
