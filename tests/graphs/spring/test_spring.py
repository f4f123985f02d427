"""SPRING on Crafter: the DAG's topology, its prompts, the ablations and a short episode."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_games.games import GameSession, make
from langgraph_games.graphs.spring.graph import (
    SPRING_EDGES,
    SPRING_QUESTIONS,
    STEP_BY_STEP_QUESTION,
    SpringVariant,
    create_spring_agent,
)

GOLDEN = Path(__file__).parents[1] / "golden"
QUESTION_IDS = {text: node for node, text in SPRING_QUESTIONS.items()}


def node_of(messages) -> str:
    return QUESTION_IDS.get(messages[-1].content, "think")


@pytest.fixture(scope="module")
def crafter_game():
    return make("crafter")


@pytest.mark.parametrize("variant", list(SpringVariant), ids=lambda v: v.value)
def test_topology_matches_the_snapshot(variant: SpringVariant, crafter_game, scripted) -> None:
    path = GOLDEN / f"spring-{variant.value}.mmd"
    drawing = create_spring_agent(scripted(), crafter_game, variant=variant).get_graph()
    assert drawing.draw_mermaid() == path.read_text(encoding="utf-8"), (
        f"the {variant.value} graph changed; if intended, run "
        f"python {GOLDEN / 'regenerate_drawings.py'} and review the diff"
    )


def test_final_question_has_four_parents_in_order() -> None:
    assert SPRING_EDGES["qa"] == ("q2", "q4", "q7", "q8")


def test_full_spring_prompts_on_crafter(crafter_game, scripted) -> None:
    model = scripted(script=lambda messages: f"[{node_of(messages)}] Move West")
    agent = create_spring_agent(model, crafter_game)
    out = agent.invoke(
        {
            "observation": "You see: - tree 1 steps to your west",
            "recent_observations": ["You see nothing."],
            "legal_actions": sorted(crafter_game.action_names),
            "step": 1,
        }
    )
    assert out["calls"] == 9 and len(model.calls) == 9
    assert out["action"] == "Move West" and not out["defaulted"]
    final = next(m for m in model.calls if node_of(m) == "qa")
    assert final[0].content == "You are playing Crafter."
    assert final[1].content.startswith("# Crafter\n\nCrafter is a survival game")  # the manual
    assert final[1].content.endswith(
        "The actions you can take: " + ", ".join(crafter_game.action_names) + "."
    )  # the package's order, not the sorted legal list
    assert "Observation at step 0:\nYou see nothing." in final[2].content
    pairs = [(type(m), m.content) for m in final[3:]]
    expected = []
    for parent in ("q2", "q4", "q7", "q8"):
        expected += [(HumanMessage, SPRING_QUESTIONS[parent]), (AIMessage, f"[{parent}] Move West")]
    assert pairs == [*expected, (HumanMessage, SPRING_QUESTIONS["qa"])]
    assert list(out["answers"]) == ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "qa"]


def test_springs_rule_maps_dont_to_do(crafter_game, scripted) -> None:
    agent = create_spring_agent(scripted(default="I don't know. Maybe Place Table."), crafter_game)
    out = agent.invoke({"observation": "x"})
    assert out["action"] == "Do" and out["defaulted"] is False  # as SPRING's code does
    words = create_spring_agent(
        scripted(default="I don't know. Maybe Place Table."),
        crafter_game,
        action_rule="word_boundary",
    )
    assert words.invoke({"observation": "x"})["action"] == "Place Table"
    garbage = create_spring_agent(scripted(default="\u2603 ~~ 42"), crafter_game)
    out = garbage.invoke({"observation": "x"})
    assert out["action"] == "Do" and out["defaulted"] is True


@pytest.mark.parametrize(
    ("variant", "calls"),
    [("full", 9), ("actions", 9), ("no_context", 9), ("step_by_step", 2), ("no_dag", 9),
     ("action_only", 1)],
)  # fmt: skip
def test_ablations(variant: str, calls: int, crafter_game, scripted) -> None:
    model = scripted(default="Noop")
    agent = create_spring_agent(model, crafter_game, "CONTEXT C", variant=variant)
    out = agent.invoke({"observation": "obs"})
    assert out["calls"] == calls and out["action"] == "Noop"
    final = model.calls[-1]
    assert final[-1].content == SPRING_QUESTIONS["qa"]
    systems = [m.content for m in final if m.type == "system"]
    if variant == "no_context":
        assert len(systems) == 2 and "CONTEXT C" not in systems[1]
        assert "actions you can take" not in "".join(systems)
    elif variant == "actions":
        assert systems[1].startswith("The actions of the game and their requirements:\n1. Noop")
        assert (
            "12. Make Wood Pickaxe: Make a wood pickaxe; uses 1 wood; needs a nearby table."
            in (systems[1])
        )
    else:
        assert systems[1].startswith("CONTEXT C")
    if variant == "no_dag":
        asked = [m.content for m in final if m.type == "human"]
        assert asked == [SPRING_QUESTIONS[n] for n in SPRING_QUESTIONS]
    if variant == "step_by_step":
        assert [m.content for m in final if m.type == "human"] == [
            STEP_BY_STEP_QUESTION,
            SPRING_QUESTIONS["qa"],
        ]
    if variant == "action_only":
        assert [m.type for m in final] == ["system", "system", "system", "human"]


def test_actions_given_as_a_list(scripted) -> None:
    agent = create_spring_agent(scripted(default="go Right"), ["Left", "Right"], "rules")
    out = agent.invoke({"observation": "x"})
    assert out["action"] == "Right"
    nothing = create_spring_agent(scripted(default="hmm"), ["Left", "Right"])
    out = nothing.invoke({"observation": "x"})
    assert out["action"] is None and out["defaulted"]  # "Do" is not an action here


def test_a_short_crafter_episode_through_the_agent(scripted) -> None:
    # How an adapter drives the graph: observation, the previous one, the legal actions.
    plan = iter(["Move North"] * 3 + ["Move West"] * 3 + ["Do"])
    model = scripted(script=lambda messages: next(plan) if node_of(messages) == "qa" else "ok")
    session = GameSession("crafter", seed=0)
    agent = create_spring_agent(model, session.game, variant="step_by_step")
    seen: list[str] = []

    async def episode() -> None:
        for _ in range(7):
            out = await agent.ainvoke(
                {
                    "observation": session.observe(),
                    "recent_observations": seen[-1:],
                    "legal_actions": list(session.legal_actions()),
                    "step": len(session.actions),
                }
            )
            seen.append(session.observe())
            session.step(out["action"])

    asyncio.run(episode())
    assert session.events[-1] == [{"type": "achievement", "name": "collect_wood"}]
    assert "Observation at step 5:\nYou took action move_west." in model.calls[-1][2].content
