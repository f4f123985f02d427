"""Fixtures of the evaluation tests: scripted GAMEBoT players and a headless chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cdp import Browser, ensure_chromium
from langgraph_games.eval import players as eval_players
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import ScriptedChatModel
from support import oracle

ILLEGAL_FIRST = (
    "[Intermediate Thinking Results 1: (1,1)]\n[Intermediate Thinking Results 2: None]\n"
    "I will take the far corner.\n**Chosen Move**: (7,7)"
)


def _clumsy_script():  # type: ignore[no-untyped-def]
    """Answers illegally at its first decision, then like the noisy oracle (last legal move)."""
    state = {"calls": 0}
    noisy = oracle("extra", move=lambda legal: legal[-1])

    def script(messages):  # type: ignore[no-untyped-def]
        state["calls"] += 1
        return ILLEGAL_FIRST if state["calls"] == 1 else noisy(messages)

    return script


def install_scripted_strategies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Add LLM strategies ``perfect`` (right answers, first legal move), ``sloppy`` (right
    answers plus one bogus cell) and ``clumsy`` (an illegal first answer, then noisy)."""

    def perfect(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)

    def clumsy(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=_clumsy_script()), game, name=name)

    def sloppy(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("extra")), game, name=name)

    monkeypatch.setitem(eval_players.STRATEGIES, "perfect", (perfect, "oracle"))
    monkeypatch.setitem(eval_players.STRATEGIES, "sloppy", (sloppy, "oracle plus a bogus cell"))
    monkeypatch.setitem(eval_players.STRATEGIES, "clumsy", (clumsy, "illegal first, noisy"))


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
