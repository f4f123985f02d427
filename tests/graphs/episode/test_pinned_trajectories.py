"""Every strategy's scripted episodes write the pinned trajectories and prompts, exactly."""

from __future__ import annotations

import json

import pytest

from pinned_trajectories import PINNED, SCENARIOS

EXPECTED = json.loads(PINNED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_trajectories_and_prompts_are_the_pinned_ones(name: str) -> None:
    played = json.loads(json.dumps(await SCENARIOS[name]()))
    expected = EXPECTED[name]
    assert len(played["trajectories"]) == len(expected["trajectories"])
    for index, (got, pinned) in enumerate(
        zip(played["trajectories"], expected["trajectories"], strict=True)
    ):
        assert got == pinned, f"{name}: episode {index} differs"
    assert played["prompts"] == expected["prompts"]
