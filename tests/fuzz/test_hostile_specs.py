"""Fuzzing every parser of what is typed on the command line with seeded hostile specs.

About 5,500 inputs here (a few seconds); ``LANGGRAPH_GAMES_FUZZ_SPECS=100000`` (or
``python benchmarks/fuzz_inputs.py``) runs more. Every input must give a result or a
documented error (see :func:`fuzz.specs.documented`); no model is loaded, no network called.
"""

from __future__ import annotations

import os
import zlib

import pytest

from fuzz.specs import TARGETS, Target, check_input, documented, engines, spec_inputs
from langgraph_games.models.errors import ModelSpecError
from langgraph_games.models.factory import load_chat_model

TOTAL = int(os.environ.get("LANGGRAPH_GAMES_FUZZ_SPECS", "5500"))


def test_the_targets_share_the_total() -> None:
    assert sum(t.count(TOTAL) for t in TARGETS) >= TOTAL - len(TARGETS)


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Endpoint specs build a client object only: without keys, nothing could be sent."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_every_spec_ends_in_a_result_or_a_documented_error(target: Target) -> None:
    games = engines()
    seed = zlib.crc32(target.name.encode())
    crashes = []
    count = target.count(TOTAL)
    for number, text in enumerate(spec_inputs(target, seed, count)):
        found = check_input(target, text, games, number)
        if found:
            crashes.append(found)
    assert crashes == [], f"{len(crashes)} of {count}: " + "\n".join(crashes[:10])


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_the_inputs_reach_both_results_and_errors(target: Target) -> None:
    """A fuzz whose every input fails (or passes) would test one branch only."""
    games = engines()
    passed = failed = 0
    for number, text in enumerate(spec_inputs(target, 7, 300)):
        args = (text, games[number % len(games)]) if target.needs_game else (text,)
        try:
            target.call(*args)
        except Exception as exc:  # noqa: BLE001 - counted, and checked to be documented
            assert documented(exc), (text, exc)
            failed += 1
        else:
            passed += 1
    assert passed > 0 and failed > 0, (passed, failed)


@pytest.mark.parametrize("spec", ["openai:gpt@http://[::1", "openai:gpt@http://127.0.0.1:9/v1\x00"])
def test_an_endpoint_url_the_client_refuses_is_a_model_spec_error(spec: str) -> None:
    with pytest.raises(ModelSpecError, match=r"cannot be built: .*Accepted forms"):
        load_chat_model(spec)
