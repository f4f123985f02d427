"""SPRING on the SmartPlay games: every game plays, each episode with its own manual."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.spring.graph import (
    SPRING_QUESTIONS,
    context_per_episode,
    context_source,
    spring_context,
)
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.graphs.study.graph import GAME_QUESTIONS
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for

FINAL = SPRING_QUESTIONS["qa"]
GAMES = [
    ("bandit", {}),
    ("rock_paper_scissors", {}),
    ("rock_paper_scissors", {"variant": "different_score"}),
    ("hanoi", {}),
    ("messenger", {"level": 1}),
    ("messenger", {"level": 2}),
]


class Recorder:
    """Answers the final question with ``choice``, "ok" to the others; keeps final prompts."""

    def __init__(self, choice: str) -> None:
        self.choice = choice
        self.finals: list[list[BaseMessage]] = []

    def __call__(self, messages: Sequence[BaseMessage]) -> str:
        if messages[-1].content != FINAL:
            return "ok"
        self.finals.append(list(messages))
        return self.choice


def context_of(prompt: Sequence[BaseMessage]) -> str:
    """The context C of a prompt (its second system message, without the action list)."""
    return str(prompt[1].content).rsplit("\n\nThe actions you can take: ", 1)[0]


@pytest.mark.parametrize(("game_id", "options"), GAMES)
async def test_spring_plays_every_smartplay_game(game_id: str, options: dict[str, Any]) -> None:
    game = make(game_id, **options)
    first = game.action_list(game.initial_state(0))[0]  # type: ignore[attr-defined]
    script = Recorder(f"I choose {first}.")
    player = spring_player(ScriptedChatModel(script=script), game)
    out = await run_episode(game, [player], seed=4, options=EpisodeOptions(max_steps=2))
    steps = out["trajectory"]
    assert steps and all(s["actions"]["0"] == first for s in steps)
    assert all(s["decisions"]["0"]["status"] == "ok" for s in steps)
    manual = game.manual_text(game.initial_state(4))  # type: ignore[attr-defined]
    assert {context_of(p) for p in script.finals} == {manual}
    listed = ", ".join(game.action_list(game.initial_state(4)))  # type: ignore[attr-defined]
    assert str(script.finals[0][1].content).endswith(f"The actions you can take: {listed}.")
    assert player.describe()["context_source"] == "the game's manual of each episode"


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("rock_paper_scissors", {"variant": "different_score"}), ("messenger", {"level": 2})],
)
async def test_each_episode_is_played_with_its_own_manual(
    game_id: str, options: dict[str, Any], tmp_path: Path
) -> None:
    game = make(game_id, **options)
    manuals = [game.manual_text(game.initial_state(seed)) for seed in range(4)]  # type: ignore[attr-defined]
    assert len(set(manuals)) > 1  # the manual really depends on the episode
    script = Recorder("nothing I can name")
    spec = EvalSpec(
        game=game_id,
        options=options,
        agent="spring:fake",
        repeats=4,
        concurrency=1,
        episode=EpisodeOptions(max_steps=2, max_retries=0),
    )
    models_seen: list[Any] = []

    def fake(spec: str, **settings: Any) -> ScriptedChatModel:
        model = ScriptedChatModel(script=script)
        models_seen.append(model)
        return model

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("langgraph_games.eval.running.players.load_chat_model", fake)
        report = await run_eval(spec, tmp_path, progress=False)
    assert report.errors == 0 and report.played == 4
    used = [context_of(p) for p in script.finals]
    # Episodes run one at a time (concurrency 1), seeds 0..3, two decisions each.
    assert used == [manuals[seed] for seed in range(4) for _ in range(2)]


def test_the_action_order_is_the_released_list_not_the_sorted_one() -> None:
    game = make("rock_paper_scissors")
    assert game.action_list(game.initial_state(0)) == ("Rock", "Paper", "Scissor")
    script = Recorder("Paper or Rock, both are fine.")
    player = spring_player(ScriptedChatModel(script=script), game, variant="action_only")
    decision = player.decide(request_for(GameSession(game, seed=0)))
    assert decision.action == "Rock"  # SPRING's rule walks the list in the released order


def test_a_given_context_replaces_the_manual_in_every_episode() -> None:
    game = make("messenger", level=2)
    assert not context_per_episode(game, "My own notes.")
    assert spring_context(game, "My own notes.") == "My own notes."
    assert context_source(game, "My own notes.") == "the given context"
    assert not context_per_episode(game, None, "no_context")
    assert context_per_episode(game, None, "step_by_step")


def test_decisions_record_the_hash_of_the_context_they_used() -> None:
    game = make("messenger", level=1)
    player = spring_player(ScriptedChatModel(script=Recorder("Move North")), game)
    hashes = {
        player.decide(request_for(GameSession(game, seed=seed))).info["context_sha256"]
        for seed in range(3)
    }
    assert len(hashes) == 3
    assert player.describe()["context_sha256"] is None


STUDIED = (
    f"Question: {GAME_QUESTIONS[0]}\nAnswer:\n1. Trees give wood.\n\n"
    f"Question: {GAME_QUESTIONS[3]}\nAnswer:\n1. Do: needs a facing object.\n2. Sleep: any time."
)


def test_the_actions_variant_uses_the_studied_actions_answer() -> None:
    crafter = make("crafter")
    assert spring_context(crafter, STUDIED, "actions") == (
        f"Question: {GAME_QUESTIONS[3]}\nAnswer:\n"
        "1. Do: needs a facing object.\n2. Sleep: any time."
    )
    assert context_source(crafter, STUDIED, "actions") == (
        "the actions answer of the given studied context"
    )
    # Without a studied actions answer: the game's own action descriptions, said so.
    own = spring_context(crafter, None, "actions")
    assert own.startswith("The actions of the game and their requirements:\n1. Noop")
    assert spring_context(crafter, "Trees give wood.", "actions") == own
    assert context_source(crafter, "Trees give wood.", "actions") == (
        "the game's action descriptions (the given context has no studied actions answer)"
    )
    # The full variant keeps the whole studied context.
    assert spring_context(crafter, STUDIED, "full") == STUDIED
