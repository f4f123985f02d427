"""Instant seats' moves are played in the step before, and records stay what they were."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_games.eval.running.jobs import _Counted
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions, create_episode_graph, run_episode
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.records import SessionRecord
from langgraph_games.graphs.human.player import HumanPlayer
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
    Decision,
    DecisionRequest,
    MinimaxPlayer,
    Player,
    RandomPlayer,
    make_player,
    player_entries,
)
from langgraph_games.players.base import Exchange
from pinned_trajectories import normalized
from rule_playouts import PINNED, SCENARIOS, Stubborn

EXPECTED = json.loads(PINNED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_records_are_those_of_the_one_step_per_node_loop(name: str) -> None:
    played = await SCENARIOS[name]()
    expected = EXPECTED[name]
    assert len(played) == len(expected)
    for index, (got, pinned) in enumerate(zip(played, expected, strict=True)):
        assert got == pinned, f"{name}: episode {index} differs"


async def _nodes(
    game_id: str, players: Sequence[Player], seed: int = 0, **options: Any
) -> tuple[list[int], dict[str, Any]]:
    """The moves played by each ``step`` node of an episode, and its result."""
    record: SessionRecord = {"game": game_id, "options": {}, "seed": seed, "actions": []}
    context = EpisodeContext(players=players, options=EpisodeOptions(**options))
    per_node: list[int] = []
    result: dict[str, Any] = {}
    async for update in create_episode_graph().astream(
        {"record": record}, context=context, stream_mode="updates"
    ):
        if "step" in update:
            steps = update["step"].get("trajectory") or []
            per_node.append(sum(1 for step in steps if step["actions"]))
            if update["step"].get("result") is not None:  # the step that ended the episode
                assert not result
                result = dict(update["step"]["result"])
        assert "finish" not in update  # only for an episode over before its first step
    return per_node, result


class FirstLegal(Player):
    """Plays the first legal move and answers in text; records the memory it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, tuple[str, ...], Exchange | None]] = []
        self.name = "first"

    async def adecide(self, request: DecisionRequest) -> Decision:
        memory = request.previous_observations, request.previous_exchange
        self.seen.append((request.state.turn, request.player, *memory))
        action = request.legal_actions[0]
        return Decision(action=action, raw_outputs=[f"turn {request.state.turn}: {action}"])

    def describe(self) -> dict[str, Any]:
        return {"kind": "first"}


class InstantFirstLegal(FirstLegal):
    """:class:`FirstLegal`, declared instant."""

    instant = True


async def test_two_rule_players_play_a_whole_episode_in_one_step() -> None:
    per_node, result = await _nodes("connect4", [MinimaxPlayer(depth=2), RandomPlayer(seed=2)])
    assert per_node == [result["steps"]] and result["steps"] > 6


@pytest.mark.parametrize("rule_first", [False, True])
async def test_a_model_against_a_rule_player_costs_one_step_per_model_call(
    rule_first: bool,
) -> None:
    model = FirstLegal()  # stands for a model: not instant
    seats: list[Player] = [RandomPlayer(seed=1), model] if rule_first else [model, RandomPlayer()]
    per_node, result = await _nodes("connect4", seats, seed=3)
    calls = len(model.seen)
    assert len(per_node) == calls + rule_first
    # each node: the model's move and the rule player's reply (the last may end the game)
    assert sum(per_node) == result["steps"]
    assert set(per_node[rule_first:-1]) == {2}


async def test_the_step_limit_and_the_end_of_the_game_stop_a_run_of_instant_moves() -> None:
    per_node, result = await _nodes("tictactoe", [RandomPlayer(), RandomPlayer()], max_steps=4)
    assert per_node == [4] and result["status"] == "truncated"
    per_node, result = await _nodes("tictactoe", [MinimaxPlayer(), MinimaxPlayer()])
    assert per_node == [9] and result["status"] == "finished"


async def test_an_instant_seat_that_forfeits_ends_the_run_and_its_step_records_it() -> None:
    seats: list[Player] = [RandomPlayer(seed=9), Stubborn(["(1,1)"])]
    per_node, result = await _nodes("tictactoe", seats, seed=9, fallback="forfeit")
    assert result["status"] == "forfeit" and result["forfeit"] == 1
    assert len(per_node) == 1 and per_node[0] == result["steps"] >= 2
    out = await run_episode("tictactoe", seats, seed=9, options=EpisodeOptions(fallback="forfeit"))
    last = out["trajectory"][-1]
    assert last["events"] == [{"type": "forfeit", "player": 1}] and last["actions"] == {}
    assert [s["step"] for s in out["trajectory"]] == list(range(result["steps"] + 1))


async def test_an_instant_seat_sees_the_steps_played_before_it_in_the_same_node() -> None:
    """Same requests and records as the same player asked one step per node."""
    stepwise, instant = FirstLegal(), InstantFirstLegal()
    one = await run_episode("connect4", [stepwise, stepwise], seed=2)
    per_node, _ = await _nodes("connect4", [instant, instant], seed=2)
    assert per_node == [one["result"]["steps"]]
    instant.seen.clear()
    other = await run_episode("connect4", [instant, instant], seed=2)
    assert instant.seen == stepwise.seen
    assert any(len(observations) > 2 for _, _, observations, _ in instant.seen)
    assert normalized(other) == normalized(one)


def test_builtin_search_players_are_instant_and_nothing_else_is() -> None:
    for entry in player_entries():
        game = make(entry.games[0] if entry.games else "tictactoe")
        model = ScriptedChatModel(script=lambda messages: "?") if entry.needs_model else None
        player = make_player(entry.name, game, model=model)
        assert player.instant is (model is None and not player.interactive), entry.name
    assert FirstLegal().instant is False  # a subclass keeps the default
    # the executor's progress wrapper keeps what it wraps
    assert _Counted(RandomPlayer(), print).instant and not _Counted(FirstLegal(), print).instant
    person = _Counted(HumanPlayer(), print)
    assert person.interactive and not person.instant


async def test_a_run_killed_mid_node_replays_the_node_on_resume() -> None:
    reference = await run_episode("connect4", [MinimaxPlayer(depth=2), RandomPlayer()], seed=4)

    class CrashOnce(MinimaxPlayer):
        crashed = False

        def decide(self, request: DecisionRequest) -> Decision:
            if request.state.turn == 6 and not CrashOnce.crashed:
                CrashOnce.crashed = True
                raise RuntimeError("power cut")
            return super().decide(request)

    saver = InMemorySaver()
    seats = [CrashOnce(depth=2), RandomPlayer()]
    with pytest.raises(RuntimeError, match="power cut"):
        await run_episode("connect4", seats, seed=4, checkpointer=saver, thread_id="t")
    saved = await create_episode_graph(checkpointer=saver).aget_state(
        {"configurable": {"thread_id": "t"}}
    )
    assert saved.values["record"]["actions"] == []  # one node held every move so far
    out = await run_episode("connect4", seats, seed=4, checkpointer=saver, thread_id="t")
    assert normalized(out) == normalized(reference)
