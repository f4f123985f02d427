"""Strategy memory comes with each request: concurrent episodes, resume, the reading rule."""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from langgraph_games.games import make
from langgraph_games.graphs import (
    EpisodeOptions,
    minesweeper_player,
    run_episode,
    smartplay_player,
    spring_player,
)
from langgraph_games.graphs.episode.memory import SeatMemories, seat_memory
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import Decision, DecisionRequest, Exchange, Player
from pinned_trajectories import by_prompt, fingerprint, normalized

Factory = Callable[[ScriptedChatModel], Player]
STRATEGIES: dict[str, tuple[Factory, str, EpisodeOptions, list[str]]] = {
    "spring": (
        lambda model: spring_player(model, make("crafter"), variant="action_only"),
        "crafter",
        EpisodeOptions(max_steps=5),
        ["Move West", "Do", "Noop", "Move North", "no idea"],
    ),
    "smartplay": (
        lambda model: smartplay_player(model, "bandit", default_action=None),
        "bandit",
        EpisodeOptions(max_retries=1, max_steps=6),
        ["Pull slot machine 1.", "Pull slot machine 3.", "Think.", "hm"],
    ),
    "minesweeper": (
        lambda model: minesweeper_player(model, variant="memory"),
        "minesweeper",
        EpisodeOptions(max_steps=6),
        ["r,0,0", "r,4,4", "f,2,2", "nope", "r,8,8", "r,2,7"],
    ),
}


def _model(choices: list[str], latency: float = 0.0) -> ScriptedChatModel:
    return ScriptedChatModel(script=by_prompt(choices), latency_s=latency)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
async def test_one_player_serves_two_interleaved_episodes_with_their_own_memory(
    strategy: str,
) -> None:
    factory, game, options, choices = STRATEGIES[strategy]
    alone: dict[int, tuple[Any, list[str]]] = {}
    for seed in (1, 2):  # each episode with a player of its own
        model = _model(choices)
        out = await run_episode(game, [factory(model)], seed=seed, options=options)
        alone[seed] = normalized(out["trajectory"]), [fingerprint(c) for c in model.calls]
    shared_model = _model(choices, latency=0.002)
    shared = factory(shared_model)
    both = await asyncio.gather(
        *(run_episode(game, [shared], seed=seed, options=options) for seed in (1, 2))
    )
    for seed, out in zip((1, 2), both, strict=True):
        assert normalized(out["trajectory"]) == alone[seed][0]
    prompts = [fingerprint(c) for c in shared_model.calls]
    assert sorted(prompts) == sorted(alone[1][1] + alone[2][1])  # every prompt the same
    owner = {p: seed for seed in (1, 2) for p in alone[seed][1]}
    switches = sum(owner[a] != owner[b] for a, b in itertools.pairwise(prompts))
    assert switches >= 3  # the two episodes really were interleaved


class Crash(RuntimeError):
    pass


class Recorder(Player):
    """Records the memory of every request it passes on; crashes once at ``crash_at``."""

    def __init__(self, inner: Player, crash_at: int | None = None) -> None:
        self.inner, self.crash_at, self.name = inner, crash_at, inner.name
        self.seen: list[tuple[int, int, tuple[str, ...], Exchange | None]] = []

    async def adecide(self, request: DecisionRequest) -> Decision:
        if request.state.turn == self.crash_at:
            self.crash_at = None
            raise Crash("power cut")
        memory = request.previous_observations, request.previous_exchange
        self.seen.append((request.state.turn, request.attempt, *memory))
        return await self.inner.adecide(request)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()


@pytest.mark.parametrize("strategy", ["minesweeper", "smartplay"])
async def test_a_resumed_episode_gets_the_memory_of_an_uninterrupted_one(
    strategy: str, tmp_path: Any
) -> None:
    factory, game, options, choices = STRATEGIES[strategy]
    model = _model(choices)
    reference = Recorder(factory(model))
    whole = await run_episode(game, [reference], seed=1, options=options)
    prompts = [fingerprint(c) for c in model.calls]
    assert any(exchange is not None for *_, exchange in reference.seen)
    crash_at = 3
    db = str(tmp_path / "episodes.sqlite")
    async with AsyncSqliteSaver.from_conn_string(db) as saver:
        with pytest.raises(Crash):
            await run_episode(
                game,
                [Recorder(factory(_model(choices)), crash_at=crash_at)],
                seed=1,
                options=options,
                checkpointer=saver,
                thread_id="t",
            )
    # A new process: a new player and model, the same database and thread.
    resumed_model = _model(choices)
    resumed = Recorder(factory(resumed_model))
    async with AsyncSqliteSaver.from_conn_string(db) as saver:
        out = await run_episode(
            game, [resumed], seed=1, options=options, checkpointer=saver, thread_id="t"
        )
    later = [entry for entry in reference.seen if entry[0] >= crash_at]
    assert resumed.seen[0][0] == crash_at and resumed.seen == later
    assert resumed.seen[0][2] and resumed.seen[0][3] is not None  # memory survived
    assert normalized(out["trajectory"]) == normalized(whole["trajectory"])
    resumed_prompts = [fingerprint(c) for c in resumed_model.calls]
    assert resumed_prompts == prompts[len(prompts) - len(resumed_prompts) :]


def _random_trajectory(rng: random.Random, steps: int) -> list[dict[str, Any]]:
    trajectory = []
    for index in range(steps):
        seats = [s for s in ("0", "1") if rng.random() < 0.7] or ["0"]
        decisions = {}
        for seat in seats:
            attempts = []
            for number in range(rng.randint(1, 3)):
                outputs = [f"{seat}.{index}.{number}.{k}" for k in range(rng.randint(0, 2))]
                attempt: dict[str, Any] = {"raw_outputs": outputs}
                if rng.random() < 0.5:
                    attempt["feedback"] = f"rejected {seat}.{index}.{number}"
                attempts.append(attempt)
            decisions[seat] = {"attempts": attempts}
        trajectory.append(
            {
                "step": index,
                "observations": {seat: f"view {seat}.{index}" for seat in seats},
                "decisions": decisions,
            }
        )
    return trajectory


def test_the_incremental_reading_agrees_with_the_rule() -> None:
    rng = random.Random(13)
    memories = SeatMemories()
    for episode in range(20):
        trajectory = _random_trajectory(rng, rng.randint(0, 12))
        key = f"episode-{episode % 3}"  # keys come back with other trajectories
        for end in range(len(trajectory) + 1):
            prefix = trajectory[:end]
            if rng.random() < 0.2:  # read back from a checkpoint: other objects
                prefix = copy.deepcopy(prefix)
            for seat in (0, 1):
                assert memories.get(key, prefix, seat) == seat_memory(prefix, seat)


def test_the_rule_on_a_known_trajectory() -> None:
    steps = [
        {"observations": {"0": "a"}, "decisions": {"0": {"attempts": [{"raw_outputs": ["x"]}]}}},
        {"observations": {"1": "b"}, "decisions": {"1": {"attempts": [{"raw_outputs": []}]}}},
        {
            "observations": {"0": "c"},
            "decisions": {
                "0": {
                    "attempts": [
                        {"raw_outputs": ["y"], "feedback": "no"},
                        {"raw_outputs": ["think", "z"]},
                    ]
                }
            },
        },
    ]
    zero, one = seat_memory(steps, 0), seat_memory(steps, 1)
    assert zero.observations == ("a", "c") and zero.exchange == Exchange("c", "z", "no")
    assert one.observations == ("b",) and one.exchange == Exchange("b", "", None)
    assert seat_memory([], 0).exchange is None
