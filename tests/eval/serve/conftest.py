"""A play server on a free local port, for the serve tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from langgraph_games.eval.serve.app import PlayServer
from langgraph_games.eval.serve.matches import MatchTable
from serve_support import Client


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PlayServer]:
    """A running server writing to ``tmp_path``."""
    play = PlayServer(MatchTable(tmp_path, max_matches=3), port=0)
    play.start()
    try:
        yield play
    finally:
        play.close()


@pytest.fixture
def client(server: PlayServer) -> Client:
    """A client of :func:`server`."""
    return Client(server.url, server.token)
