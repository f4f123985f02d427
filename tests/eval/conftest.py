"""Fixtures of the evaluation tests: scripted GAMEBoT players and a headless chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cdp import Browser, ensure_chromium
from support import install_scripted_strategies


@pytest.fixture
def scripted_strategies(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted ``perfect`` and ``clumsy`` strategies, for one test."""
    install_scripted_strategies(monkeypatch)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed with apt-get if missing (skips if that is impossible)."""
    path, why = ensure_chromium()
    if path is None:
        pytest.skip(f"browser tests need chromium: {why}")
    return path


@pytest.fixture(scope="session")
def browser(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless chromium with a fresh profile for the whole session."""
    profile: Path = tmp_path_factory.mktemp("chromium-profile")
    session = Browser(chromium, profile)
    try:
        yield session
    finally:
        session.close()
