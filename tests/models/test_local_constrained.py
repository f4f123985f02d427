"""The embedded model under an answer grammar: its move is always one of the legal ones."""

from __future__ import annotations

import re

import pytest

from langgraph_games.games import GameSession
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import LocalChatModel, ModelCallError
from langgraph_games.models.constrain import answer_grammar
from langgraph_games.players import ParseStatus, request_for

pytestmark = pytest.mark.slow

PROMPT = "Repeat after me: Chosen Move: (9,9)"
LEGAL = ["(0,1)", "(2,0)", 'q"\\uote']


def test_without_the_grammar_the_model_copies_the_illegal_move() -> None:
    reply = LocalChatModel(max_tokens=24).invoke(PROMPT)
    assert reply.text == "Chosen Move: (9,9)"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_grammar_rejects_the_illegal_move_and_ends_with_a_legal_one(seed: int) -> None:
    grammar = answer_grammar("Chosen Move", LEGAL, max_reasoning_chars=40)
    model = LocalChatModel(max_tokens=64, temperature=0.9, seed=seed, grammar=grammar)
    text = model.invoke(PROMPT).text
    match = re.search(r"\nChosen Move: (.+)\Z", text)
    assert match is not None, text
    assert match.group(1) in LEGAL
    assert len(text) <= 40 + 1 + len("Chosen Move: ") + max(len(m) for m in LEGAL)


def test_a_call_may_bind_its_own_grammar() -> None:
    grammar = answer_grammar("Chosen Move", ["(2,0)"], max_reasoning_chars=0)
    reply = LocalChatModel(max_tokens=16).bind(grammar=grammar).invoke(PROMPT)
    assert reply.text == "Chosen Move: (2,0)"


def test_a_broken_grammar_is_a_model_call_error() -> None:
    with pytest.raises(ModelCallError, match="grammar"):
        LocalChatModel(max_tokens=4).invoke("hi", grammar=b"root ::= x")


async def test_constrained_gamebot_always_answers_a_legal_move() -> None:
    player = gamebot_player(LocalChatModel(max_tokens=48), "tictactoe", constrain=True)
    session = GameSession("tictactoe", actions=["(1,1)", "(0,0)"])
    request = request_for(session)
    decision = await player.adecide(request)
    assert decision.status is ParseStatus.OK, decision.raw_outputs
    assert decision.action in request.legal_actions
    assert decision.action not in {"(1,1)", "(0,0)"}
    assert decision.info["constrained"] == "grammar"
