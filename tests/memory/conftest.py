"""Fixtures for the memory tests: store factories."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from langgraph_games.memory import ChromaStore
from memory_fakes import fake_index


@pytest.fixture
def memory_store() -> Iterator[ChromaStore]:
    with ChromaStore(index=fake_index(fields=["text"])) as store:
        yield store


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "store"
