"""The Minesweeper Agent on scripted replies: variants, memory, parsing, bad cases, scoring."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from eeb_ms_support import HandMinesweeper, board_from_prompt, cells_oracle, minesweeper_oracle
from langgraph_games.games import GameSession, make
from langgraph_games.games.minesweeper import metrics
from langgraph_games.games.minesweeper.rules import (
    ALREADY_REVEALED,
    GAME_OVER,
    INVALID_ANSWER,
    INVALID_POSITION,
)
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.minesweeper import graph as agent_graph
from langgraph_games.graphs.minesweeper.graph import (
    MS_STRATEGIES,
    create_minesweeper_agent,
    minesweeper_player,
    parts_of,
)
from langgraph_games.graphs.minesweeper.prompts import Variant
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for

PAPER = EpisodeOptions(max_retries=0)  # the paper's loop: no re-asks, the game's fallback
ROOT = Path(__file__).resolve().parents[3]


async def decide(reply: str, session: GameSession, variant: Any = "baseline") -> dict[str, Any]:
    agent = create_minesweeper_agent(ScriptedChatModel(responses=[reply]), variant=variant)
    out = await agent.ainvoke(request_to_input(request_for(session)))
    return out["decision"].to_dict()


async def play(
    game: Any, replies: Any, variant: Any = "memory", **kw: Any
) -> tuple[dict[str, Any], ScriptedChatModel]:
    model = (
        ScriptedChatModel(script=replies)
        if callable(replies)
        else ScriptedChatModel(responses=list(replies))
    )
    player = minesweeper_player(model, variant=variant)
    out = await run_episode(
        game, [player], seed=kw.pop("seed", 0), options=kw.pop("options", PAPER)
    )
    return out, model


@pytest.mark.parametrize(
    ("reply", "action", "status"),
    [
        ("Corner first. Answer: r,0,0", "r,0,0", "ok"),
        ("r, 2, 3", "r,2,3", "ok"),  # spaces after the commas, as the released regex allows
        ("First f,1,1 then on second thought r,4,4", "r,4,4", "ok"),  # the last triple wins
        ("Reveal (3,3).", None, "unparsable"),  # no triple
        ("R,1,1", None, "unparsable"),  # case-sensitive, as released
        ("r,9,0", "invalid:position", "ok"),  # off the 9x9 board: the paper's invalid step
    ],
)
async def test_answers_are_read_with_the_papers_parser(
    reply: str, action: str | None, status: str
) -> None:
    decision = await decide(reply, GameSession("minesweeper", seed=1))
    assert (decision["action"], decision["status"]) == (action, status)
    if action == "invalid:position":
        assert decision["info"]["problem"] == INVALID_POSITION


async def test_each_variant_sends_its_parts_as_one_user_message() -> None:
    session = GameSession("minesweeper", seed=2)
    seen = {}
    for variant in Variant:
        model = ScriptedChatModel(responses=["r,0,0"])
        agent = create_minesweeper_agent(model, variant=variant)
        await agent.ainvoke(request_to_input(request_for(session)))
        [message] = model.calls[0]
        assert message.type == "human"
        seen[variant] = message.text
    assert '"r,1,2"' not in seen[Variant.BASELINE] and '"r,1,2"' in seen[Variant.EXAMPLES]
    assert "step back" in seen[Variant.STEP_BACK] and "Tips:" in seen[Variant.TIPS]
    # Without a previous step, +Memory's prompt is +Tips's.
    assert seen[Variant.MEMORY] == seen[Variant.TIPS]
    assert board_from_prompt(seen[Variant.BASELINE])[0] == session.state.view


async def test_truths_and_feedback_go_into_the_one_message() -> None:
    session = GameSession("minesweeper", seed=2)
    model = ScriptedChatModel(responses=["r,0,0"])
    request = request_for(session, truths=("Flag early.",), feedback="no triple")
    await create_minesweeper_agent(model, variant="tips").ainvoke(request_to_input(request))
    text = model.calls[0][0].text
    rules, after = text.split("The board:")
    assert "1. Flag early." not in after
    assert rules.index("Tips:") < rules.index("1. Flag early.")
    assert text.endswith("Your previous answer could not be used: no triple\nPlease answer again.")


async def test_memory_carries_the_previous_prompt_answer_and_result() -> None:
    game = HandMinesweeper([(2, 2)], rows=3, cols=3)
    replies = ["No idea yet.", "Answer: r,0,0", "Answer: r,0,0"]
    out, model = await play(
        game, replies, variant="memory", options=EpisodeOptions(max_retries=0, max_steps=3)
    )
    first, second, third = (call[0].text for call in model.calls)
    assert not first.startswith("Prompt:")
    assert second.startswith(
        f"Prompt:\n{first}\nAnswer:\nNo idea yet.\n\nResult:\n{INVALID_ANSWER}\n\n"
    )
    assert (
        third.startswith("Prompt:\n") and "\nAnswer:\nAnswer: r,0,0\n\nResult:\nsafe\n\n" in third
    )
    # Only the previous step is kept, without its own memory.
    assert third.count("Prompt:\n") == 1
    _, model = await play(
        game, replies, variant="baseline", options=EpisodeOptions(max_retries=0, max_steps=3)
    )
    assert not any(call[0].text.startswith("Prompt:") for call in model.calls)
    assert [s["actions"]["0"] for s in out["trajectory"]] == ["invalid:answer", "r,0,0", "r,0,0"]


async def test_a_scripted_win_scores_exactly_and_garbage_is_an_invalid_step() -> None:
    # 0 1 *    mines at (0,2) and (2,0); the centre shows 2, the corners
    # 1 2 1    (0,0) and (2,2) are zeros and flood their neighbours.
    # * 1 0
    game = HandMinesweeper([(0, 2), (2, 0)], rows=3, cols=3)
    replies = ["I will open the centre: r,1,1", "Let me think.", "r,0,0", "r,2,2", "f,0,2", "f,2,0"]
    out, _ = await play(game, replies, variant="baseline")
    session = GameSession(game, seed=0, actions=out["result"]["record"]["actions"])
    m = metrics.episode_metrics(session)
    assert (m["win"], m["steps"], m["invalid_steps"]) == (True, 6, 1)
    assert session.actions[1] == {0: "invalid:answer"}
    assert session.states[2].feedback == INVALID_ANSWER
    assert out["result"]["players"][0]["fallbacks"] == 1
    # The centre and (0,0) are guesses; then (2,2) is proven safe and both flags proven.
    assert (m["moves_checked"], m["proven_moves"], m["guesses"], m["wrong_moves"]) == (5, 3, 2, 0)
    assert m["avoidable_guesses"] == 0


async def test_an_oracle_wins_every_board_with_the_memory_variant() -> None:
    for seed in range(3):
        game = HandMinesweeper([(seed, 4), (4, seed)], rows=5, cols=5)
        out, _ = await play(game, minesweeper_oracle(), variant="memory", seed=seed)
        state = GameSession(game, seed=seed, actions=out["result"]["record"]["actions"]).state
        assert state.status == "won" and state.invalid_steps == 0


async def test_bad_case_1_knowing_the_mine_but_revealing_it_loses() -> None:
    game = HandMinesweeper([(7, 5)], opened=[(0, 0), (8, 5)])
    reply = "The 1s around (7,5) show that (7,5) is a mine. Answer: r,7,5"
    out, _ = await play(game, [reply], variant="baseline")
    steps = out["trajectory"]
    assert len(steps) == 1 and steps[0]["events"][0]["feedback"] == GAME_OVER
    check = steps[0]["decisions"]["0"]["attempts"][0]["info"]["move_check"]
    assert check == {
        "cell": "(7,5)",
        "claim": "safe",
        "verdict": "wrong",
        "certain_available": True,
    }
    fixed, _ = await play(game, [reply.replace("r,7,5", "f,7,5")], variant="baseline")
    assert fixed["result"]["returns"] == [1.0] and fixed["result"]["steps"] == 1


async def test_bad_case_2_revealing_a_cell_between_zeros_and_ones_loses() -> None:
    # 0 0 1 ? 1     (1,3) sits among 0s and 1s; the 1 at (2,3) touches no other covered
    # 0 0 1 ? 1     cell, so (1,3) is certainly a mine.
    # 0 0 1 1 1
    game = HandMinesweeper([(1, 3), (8, 8)], opened=[(5, 0)])
    out, _ = await play(game, ["(1,3) is between 0 and 1 cells, so it is safe: r,1,3"], "baseline")
    step = out["trajectory"][0]
    assert step["events"][0]["feedback"] == GAME_OVER and len(out["trajectory"]) == 1
    check = step["decisions"]["0"]["attempts"][0]["info"]["move_check"]
    assert (check["claim"], check["verdict"]) == ("safe", "wrong")


async def test_bad_case_3_repeating_an_operation() -> None:
    answer = (
        "Answer: The cell at (6,2) has a '2', which means there are two mines adjacent to it. "
        "The only two unrevealed cells adjacent to (6,2) are (7,1) and (7,2). Therefore, both "
        "of these cells must be mines. We should flag them to avoid clicking on them.\n"
        "Answer: f,7,2"
    )
    game = HandMinesweeper([(7, 1), (7, 2), (0, 8)], opened=[(0, 0)])
    out, _ = await play(game, [answer], variant="baseline")
    feedback = [s["events"][0]["feedback"] for s in out["trajectory"]]
    # Flagging the same cell again toggles it, so the game runs to the 20-step cap.
    assert feedback[:3] == ["add flag", "remove flag", "add flag"] and len(feedback) == 20
    assert out["result"]["record"]["actions"][0] == "f,7,2"
    # Repeating an operation on an open cell is invalid; five in a row end the game.
    opened, _ = await play(game, ["Answer: r,0,0"], variant="baseline")
    feedback = [s["events"][0]["feedback"] for s in opened["trajectory"]]
    assert feedback == [ALREADY_REVEALED] * 5
    state = GameSession(game, actions=opened["result"]["record"]["actions"]).state
    assert state.status == "invalid_limit" and state.invalid_steps == 5


async def test_reported_cells_are_scored_against_the_solver() -> None:
    game = HandMinesweeper([(7, 5)], opened=[(0, 0), (8, 5)])
    session = GameSession(game)
    right = await decide(cells_oracle([_human(session)]), session, MS_STRATEGIES["cells"])
    assert [s["value"] for s in right["scores"]] == [1.0, 1.0]
    assert right["scores"][1]["truth"] == ["(7,5)"] and right["action"] == "f,7,5"
    wrong = await decide(
        "[Intermediate Thinking Results 1: (7,5)]\n[Intermediate Thinking Results 2: None]\nr,7,5",
        session,
        MS_STRATEGIES["cells"],
    )
    safe, mine = wrong["scores"]
    assert (safe["tp"], safe["fp"], safe["fn"], safe["value"]) == (0, 1, 0, 0.0)
    assert (mine["fn"], mine["answered"]) == (1, True)
    plain = await decide("r,7,5", session, "memory")
    assert plain["scores"] == [] and plain["info"]["move_check"]["verdict"] == "wrong"


def _human(session: GameSession) -> Any:
    from langchain_core.messages import HumanMessage

    from langgraph_games.graphs.minesweeper.prompts import minesweeper_prompt

    return HumanMessage(content=minesweeper_prompt(session.observe()))


async def test_the_player_forgets_between_episodes() -> None:
    model = ScriptedChatModel(responses=["r,0,0"])
    player = minesweeper_player(model, variant="memory")
    game = HandMinesweeper([(2, 2)], rows=3, cols=3)
    for _ in range(2):
        await run_episode(game, [player], options=EpisodeOptions(max_retries=0, max_steps=1))
    assert not model.calls[1][0].text.startswith("Prompt:")


def test_unknown_variants_are_refused() -> None:
    with pytest.raises(ValueError, match="baseline, examples"):
        parts_of("chain_of_thought")


@pytest.mark.parametrize("name", ["eeb.mmd", "minesweeper.mmd"])
def test_topology_matches_the_snapshot(name: str) -> None:
    import importlib.util
    from pathlib import Path

    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    here = Path(__file__).parents[1] / "golden"
    spec = importlib.util.spec_from_file_location(
        "regenerate_drawings", here / "regenerate_drawings.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    HERE = module.HERE
    drawing = module.prompt_agent_drawings(FakeListChatModel(responses=["x"]))[name]
    assert drawing == (HERE / name).read_text(encoding="utf-8"), (
        f"the graph of {name} changed; if intended, run "
        f"python {HERE / 'regenerate_drawings.py'} and review the diff"
    )


async def test_a_re_ask_lists_only_the_boards_real_moves() -> None:
    # 9x9, seed 0: revealing (4,4) opens all but five covered cells. Then a reply without
    # a triple is re-asked, and the feedback lists the moves that act on the board (in
    # the paper's r,row,col form), not step mode's 165 legal actions with invalid:answer.
    model = ScriptedChatModel(responses=["r,4,4", "No idea.", "f,0,6"])
    out = await run_episode(
        make("minesweeper"),
        [minesweeper_player(model)],
        seed=0,
        options=EpisodeOptions(max_retries=1, max_steps=2),
    )
    rejected = out["trajectory"][1]["decisions"]["0"]["attempts"][0]
    feedback = rejected["feedback"]
    assert rejected["status"] == "unparsable" and "invalid:" not in feedback
    listed = feedback.split("one of the legal moves: ")[1].removesuffix(".").split("; ")
    covered = ["0,6", "1,6", "8,0", "8,1", "8,2"]
    assert listed == [f"r,{c}" for c in covered] + [f"f,{c}" for c in covered]
    # The model is shown the same list when asked again.
    assert model.calls[2][0].text.endswith(feedback + "\nPlease answer again.")


def test_the_paper_is_cited_with_its_author() -> None:
    # "Minesweeper Agent: Exploring the Reasoning Ability of Large Language Models" has one
    # author, Shihan Wu (UESTC).
    assert (agent_graph.__doc__ or "").startswith("The Minesweeper Agent (Wu, 2024)")
    docs = (ROOT / "docs" / "evoempirbench-minesweeper.md").read_text(encoding="utf-8")
    assert "the Minesweeper Agent (Shihan Wu, 2024)" in re.sub(r"\s+", " ", docs)
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]:
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        assert "Minesweeper Agent (Li" not in text, path
