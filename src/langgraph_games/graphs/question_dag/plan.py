"""Validating a graph of questions: parents, cycles, the final question, levels.

:func:`plan_question_dag` is what :func:`~langgraph_games.graphs.question_dag.graph.
create_question_dag` runs first; it is pure and cheap, so it also serves to inspect a DAG
(its levels bound how many rounds of model calls a decision takes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["CHOOSE_ACTION", "DagError", "DagPlan", "plan_question_dag"]

CHOOSE_ACTION = "choose_action"
"""Name of the node that maps the final answer to an action."""

_NODE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")


class DagError(ValueError):
    """A question graph that cannot be run: a cycle, an unknown parent, no final question."""


@dataclass(frozen=True)
class DagPlan:
    """A validated question graph.

    Attributes:
        questions: Node id -> question text, in the order given.
        parents: Node id -> its parents, in the order given.
        final: The node whose answer is mapped to an action.
        order: A topological order (parents first; ties in the order given).
        levels: Node id -> length of the longest path from a root to it.
    """

    questions: dict[str, str]
    parents: dict[str, tuple[str, ...]]
    final: str
    order: tuple[str, ...]
    levels: dict[str, int]

    @property
    def depth(self) -> int:
        """Number of levels (the fewest rounds of model calls per decision)."""
        return max(self.levels.values()) + 1

    def by_level(self) -> list[list[str]]:
        """Node ids grouped by level, each group in topological order."""
        groups: list[list[str]] = [[] for _ in range(self.depth)]
        for node in self.order:
            groups[self.levels[node]].append(node)
        return groups


def _find_cycle(parents: Mapping[str, Sequence[str]], nodes: Sequence[str]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for parent in parents.get(node, ()):
            if state.get(parent) == 1:
                start = stack.index(parent)
                # The stack runs child -> parent; show the cycle in edge direction.
                return list(reversed([*stack[start:], parent]))
            if parent not in state:
                found = visit(parent)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in nodes:
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def plan_question_dag(
    questions: Mapping[str, str] | Sequence[tuple[str, str]],
    edges: Mapping[str, Sequence[str]] | None = None,
    *,
    final: str | None = None,
) -> DagPlan:
    """Validate a question graph and work out its order and levels.

    Args:
        questions: Node id -> question text (or ``(id, text)`` pairs), in display order.
        edges: Node id -> the ids of its parents, in the order their questions and answers
            should appear in its prompt. Nodes not listed have no parents.
        final: The question whose answer is the action; by default the only question that
            no other question depends on.

    Returns:
        The validated plan.

    Raises:
        DagError: No questions; a bad or repeated id; an empty question; an edge from or to
            an unknown question (naming it and the known ones); a repeated parent; a cycle
            (naming it, e.g. ``a -> b -> a``); no final question, several candidates, or
            questions that do not lead to the final one.

    Example:
        >>> plan = plan_question_dag({"a": "A?", "b": "B?", "c": "C?"}, {"c": ["a", "b"]})
        >>> plan.final, plan.by_level()
        ('c', [['a', 'b'], ['c']])
    """
    pairs = list(questions.items()) if isinstance(questions, Mapping) else list(questions)
    if not pairs:
        raise DagError("a question graph needs at least one question (and a final one)")
    texts: dict[str, str] = {}
    for node, text in pairs:
        if not isinstance(node, str) or not _NODE_ID.match(node) or node == CHOOSE_ACTION:
            raise DagError(
                f"question id {node!r} must start with a letter and use letters, digits, '_' "
                f"or '-' (and not be {CHOOSE_ACTION!r})"
            )
        if node in texts:
            raise DagError(f"question id {node!r} appears twice")
        if not isinstance(text, str) or not text.strip():
            raise DagError(f"question {node!r} has no text")
        texts[node] = text
    known = ", ".join(texts)
    parents: dict[str, tuple[str, ...]] = {node: () for node in texts}
    for node, ups in (edges or {}).items():
        if node not in texts:
            raise DagError(f"edges name question {node!r}, which does not exist; known: {known}")
        ups = tuple(ups)
        for parent in ups:
            if parent not in texts:
                raise DagError(
                    f"question {node!r} lists parent {parent!r}, which is not a question; "
                    f"known: {known}"
                )
        if len(set(ups)) != len(ups):
            raise DagError(f"question {node!r} lists a parent twice: {list(ups)}")
        parents[node] = ups
    cycle = _find_cycle(parents, list(texts))
    if cycle:
        raise DagError("the questions form a cycle: " + " -> ".join(cycle))
    children: dict[str, list[str]] = {node: [] for node in texts}
    for node, ups in parents.items():
        for parent in ups:
            children[parent].append(node)
    sinks = [node for node in texts if not children[node]]
    if final is None:
        if len(sinks) != 1:
            raise DagError(
                "cannot tell which question is final: the questions no other depends on are "
                f"{sinks}; pass final=..."
            )
        final = sinks[0]
    elif final not in texts:
        raise DagError(f"the final question {final!r} is not a question; known: {known}")
    ancestors = {final}
    frontier = [final]
    while frontier:
        for parent in parents[frontier.pop()]:
            if parent not in ancestors:
                ancestors.add(parent)
                frontier.append(parent)
    stray = [node for node in texts if node not in ancestors]
    if stray:
        raise DagError(
            f"questions {stray} do not lead to the final question {final!r}; "
            "connect them or remove them"
        )
    levels: dict[str, int] = {}

    def level(node: str) -> int:
        if node not in levels:
            levels[node] = 1 + max((level(p) for p in parents[node]), default=-1)
        return levels[node]

    for node in texts:
        level(node)
    position = {node: i for i, node in enumerate(texts)}
    order = tuple(sorted(texts, key=lambda n: (levels[n], position[n])))
    return DagPlan(texts, parents, final, order, levels)
