"""The question DAG: topology, what each node sees, concurrency, action mapping, bad input."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from langgraph_games.games.matching import ActionRule, match_action
from langgraph_games.graphs.question_dag.graph import (
    DagError,
    create_question_dag,
    plan_question_dag,
)
from langgraph_games.models import ScriptedChatModel

CRAFTER_ACTIONS = [
    "Noop", "Move West", "Move East", "Move North", "Move South", "Do", "Sleep",
    "Place Stone", "Place Table", "Place Furnace", "Place Plant", "Make Wood Pickaxe",
    "Make Stone Pickaxe", "Make Iron Pickaxe", "Make Wood Sword", "Make Stone Sword",
    "Make Iron Sword",
]  # fmt: skip

# A small DAG with a diamond and a join: levels a,b | c,d | e
QUESTIONS = {
    "a": "Question A?",
    "b": "Question B?",
    "c": "Question C?",
    "d": "Question D?",
    "e": "Question E, the action?",
}
EDGES = {"c": ["a"], "d": ["b", "a"], "e": ["d", "c", "b"]}


def answers_by_node(messages):
    return f"answer to {messages[-1].content}"


def test_plan_orders_and_levels() -> None:
    plan = plan_question_dag(QUESTIONS, EDGES)
    assert plan.final == "e"
    assert plan.by_level() == [["a", "b"], ["c", "d"], ["e"]]
    assert plan.depth == 3 and plan.order == ("a", "b", "c", "d", "e")
    assert plan.parents["e"] == ("d", "c", "b")


def test_each_node_sees_exactly_its_parents_in_order(scripted) -> None:
    model = scripted(script=answers_by_node)
    dag = create_question_dag(
        model,
        QUESTIONS,
        EDGES,
        actions=["Left", "Right"],
        game_name="Test Game",
        context="Some rules.",
    )
    out = dag.invoke(
        {
            "observation": "now",
            "recent_observations": ["long ago", "before"],
            "legal_actions": ["Right", "Left"],
            "step": 7,
        }
    )
    assert len(model.calls) == 5
    for messages in model.calls:
        node = next(n for n, q in QUESTIONS.items() if q == messages[-1].content)
        assert [type(m) for m in messages[:3]] == [SystemMessage] * 3
        assert messages[0].content == "You are playing Test Game."
        assert messages[1].content == "Some rules.\n\nThe actions you can take: Left, Right."
        assert messages[2].content == (
            "The 2 most recent observations of the game, oldest first.\n\n"
            "Observation at step 6:\nbefore\n\nObservation at step 7:\nnow"
        )
        expected = []
        for parent in EDGES.get(node, []):
            expected += [
                HumanMessage(QUESTIONS[parent]),
                AIMessage(f"answer to {QUESTIONS[parent]}"),
            ]
        expected.append(HumanMessage(QUESTIONS[node]))
        assert [(type(m), m.content) for m in messages[3:]] == [
            (type(m), m.content) for m in expected
        ]
    assert list(out["answers"]) == ["a", "b", "c", "d", "e"]
    assert out["raw_outputs"] == [f"answer to {QUESTIONS[n]}" for n in "abcde"]
    assert [t["node"] for t in out["trace"]] == list("abcde")
    assert out["usage"] == {"input_tokens": 50, "output_tokens": 10, "total_tokens": 60}
    assert out["calls"] == 5
    # "answer to Question E, the action?" names neither action: no default given.
    assert out["action"] is None and out["defaulted"] is True


def test_nodes_of_one_level_overlap(scripted) -> None:
    latency = 0.1
    # Levels of 4, 4 and 1 questions: 9 calls in 3 rounds.
    questions = {f"n{i}": f"Q{i}?" for i in range(9)}
    edges = {
        "n4": ["n0", "n1"],
        "n5": ["n1", "n2"],
        "n6": ["n2", "n3"],
        "n7": ["n3", "n0"],
        "n8": ["n4", "n5", "n6", "n7"],
    }
    model = scripted(default="Right", latency=latency)
    dag = create_question_dag(model, questions, edges, actions=["Left", "Right"])
    started = time.perf_counter()
    out = asyncio.run(dag.ainvoke({"observation": "x"}))
    elapsed = time.perf_counter() - started
    assert out["action"] == "Right" and not out["defaulted"] and out["calls"] == 9
    spans = {q: (s, e) for q, s, e in model.intervals}
    levels = [[f"Q{i}?" for i in range(4)], [f"Q{i}?" for i in range(4, 8)], ["Q8?"]]
    for level in levels:  # all calls of one level are in flight together
        assert max(spans[q][0] for q in level) < min(spans[q][1] for q in level)
    for earlier, later in itertools.pairwise(levels):  # a level starts when the last ends
        assert max(spans[q][1] for q in earlier) <= min(spans[q][0] for q in later)
    # About depth x latency (0.3 s), far from nodes x latency (0.9 s).
    assert elapsed < 6 * latency


def test_sequential_execution_asks_one_at_a_time(scripted) -> None:
    model = scripted(default="Left", latency=0.01)
    dag = create_question_dag(model, QUESTIONS, EDGES, actions=["Left"], execution="sequential")
    out = asyncio.run(dag.ainvoke({"observation": "x"}))
    spans = sorted((s, e) for _, s, e in model.intervals)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    assert out["action"] == "Left" and out["calls"] == 5


ACTION_CASES = [
    # (answer, rule, expected)
    ("Move West", "list_order", "Move West"),
    ("move west!", "list_order", "Move West"),
    ("I don't want to Place Table", "list_order", "Do"),  # the pitfall: "don't" has "do"
    ("I don't want to Place Table", "earliest_position", "Do"),
    ("I don't want to Place Table", "word_boundary", "Place Table"),
    ("Place Table, then Move West", "list_order", "Move West"),  # list order wins
    ("Place Table, then Move West", "earliest_position", "Place Table"),
    ("Place Table, then Move West", "word_boundary", "Place Table"),
    ("make_wood_pickaxe", "word_boundary", "Make Wood Pickaxe"),
    ("make_wood_pickaxe", "list_order", None),
    ("The best action: Noop.", "word_boundary", "Noop"),
    ("Sleeping is good", "list_order", "Sleep"),
    ("Sleeping is good", "word_boundary", None),
    ("", "list_order", None),
    ("\u2603\u2603 ###", "earliest_position", None),
    ("Do", "word_boundary", "Do"),
    ("DO IT", "word_boundary", "Do"),
    ("Make Stone Pickaxe", "earliest_position", "Make Stone Pickaxe"),
]


@pytest.mark.parametrize(("answer", "rule", "expected"), ACTION_CASES)
def test_action_mapping(answer: str, rule: str, expected: str | None) -> None:
    assert match_action(answer, CRAFTER_ACTIONS, rule) == expected


def test_action_mapping_garbage_and_ties() -> None:
    assert match_action(None, CRAFTER_ACTIONS) is None
    assert match_action(42, CRAFTER_ACTIONS, ActionRule.WORD_BOUNDARY) is None
    assert match_action("Move", ["Move", "Move West"], "earliest_position") == "Move"
    assert match_action("Move West", ["Move", "Move West"], "earliest_position") == "Move West"
    with pytest.raises(ValueError):
        match_action("x", CRAFTER_ACTIONS, "last")


def test_final_answer_naming_no_action_uses_the_default(scripted) -> None:
    model = scripted(default="I think we should just wait and see.")
    dag = create_question_dag(model, QUESTIONS, EDGES, actions=CRAFTER_ACTIONS, default_action="Do")
    out = dag.invoke({"observation": "x"})
    assert out["action"] == "Do" and out["defaulted"] is True
    # A default that is not legal now leaves the choice to the caller.
    out = dag.invoke({"observation": "x", "legal_actions": ["Noop", "Sleep"]})
    assert out["action"] is None and out["defaulted"] is True
    # An answer that names an action is not defaulted, and illegal names are not chosen.
    model.default = "Place Table now, or Sleep"
    out = dag.invoke({"observation": "x", "legal_actions": ["Noop", "Sleep"]})
    assert out["action"] == "Sleep" and out["defaulted"] is False


def test_cycle_is_rejected_and_named() -> None:
    with pytest.raises(DagError, match=r"cycle: a -> d -> e -> a"):
        plan_question_dag(QUESTIONS, {**EDGES, "a": ["e"]})
    with pytest.raises(DagError, match=r"cycle: a -> a"):
        plan_question_dag({"a": "A?"}, {"a": ["a"]})


def test_missing_parent_and_unknown_node_are_rejected() -> None:
    with pytest.raises(DagError, match=r"'e' lists parent 'z', which is not a question; known: a"):
        plan_question_dag(QUESTIONS, {**EDGES, "e": ["d", "z"]})
    with pytest.raises(DagError, match=r"edges name question 'x', which does not exist"):
        plan_question_dag(QUESTIONS, {**EDGES, "x": ["a"]})
    with pytest.raises(DagError, match="lists a parent twice"):
        plan_question_dag(QUESTIONS, {**EDGES, "e": ["d", "d"]})


def test_no_final_question_is_rejected() -> None:
    with pytest.raises(DagError, match="at least one question"):
        plan_question_dag({})
    with pytest.raises(DagError, match=r"cannot tell which question is final.*\['a', 'b'\]"):
        plan_question_dag({"a": "A?", "b": "B?"})
    with pytest.raises(DagError, match="final question 'z' is not a question"):
        plan_question_dag(QUESTIONS, EDGES, final="z")
    with pytest.raises(
        DagError, match=r"questions \[.c., .e.\] do not lead to the final question .d."
    ):
        plan_question_dag(QUESTIONS, EDGES, final="d")


def test_bad_ids_texts_and_inputs(scripted) -> None:
    with pytest.raises(DagError, match="question id '1st'"):
        plan_question_dag({"1st": "Q?"})
    with pytest.raises(DagError, match="question 'a' has no text"):
        plan_question_dag({"a": "  "})
    with pytest.raises(DagError, match="appears twice"):
        plan_question_dag([("a", "A?"), ("a", "B?")])
    dag = create_question_dag(scripted(default="x"), {"a": "A?"})
    with pytest.raises(DagError, match="needs 'observation' as text"):
        dag.invoke({"recent_observations": []})
    with pytest.raises(DagError, match="history_window"):
        create_question_dag(scripted(), {"a": "A?"}, history_window=0)


def test_observation_block_without_step_and_window_one(scripted) -> None:
    model = scripted(default="x")
    dag = create_question_dag(model, {"a": "A?"}, list_actions=False)
    dag.invoke({"observation": "now", "recent_observations": ["before"]})
    assert model.calls[-1][1].content.endswith(
        "Observation 1 step(s) ago:\nbefore\n\nCurrent observation:\nnow"
    )
    assert len(model.calls[-1]) == 3  # role, observations, question: no context message
    dag = create_question_dag(model, {"a": "A?"}, history_window=1, single_system_message=True)
    dag.invoke({"observation": "now", "recent_observations": ["before"], "step": 3})
    (system, question) = model.calls[-1]
    assert system.content == "You are playing the game.\n\nObservation at step 3:\nnow"
    assert question.content == "A?"


class _AsyncOnlyModel(ScriptedChatModel):
    """Fails any sync call: a question node must reach the model through its async path."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a question node called the model's sync API")

    def _stream(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a question node called the model's sync API")


def test_question_nodes_are_written_once_async_and_invoke_still_runs_them() -> None:
    # No sync twin: `invoke` runs the same async node (on a private loop), so the model
    # is only ever called through `ainvoke`, and both APIs give the same decision.
    inputs = {"observation": "now", "legal_actions": ["Left", "Right"], "step": 2}
    outputs = []
    for run in ("invoke", "ainvoke"):
        model = _AsyncOnlyModel(script=lambda messages: f"go Right ({messages[-1].content})")
        dag = create_question_dag(model, QUESTIONS, EDGES, actions=["Left", "Right"])
        out = dag.invoke(inputs) if run == "invoke" else asyncio.run(dag.ainvoke(inputs))
        assert len(model.calls) == 5
        for item in out["trace"]:
            assert item.pop("latency_s") >= 0  # timings differ from run to run
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert outputs[0]["action"] == "Right" and outputs[0]["calls"] == 5
