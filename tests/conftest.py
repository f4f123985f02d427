"""Shared fixtures: the registry's game ids, readable as test ids."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from endpoint_support import SECRET, Endpoint
from langgraph_games.games import list_games
from langgraph_games.models.shared_pause import PAUSES_ENV

# The CLI's --workers defaults to one worker process per core: tests that run arena and eval
# through it play in-process unless they test workers (which pass --workers themselves).
os.environ.setdefault("LANGGRAPH_GAMES_WORKERS", "1")

# An outside package's sources, imported only by the tests that install it.
collect_ignore_glob = ["data/plugin_game/*"]

GAME_IDS = [info.id for info in list_games()]


@pytest.fixture(autouse=True)
def _pauses_per_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts without shared Retry-After pauses (a CLI run in the test process
    shares them for the rest of the process otherwise; tests of sharing set their own)."""
    monkeypatch.delenv(PAUSES_ENV, raising=False)


@pytest.fixture(params=GAME_IDS)
def game_id(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[Endpoint]:
    """A recording endpoint, and the user's key in the environment."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    fake = Endpoint()
    try:
        yield fake
    finally:
        fake.close()
