"""Constrained answers: the GBNF grammar, the JSON-schema request and the round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import Field

from langgraph_games.games import GameSession
from langgraph_games.graphs import create_gamebot_agent, gamebot_player
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.models import LocalChatModel, ScriptedChatModel
from langgraph_games.models.constrain import (
    answer_grammar,
    answer_line,
    answer_response_format,
    can_constrain,
    constrained_model,
    gbnf_literal,
    reasoning_budget,
    structured_reply_text,
)
from langgraph_games.players import request_for
from langgraph_games.players.registry import make_player


class SchemaEndpoint(ScriptedChatModel):
    """A scripted stand-in for an OpenAI-compatible endpoint: it records ``model_kwargs``."""

    model_kwargs: dict[str, Any] = Field(default_factory=dict)
    sent: list[dict[str, Any]] = Field(default_factory=list)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.sent.append(dict(self.model_kwargs))
        return await super()._agenerate(messages, stop, run_manager, **kwargs)


def test_gbnf_literals_escape_quotes_backslashes_and_controls() -> None:
    assert gbnf_literal('a"b') == '"a\\"b"'
    assert gbnf_literal("a\\b") == '"a\\\\b"'
    assert gbnf_literal("x\ny\tz") == '"x\\ny\\tz"'
    assert gbnf_literal("\x01") == '"\\x01"'


def test_the_grammar_lists_each_legal_move_once_after_the_label() -> None:
    grammar = answer_grammar("Chosen Move", ["(0,0)", 'say "hi"', "(0,0)"], max_reasoning_chars=50)
    lines = grammar.splitlines()
    assert lines[0] == 'root ::= reasoning "\\n" "Chosen Move: " move'
    assert lines[1] == "reasoning ::= [^\\x00]{0,50}"
    assert lines[2] == 'move ::= "(0,0)" | "say \\"hi\\""'
    assert answer_grammar("Proposal:", ["1 2 3"], max_reasoning_chars=0) == (
        'root ::= "Proposal: " move\nmove ::= "1 2 3"'
    )


@pytest.mark.parametrize("legal", [[], ["a\nb"], [""]])
def test_bad_legal_moves_are_refused(legal: list[str]) -> None:
    with pytest.raises(ValueError, match="legal move"):
        answer_grammar("Chosen Move", legal)
    with pytest.raises(ValueError, match="legal move"):
        answer_response_format(legal)


def test_the_reasoning_budget_leaves_room_for_the_longest_answer() -> None:
    legal = ["(0,0)", "(10,10)"]
    assert reasoning_budget(96, "Chosen Move", legal) == 96 - len("Chosen Move: (10,10)") - 8
    assert reasoning_budget(10, "Chosen Move", legal) == 0


def test_the_response_format_is_a_strict_schema_with_an_enum_of_legal_moves() -> None:
    form = answer_response_format(["(0,0)", "(1,1)"])
    assert form["type"] == "json_schema" and form["json_schema"]["strict"] is True
    schema = form["json_schema"]["schema"]
    assert schema["properties"]["move"]["enum"] == ["(0,0)", "(1,1)"]
    assert schema["properties"]["reasoning"]["type"] == "string"
    assert schema["required"] == ["reasoning", "move"]
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        (
            '{"reasoning": "take the centre", "move": "(1,1)"}',
            "take the centre\nChosen Move: (1,1)",
        ),
        ('{"reasoning": "", "move": "(1,1)"}', "Chosen Move: (1,1)"),
        ('{"reasoning": "x"}', None),
        ("[1, 2]", None),
        ("Chosen Move: (1,1)", None),
    ],
)
def test_structured_replies_turn_into_the_text_form(reply: str, text: str | None) -> None:
    assert structured_reply_text(reply, "Chosen Move") == text


def test_constrained_models_are_copies_that_keep_the_original_free() -> None:
    local = LocalChatModel(max_tokens=64)
    held = constrained_model(local, "Chosen Move", ["(0,0)", "(2,2)"])
    assert isinstance(held, LocalChatModel) and local.grammar is None
    assert held.grammar == answer_grammar(
        "Chosen Move",
        ["(0,0)", "(2,2)"],
        max_reasoning_chars=64 - len(answer_line("Chosen Move", "(0,0)")) - 8,
    )
    endpoint = SchemaEndpoint(responses=["x"], model_kwargs={"top_p": 0.5})
    copy = constrained_model(endpoint, "Chosen Move", ["(0,0)"])
    assert endpoint.model_kwargs == {"top_p": 0.5}
    assert copy.model_kwargs["top_p"] == 0.5  # type: ignore[attr-defined]
    assert copy.model_kwargs["response_format"] == answer_response_format(["(0,0)"])  # type: ignore[attr-defined]
    assert can_constrain(local) and can_constrain(endpoint)
    scripted: BaseChatModel = ScriptedChatModel(responses=["x"])
    assert not can_constrain(scripted)
    with pytest.raises(ValueError, match="OpenAI-compatible"):
        constrained_model(scripted, "Chosen Move", ["(0,0)"])


async def test_gamebot_sends_the_legal_moves_as_an_enum_and_reads_the_json_reply() -> None:
    session = GameSession("tictactoe", actions=["(1,1)"])
    legal = list(session.legal_actions())
    reply = json.dumps({"reasoning": "[Intermediate Thinking Results 1: None]", "move": "(0,0)"})
    endpoint = SchemaEndpoint(responses=[reply])
    agent = create_gamebot_agent(endpoint, "tictactoe", constrain=True)
    out = await agent.ainvoke(request_to_input(request_for(session)))
    decision = out["decision"]
    assert decision.action == "(0,0)" and decision.status.value == "ok"
    assert decision.raw_outputs == ["[Intermediate Thinking Results 1: None]\nChosen Move: (0,0)"]
    assert decision.intermediate == {1: "None"}
    assert decision.info["constrained"] == "json_schema"
    (sent,) = endpoint.sent
    assert sent["response_format"]["json_schema"]["schema"]["properties"]["move"]["enum"] == legal
    assert "(1,1)" not in legal and endpoint.model_kwargs == {}


async def test_gamebot_without_constrain_sends_no_schema() -> None:
    session = GameSession("tictactoe")
    endpoint = SchemaEndpoint(responses=["Chosen Move: (0,0)"])
    out = await create_gamebot_agent(endpoint, "tictactoe").ainvoke(
        request_to_input(request_for(session))
    )
    assert out["decision"].action == "(0,0)" and "constrained" not in out["decision"].info
    assert endpoint.sent == [{}]


def test_constrain_with_a_model_that_cannot_be_held_is_refused_when_built() -> None:
    with pytest.raises(ValueError, match="constrained answers need"):
        gamebot_player(ScriptedChatModel(responses=["x"]), "tictactoe", constrain=True)


def test_the_registry_setting_is_off_by_default_and_recorded_when_on() -> None:
    game = GameSession("tictactoe").game
    plain = make_player("gamebot", game, model=LocalChatModel())
    held = make_player("gamebot:constrain=true", game, model=LocalChatModel())
    assert "constrain" not in plain.describe()
    assert held.describe()["constrain"] == "grammar"
