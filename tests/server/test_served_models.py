"""The served graphs call only the model specs the deployment allows: no run names an endpoint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from endpoint_support import SECRET, Endpoint
from langgraph_games.models.errors import ModelSpecError
from langgraph_games.server import ALLOWED_MODELS_ENV, decide, server_models


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    """``server_models`` is built once per process: rebuild it under each test's env."""
    server_models.cache_clear()
    yield
    server_models.cache_clear()


async def test_a_run_cannot_name_an_endpoint_by_default(endpoint: Endpoint) -> None:
    for player in (f"gamebot:openai:gpt-x@{endpoint.url}", "gamebot:openai:gpt-4o-mini"):
        with pytest.raises(
            ModelSpecError, match=f"not allowed by this server.*{ALLOWED_MODELS_ENV}"
        ):
            await decide.ainvoke({"game": "tictactoe", "player": player})
    assert endpoint.requests == []


async def test_an_endpoint_the_deployment_allows_is_called_with_its_key(
    endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    allowed = f"openai:gpt-x@{endpoint.url}"
    monkeypatch.setenv(ALLOWED_MODELS_ENV, f"local, {allowed}")
    out = await decide.ainvoke({"game": "tictactoe", "player": f"gamebot:{allowed}"})
    assert out["decision"]["action"] == "(0,0)"  # the endpoint's reply
    assert {r["auth"] for r in endpoint.requests} == {f"Bearer {SECRET}"}
    with pytest.raises(ModelSpecError, match="it allows local, openai:gpt-x@"):
        await decide.ainvoke({"game": "tictactoe", "player": "gamebot:openai:gpt-y"})
