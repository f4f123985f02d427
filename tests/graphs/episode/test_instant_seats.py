"""Instant seats' moves are played in the step before, and records stay what they were."""

from __future__ import annotations

import json

import pytest

from rule_playouts import PINNED, SCENARIOS

EXPECTED = json.loads(PINNED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_records_are_those_of_the_one_step_per_node_loop(name: str) -> None:
    played = await SCENARIOS[name]()
    expected = EXPECTED[name]
    assert len(played) == len(expected)
    for index, (got, pinned) in enumerate(zip(played, expected, strict=True)):
        assert got == pinned, f"{name}: episode {index} differs"
