"""Strategy graphs (LangGraph), the episode loop and the learning loops."""

from __future__ import annotations

from langgraph_games.graphs.question_dag import (
    DagError,
    DagPlan,
    QuestionDagInput,
    QuestionDagOutput,
    create_question_dag,
    plan_question_dag,
)
from langgraph_games.graphs.spring import (
    SPRING_EDGES,
    SPRING_QUESTIONS,
    SpringVariant,
    create_spring_agent,
)
from langgraph_games.graphs.study import StudyError, create_study_graph, read_document

__all__ = [
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "DagError",
    "DagPlan",
    "QuestionDagInput",
    "QuestionDagOutput",
    "SpringVariant",
    "StudyError",
    "create_question_dag",
    "create_spring_agent",
    "create_study_graph",
    "plan_question_dag",
    "read_document",
]
