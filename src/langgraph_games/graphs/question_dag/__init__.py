"""A graph of questions (validated plan, compiled to a LangGraph graph)."""

from __future__ import annotations

from langgraph_games.graphs.question_dag.graph import (
    Execution,
    QuestionDagInput,
    QuestionDagOutput,
    QuestionDagState,
    create_question_dag,
)
from langgraph_games.graphs.question_dag.plan import (
    CHOOSE_ACTION,
    DagError,
    DagPlan,
    plan_question_dag,
)

__all__ = [
    "CHOOSE_ACTION",
    "DagError",
    "DagPlan",
    "Execution",
    "QuestionDagInput",
    "QuestionDagOutput",
    "QuestionDagState",
    "create_question_dag",
    "plan_question_dag",
]
