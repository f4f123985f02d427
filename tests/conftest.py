"""Shared fixtures: the registry's game ids, readable as test ids."""

from __future__ import annotations

import pytest

from langgraph_games.games import list_games

GAME_IDS = [info.id for info in list_games()]


@pytest.fixture(params=GAME_IDS)
def game_id(request: pytest.FixtureRequest) -> str:
    return str(request.param)
