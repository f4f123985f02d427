"""Strategy graphs (LangGraph), the episode loop and the learning loops."""

from __future__ import annotations

from langgraph_games.graphs.common.adapters import seat_tools
from langgraph_games.graphs.common.decision import DecisionInput, GraphPlayer, request_to_input
from langgraph_games.graphs.eeb.graph import create_eeb_agent, eeb_player
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions, EpisodeState
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.graphs.expver import ExpVerError, ExpVerOptions, create_expver_graph
from langgraph_games.graphs.gamebot.graph import (
    VARIANTS,
    build_gamebot_messages,
    create_gamebot_agent,
    gamebot_player,
)
from langgraph_games.graphs.human import (
    HUMAN_REQUEST_KIND,
    HumanPlayer,
    move_request,
    read_human_move,
)
from langgraph_games.graphs.minesweeper.graph import (
    MS_STRATEGIES,
    MinesweeperPlayer,
    create_minesweeper_agent,
    minesweeper_player,
)
from langgraph_games.graphs.question_dag.graph import (
    QuestionDagInput,
    QuestionDagOutput,
    create_question_dag,
)
from langgraph_games.graphs.question_dag.plan import DagError, DagPlan, plan_question_dag
from langgraph_games.graphs.smartplay.graph import (
    SmartPlayPlayer,
    create_smartplay_agent,
    smartplay_player,
)
from langgraph_games.graphs.spring.graph import (
    SPRING_EDGES,
    SPRING_QUESTIONS,
    SpringVariant,
    create_spring_agent,
    spring_context,
)
from langgraph_games.graphs.spring.player import (
    SpringPlayer,
    create_spring_decision_graph,
    spring_player,
)
from langgraph_games.graphs.study.documents import StudyError, read_document
from langgraph_games.graphs.study.graph import create_study_graph

__all__ = [
    "HUMAN_REQUEST_KIND",
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
    "ExpVerError",
    "ExpVerOptions",
    "GraphPlayer",
    "HumanPlayer",
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
    "create_expver_graph",
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
    "move_request",
    "plan_question_dag",
    "read_document",
    "read_human_move",
    "request_to_input",
    "run_episode",
    "seat_tools",
    "smartplay_player",
    "spring_context",
    "spring_player",
]
