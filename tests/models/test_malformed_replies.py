"""A 200 answer that is not a chat completion is retried like a 5xx, through a real client.

``ChatOpenAI`` talks HTTP to a fake endpoint that first answers with a malformed body
(an HTML page, invalid UTF-8 or JSON, JSON without ``choices``...), then a good one.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import HumanMessage
from langchain_openai import ChatOpenAI

from endpoint_support import Endpoint
from langgraph_games.models.errors import ModelCallError
from langgraph_games.models.retry import ainvoke_with_retry, invoke_with_retry, is_malformed_reply

MALFORMED = [
    ("html", "text/html", b"<html><body>502 Bad gateway</body></html>"),
    ("bad utf-8", "application/json", b"\xff\xfe{bad"),
    ("not json", "application/json", b"{truncated"),
    ("empty", "application/json", b""),
    ("no choices", "application/json", json.dumps({"id": "x", "object": "chat.completion",
                                                   "created": 0, "model": "m"}).encode()),
    ("null choices", "application/json", b'{"choices": null}'),
    ("empty choices", "application/json", b'{"choices": []}'),
    ("a list", "application/json", b"[1, 2]"),
]  # fmt: skip


def client(endpoint: Endpoint) -> ChatOpenAI:
    return ChatOpenAI(model="gpt-x", api_key="k", base_url=endpoint.url, max_retries=0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "kind", "body"), MALFORMED, ids=[m[0] for m in MALFORMED])
async def test_a_malformed_answer_is_retried_and_the_next_good_one_is_the_reply(
    endpoint: Endpoint, slept: list[float], name: str, kind: str, body: bytes
) -> None:
    endpoint.bodies = [(200, kind, body)]
    reply = await ainvoke_with_retry(client(endpoint), [HumanMessage("hi")], attempts=3)
    assert reply.content == "(0,0)" and len(slept) == 1
    endpoint.bodies = [(200, kind, body)]
    assert invoke_with_retry(client(endpoint), [HumanMessage("hi")]).content == "(0,0)"


async def test_an_endpoint_that_keeps_answering_badly_fails_the_call_after_its_attempts(
    endpoint: Endpoint, slept: list[float]
) -> None:
    endpoint.bodies = [(200, "text/html", b"<html>maintenance</html>")] * 3
    with pytest.raises(ModelCallError) as caught:
        await ainvoke_with_retry(client(endpoint), [HumanMessage("hi")], attempts=3)
    assert len(caught.value.waits) == 2 and len(endpoint.requests) == 3


def test_errors_of_the_callers_own_making_are_not_retried() -> None:
    assert not is_malformed_reply(ValueError("Unexpected keyword argument"))
    assert not is_malformed_reply(IndexError("list index out of range"))
    assert not is_malformed_reply(TypeError("unsupported operand"))
