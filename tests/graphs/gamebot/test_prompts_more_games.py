"""The GAMEBoT prompts of Pong, Surround, Texas Hold'em and Negotiation v2."""

from __future__ import annotations

import importlib
import re

import pytest

from langgraph_games.games import make
from langgraph_games.games._answer import AnswerStatus

GAMES = ["pong", "surround", "texas_holdem", "negotiation"]


@pytest.mark.parametrize("game_id", GAMES)
def test_prompt_has_three_parts_and_every_answer_tag(game_id: str) -> None:
    prompt = importlib.import_module(f"langgraph_games.graphs.gamebot.prompts.{game_id}")
    for part in ("RULES", "INPUT", "OUTPUT"):
        assert isinstance(getattr(prompt, part), str) and len(getattr(prompt, part)) > 200
    for sub in make(game_id).subproblems:
        assert f"[Intermediate Thinking Results {sub.index}:" in prompt.OUTPUT
    assert prompt.FINAL_LABEL in prompt.OUTPUT


@pytest.mark.parametrize("game_id", GAMES)
def test_prompt_answer_format_is_read_by_the_games_rule(game_id: str) -> None:
    prompt = importlib.import_module(f"langgraph_games.graphs.gamebot.prompts.{game_id}")
    game = make(game_id)
    state = game.initial_state(0)
    if game_id == "negotiation":  # the first round has nothing to agree to
        state = game.apply(state, {0: game.legal_actions(state, 0)[0]})[0]
    player = game.current_players(state)[0]
    reading = game.read_action(state, player, prompt.ANSWER_FORMAT)
    if "<" in prompt.ANSWER_FORMAT:  # it lists the choices: echoing it chooses none of them
        assert reading.status is AnswerStatus.AMBIGUOUS and len(reading.named) >= 2
    else:  # "Proposal: [P1: ...] or Proposal: [Agree]": the last label's action
        assert reading.legal and reading.action == "Agree"


def test_texas_prompt_lists_the_scored_table() -> None:
    from langgraph_games.graphs.gamebot.prompts import texas_holdem

    assert "43s:35.7%" in texas_holdem.OUTPUT and "AA:84.9%" in texas_holdem.OUTPUT
    entries = re.findall(r"\b[2-9TJQKA]{2}[so]?:\d+\.\d%", texas_holdem.OUTPUT)
    assert len(entries) == 116
