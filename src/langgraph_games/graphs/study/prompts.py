"""The study graph's questions (SPRING's Q_rel and Q_game) and the messages it sends."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

__all__ = [
    "ACTIONS_QUESTION",
    "GAME_QUESTIONS",
    "LATEX_SUFFIX",
    "RELEVANCE_QUESTIONS",
    "answer_messages",
    "dedupe_messages",
    "relevance_messages",
    "role",
]

RELEVANCE_QUESTIONS: tuple[str, ...] = (
    "Would this paragraph help me succeed in this game?",
    "Does this paragraph contain information on the game mechanics, or game strategies?",
)
"""SPRING's two relevance questions (Q_rel)."""

GAME_QUESTIONS: tuple[str, ...] = (
    "Write all information helpful for the game in a numbered list.",
    "In plain text. List all objects I need to interact/avoid to survive in the game. Use "
    '"I would like to X object Y" in each step. Replace Y by the actual object, X by the '
    "actual interaction.",
    "Write all game objectives numbered list. For each objective, list its requirements.",
    "Write all actions as a numbered list. For each action, list its requirements.",
)
"""SPRING's four game questions (Q_game)."""

ACTIONS_QUESTION = GAME_QUESTIONS[3]
"""The game question about actions: its answer alone is the context of SPRING's "action
descriptions" ablation."""

LATEX_SUFFIX = "DO NOT answer in LaTeX."
"""Appended to the game questions when the document is LaTeX, as in the paper."""


def role(game_name: str) -> str:
    """The system message of every study call."""
    return f"You are reading a document about {game_name} to learn how to play it well."


def relevance_messages(system: str, text: str, question: str) -> list[BaseMessage]:
    """Ask whether a paragraph is relevant (a yes/no question)."""
    return [
        SystemMessage(system),
        HumanMessage(f"Paragraph:\n{text}\n\nQuestion: {question} Answer yes or no."),
    ]


def answer_messages(system: str, text: str, question: str, latex: bool) -> list[BaseMessage]:
    """Ask a game question about a kept paragraph (not in LaTeX, when it is LaTeX)."""
    if latex:
        question = f"{question} {LATEX_SUFFIX}"
    return [SystemMessage(system), HumanMessage(f"Paragraph:\n{text}\n\nQuestion: {question}")]


def dedupe_messages(system: str, question: str, items: Sequence[str]) -> list[BaseMessage]:
    """The paper's merge call: a question's collected items, "Remove duplicate items."."""
    listed = "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
    return [
        SystemMessage(system),
        HumanMessage(f"Question: {question}\n{listed}\n\nRemove duplicate items."),
    ]
