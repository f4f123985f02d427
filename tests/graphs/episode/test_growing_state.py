"""The episode's trajectory and record: checkpointed as each step's writes, grown in place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Overwrite

from langgraph_games.graphs import EpisodeOptions, create_episode_graph, run_episode
from langgraph_games.graphs.episode.channels import GrowingList, GrowingRecord
from langgraph_games.graphs.episode.memory import ObservationsSoFar
from langgraph_games.graphs.episode.options import extend_record, extend_steps
from langgraph_games.players import PongTracker
from langgraph_games.players.base import Decision, DecisionRequest
from pinned_trajectories import normalized
from process_support import dies_with_parent


class Asked(PongTracker):
    """A Pong tracker asked as a model is (a node, and a checkpoint, per step)."""

    instant = False

    def __init__(self, crash_at: int | None = None) -> None:
        super().__init__()
        self.crash_at = crash_at

    def decide(self, request: DecisionRequest) -> Decision:
        if request.state.turn == self.crash_at:
            self.crash_at = None
            raise RuntimeError("power cut")
        return super().decide(request)


def _saved_bytes(saver: InMemorySaver) -> int:
    blobs = sum(len(blob) for _, blob in saver.blobs.values())
    writes = sum(len(v[2][1]) for w in saver.writes.values() for v in w.values())
    saved = sum(
        len(c[1]) + len(m[1])
        for spaces in saver.storage.values()
        for ids in spaces.values()
        for c, m, _ in ids.values()
    )
    return blobs + writes + saved


async def _pong(steps: int, saver: Any, seats: list[Asked] | None = None) -> Any:
    return await run_episode(
        "pong",
        seats or [Asked(), Asked()],
        options=EpisodeOptions(max_steps=steps),
        checkpointer=saver,
        thread_id="long",
        max_steps=1000,
    )


async def test_checkpoint_bytes_per_step_do_not_grow_with_the_episode() -> None:
    per_step = {}
    for steps in (20, 200):
        saver = InMemorySaver()
        out = await _pong(steps, saver)
        assert len(out["trajectory"]) == steps
        per_step[steps] = _saved_bytes(saver) / steps
    # the whole trajectory in every checkpoint made this about 10x
    assert per_step[200] < 1.3 * per_step[20], per_step


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_a_long_episode_killed_mid_way_resumes_to_the_same_record(
    kind: str, tmp_path: Any
) -> None:
    reference = await _pong(300, None)
    db = str(tmp_path / "episodes.sqlite")
    memory = InMemorySaver()
    seats = [Asked(crash_at=170), Asked()]
    async with AsyncSqliteSaver.from_conn_string(db) as sqlite:
        saver = memory if kind == "memory" else sqlite
        with pytest.raises(RuntimeError, match="power cut"):
            await _pong(300, saver, seats)
        saved = await create_episode_graph(checkpointer=saver).aget_state(
            {"configurable": {"thread_id": "long"}}
        )
        assert len(saved.values["record"]["actions"]) == 170
        assert len(saved.values["trajectory"]) == 170
    async with AsyncSqliteSaver.from_conn_string(db) as sqlite:  # as a new process would
        saver = memory if kind == "memory" else sqlite
        out = await _pong(300, saver, seats)
        assert out["result"]["record"] == reference["result"]["record"]
        assert normalized(out) == normalized(reference)
        again = await _pong(300, saver, seats)  # finished: read back whole
    assert normalized(again) == normalized(reference)


def test_copies_share_the_list_and_keep_their_own_view() -> None:
    channel = GrowingList(extend_steps).from_checkpoint(None)
    channel.update([[1, 2]])
    shown = channel.get()
    fresh = channel.copy()  # as the router's fresh read does
    three = [3]
    fresh.update([three])
    assert fresh.get() == [1, 2, 3] and channel.get() == [1, 2]
    channel.update([three])  # the same write: the copy's items are taken over
    assert channel.get() is shown == [1, 2, 3]
    other = channel.copy()
    channel.update([[4]])
    other.update([[5]])  # something else: a list of its own
    assert channel.get() == [1, 2, 3, 4] and other.get() == [1, 2, 3, 5]
    other.update([Overwrite([9])])
    assert other.get() == [9] and channel.get() == [1, 2, 3, 4]


def test_a_record_grows_by_its_moves_and_is_replaced_by_a_whole_record() -> None:
    start = {"game": "tictactoe", "options": {}, "seed": 1, "actions": ["(0,0)"]}
    channel = GrowingRecord(extend_record).from_checkpoint(None)
    assert channel.get() == {}
    channel.update([start, {"actions": ["(1,1)"]}])
    assert channel.get() == extend_record({}, [start, {"actions": ["(1,1)"]}])
    assert start["actions"] == ["(0,0)"]  # the input is not grown in place
    restored = channel.from_checkpoint({**start, "actions": ["(2,2)"]})  # an older blob
    assert restored.get()["actions"] == ["(2,2)"]
    channel.update([{**start, "seed": 2}])
    assert channel.get() == {**start, "seed": 2}


def test_observations_so_far_read_as_a_tuple_of_them() -> None:
    seen = ["a", "b", "c"]
    view = ObservationsSoFar(seen, 2)
    seen.append("d")
    assert view == ("a", "b") == tuple(view) and view != ("a", "b", "c") and view != "ab"
    assert (view[0], view[-1], view[::-1], len(view)) == ("a", "b", ("b", "a"), 2)
    with pytest.raises(IndexError):
        view[2]
    assert hash(view) == hash(("a", "b")) and repr(view) == "('a', 'b')"


def _child(script: str, env: dict[str, str] | None = None) -> str:
    """Run ``script`` in a fresh interpreter that dies with this one; its last line of output."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        preexec_fn=dies_with_parent(),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


_PLAIN_REDUCERS = """
import asyncio, json
import langgraph.checkpoint.serde.types as serde_types
import langgraph.graph
from langgraph.checkpoint.memory import InMemorySaver
del serde_types._DeltaSnapshot  # a LangGraph release without one of the names they use
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.episode import channels
from langgraph_games.players import PongTracker

assert not channels.GROWING
state = asyncio.run(run_episode(
    "pong", [PongTracker(), PongTracker()], options=EpisodeOptions(max_steps=40),
    checkpointer=InMemorySaver(), thread_id="plain", max_steps=1000,
))
print(json.dumps([state["result"]["record"], len(state["trajectory"])]))
"""


async def test_without_delta_channels_plain_reducers_give_the_same_episode() -> None:
    record, steps = json.loads(_child(_PLAIN_REDUCERS))
    state = await run_episode(
        "pong",
        [PongTracker(), PongTracker()],
        options=EpisodeOptions(max_steps=40),
        checkpointer=InMemorySaver(),
        thread_id="growing",
        max_steps=1000,
    )
    assert record == state["result"]["record"] and steps == len(state["trajectory"])


_ACROSS_SNAPSHOTS = """
import asyncio, json
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph_games.graphs import create_episode_graph
from pinned_trajectories import normalized
from process_support import dies_with_parent
from test_growing_state import Asked, _pong

async def main():
    out = {"reference": normalized(await _pong(120, None))}
    memory = InMemorySaver()
    async with AsyncSqliteSaver.from_conn_string(%r) as sqlite:
        for kind, saver in (("memory", memory), ("sqlite", sqlite)):
            seats = [Asked(crash_at=70), Asked()]
            try:
                await _pong(120, saver, seats)
            except RuntimeError:
                pass
            saved = await create_episode_graph(checkpointer=saver).aget_state(
                {"configurable": {"thread_id": "long"}}
            )
            out[kind + "_saved"] = len(saved.values["trajectory"])
            out[kind] = normalized(await _pong(120, saver, seats))
    out["snapshots"] = sum(
        1 for key, (kind, _) in memory.blobs.items() if key[2] == "trajectory" and kind != "empty"
    )
    print(json.dumps(out, default=str))

asyncio.run(main())
"""


async def test_a_resume_across_whole_value_snapshots_rebuilds_the_same_episode(
    tmp_path: Any,
) -> None:
    # The channels save their whole value every so many steps when asked to (an
    # environment setting, read on import): every 25 here, so the run killed at step 70
    # resumes from a snapshot and the writes after it.
    here = Path(__file__).parent
    env = {
        **os.environ,
        "LANGGRAPH_GAMES_SNAPSHOT_STEPS": "25",
        "PYTHONPATH": os.pathsep.join([str(here), str(here.parents[1]), *sys.path]),
    }
    script = _ACROSS_SNAPSHOTS % str(tmp_path / "episodes.sqlite")
    out = json.loads(_child(script, env))
    assert out["snapshots"] >= 4  # whole values were saved, at 25 and 50, and on resume
    assert out["memory_saved"] == out["sqlite_saved"] == 70
    assert out["memory"] == out["reference"]
    assert out["sqlite"] == out["reference"]


_SUPERSTEP_BOUND = """
import asyncio, json
from typing import Annotated, TypedDict
from langgraph.channels.delta import DeltaChannel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph_games.graphs.episode import channels
from test_growing_state import _pong

def whole_values(saver, name):
    return sum(1 for key, (kind, _) in saver.blobs.items() if key[2] == name and kind != "empty")

def extend(items, updates):
    return items + [item for update in updates for item in update]

class Count(TypedDict):
    items: Annotated[list, DeltaChannel(extend, snapshot_frequency=10**9)]
    n: int

def add(state):
    return {"items": [state["n"]], "n": state["n"] + 1}

builder = StateGraph(Count)
builder.add_node("add", add)
builder.add_edge(START, "add")
builder.add_conditional_edges("add", lambda s: END if s["n"] >= 120 else "add")

async def main():
    episode, other = InMemorySaver(), InMemorySaver()
    state = await _pong(120, episode)
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": 1000}
    counted = await builder.compile(checkpointer=other).ainvoke({"items": [], "n": 0}, config)
    print(json.dumps({
        "rule": channels.SNAPSHOT_STEPS is None,
        "steps": len(state["trajectory"]),
        "episode": whole_values(episode, "trajectory") + whole_values(episode, "record"),
        "other": whole_values(other, "items"),
        "counted": counted["items"] == list(range(120)),
    }))

asyncio.run(main())
"""


async def test_the_channels_skip_langgraphs_superstep_bound_and_other_channels_keep_it() -> None:
    # LangGraph saves every delta channel's whole value each 25 supersteps here; the
    # episode's channels save none (flat bytes per step), a plain DeltaChannel of another
    # graph in the same process still saves its own.
    here = Path(__file__).parent
    env = {
        **os.environ,
        "LANGGRAPH_DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT": "25",
        "PYTHONPATH": os.pathsep.join([str(here), str(here.parents[1]), *sys.path]),
    }
    env.pop("LANGGRAPH_GAMES_SNAPSHOT_STEPS", None)
    out = json.loads(_child(_SUPERSTEP_BOUND, env))
    assert out["rule"] and out["steps"] == 120 and out["counted"]
    assert out["episode"] == 0
    assert out["other"] >= 4  # 120 supersteps, a whole value every 25


@pytest.mark.parametrize("given", ["0", "-3", "ten", "2.5"])
def test_a_bad_snapshot_setting_is_refused_by_name(given: str) -> None:
    from langgraph_games.graphs.episode.channels import _snapshot_steps

    with pytest.raises(ValueError, match="LANGGRAPH_GAMES_SNAPSHOT_STEPS must be a whole number"):
        _snapshot_steps(given)
    assert _snapshot_steps("") is None and _snapshot_steps(" 40 ") == 40
