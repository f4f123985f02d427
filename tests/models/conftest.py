"""Fixtures of the model-layer tests."""

from __future__ import annotations

import pytest

import langgraph_games.models.retry as retry_module

NOW = 1_750_000_000.0
"""The retry path's clock in tests that use :func:`slept`."""


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Replace the retry path's sleeps and clock: record waits, never wait."""
    waits: list[float] = []

    async def asleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(retry_module, "_sleep", waits.append)
    monkeypatch.setattr(retry_module, "_asleep", asleep)
    monkeypatch.setattr(retry_module, "_clock", lambda: NOW)
    return waits
