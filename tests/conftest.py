"""Shared fixtures: the registry's game ids, readable as test ids."""

from __future__ import annotations

import os

import pytest

from langgraph_games.games import list_games

# The CLI's --workers defaults to one worker process per core: tests that run arena and eval
# through it play in-process unless they test workers (which pass --workers themselves).
os.environ.setdefault("LANGGRAPH_GAMES_WORKERS", "1")

GAME_IDS = [info.id for info in list_games()]


@pytest.fixture(params=GAME_IDS)
def game_id(request: pytest.FixtureRequest) -> str:
    return str(request.param)
