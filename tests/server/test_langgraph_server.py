"""``langgraph dev`` with the repository's langgraph.json: every served graph through the API.

Episodes (with a human seat too), decisions of the default player and of every LLM
strategy, the ``gamebot`` graph and an ExpVer training run, all through ``langgraph-sdk``
against one server started for the module. The server runs in a subprocess on 127.0.0.1
with the scripted-model testing hook (``LANGGRAPH_GAMES_SCRIPTED_MODEL``), so no model is
loaded. Skipped when ``langgraph-cli[inmem]`` is not installed or the server does not come
up.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import langgraph_games
from langgraph_games.games import GameSession
from langgraph_games.server import SCRIPTED_MODEL_ENV

pytest.importorskip("langgraph_api", reason="the server test needs langgraph-cli[inmem]")
pytest.importorskip("langgraph_runtime_inmem", reason="the server test needs langgraph-cli[inmem]")
from langgraph_sdk import get_client

ROOT = Path(__file__).parents[2]
SERVED = {"episode", "decide", "gamebot", "expver"}
"""The graphs these tests run; a graph added to langgraph.json needs a test here."""
REPLIES = ["Chosen move: (1,1)", "Chosen move: (0,0)", "Chosen move: (2,2)", "Chosen move: (0,2)"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cli = Path(sys.executable).with_name("langgraph")
    if not cli.exists() and shutil.which("langgraph") is None:
        pytest.skip("the langgraph command (langgraph-cli) is not installed")
    work = tmp_path_factory.mktemp("server")
    replies = work / "replies.json"
    replies.write_text(json.dumps(REPLIES), encoding="utf-8")
    config = work / "langgraph.json"
    graphs = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))["graphs"]
    config.write_text(
        json.dumps(
            {
                "dependencies": ["."],
                "graphs": {
                    name: str(ROOT / path.removeprefix("./")) for name, path in graphs.items()
                },
            }
        ),
        encoding="utf-8",
    )
    env = dict(os.environ)
    env[SCRIPTED_MODEL_ENV] = str(replies)
    env["LANGSMITH_TRACING"] = "false"
    src = str(Path(langgraph_games.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    port = _free_port()
    command = [str(cli) if cli.exists() else "langgraph", "dev", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--no-browser", "--no-reload", "--config", str(config)]
    log = (work / "server.log").open("w")
    process = subprocess.Popen(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                text = (work / "server.log").read_text(encoding="utf-8")[-2000:]
                pytest.skip(f"langgraph dev did not start offline: {text}")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


async def test_an_episode_runs_through_the_http_api(server: str) -> None:
    client = get_client(url=server)
    thread = await client.threads.create()
    players = ["gamebot:local", "random"]
    await client.runs.wait(
        thread["thread_id"],
        "episode",
        input={"game": "tictactoe", "players": players, "seed": 1},
        raise_error=True,
    )
    state = await client.threads.get_state(thread["thread_id"])
    values: dict[str, Any] = state["values"]  # type: ignore[assignment]
    result = values["result"]
    assert result["status"] == "finished"
    actions = result["record"]["actions"]
    assert actions[0] == "(1,1)"  # the scripted model's first answer
    assert values["trajectory"][0]["actions"] == {"0": "(1,1)"}
    assert result["players"][0]["model_calls"] >= 1
    assert result["players"][1]["model_calls"] == 0


async def test_a_human_seat_interrupts_and_is_resumed_through_the_api(server: str) -> None:
    client = get_client(url=server)
    thread = await client.threads.create()
    tid = thread["thread_id"]
    await client.runs.wait(
        tid, "episode", input={"game": "tictactoe", "players": ["human", "minimax"]}
    )
    answers = ["middle", "(0,0)", "(0,1)", "(1,0)", "(1,2)", "(2,0)", "(2,1)", "(2,2)"]
    asked: list[dict[str, Any]] = []
    for _ in range(20):
        state = await client.threads.get_state(tid)
        if not state["interrupts"]:
            break
        payload = state["interrupts"][0]["value"]
        asked.append(payload)
        legal = payload["legal_moves"]
        answer = (
            answers.pop(0) if answers[0] == "middle" else next(a for a in answers if a in legal)
        )
        await client.runs.wait(tid, "episode", command={"resume": answer})
    values: dict[str, Any] = state["values"]  # type: ignore[assignment]
    assert asked[0]["kind"] == "human_move" and asked[0]["player"] == "X"
    assert asked[1]["feedback"] == "Your answer was rejected: 'middle' names no move of TicTacToe."
    result = values["result"]
    assert result["status"] == "finished"
    assert result["returns"] == [-1.0, 1.0]  # exact minimax beats this person
    assert result["record"]["actions"][0] == "(0,0)"


def test_every_graph_in_langgraph_json_is_tested_here() -> None:
    graphs = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))["graphs"]
    assert set(graphs) == SERVED


async def _decide(server: str, graph: str, state: dict[str, Any]) -> dict[str, Any]:
    """One served decision through the HTTP API: the run's ``decision`` value."""
    client = get_client(url=server)
    thread = await client.threads.create()
    await client.runs.wait(thread["thread_id"], graph, input=state, raise_error=True)
    values: dict[str, Any] = (await client.threads.get_state(thread["thread_id"]))["values"]  # type: ignore[assignment]
    decision: dict[str, Any] = values["decision"]
    return decision


async def test_decide_with_the_default_player_through_the_http_api(server: str) -> None:
    decision = await _decide(server, "decide", {"game": "connect4", "seed": 4})
    assert decision["status"] == "ok" and decision["usage"] == {}
    assert decision["action"] in GameSession("connect4", seed=4).legal_actions()


async def test_decide_with_an_llm_strategy_through_the_http_api(server: str) -> None:
    state = {"game": "tictactoe", "player": "gamebot:local", "actions": ["(0,1)"]}
    decision = await _decide(server, "decide", state)
    # The scripted model's reply (whichever of REPLIES came next) is the decision.
    [raw] = decision["raw_outputs"]
    assert raw in REPLIES and decision["status"] == "ok"
    assert decision["action"] == raw.removeprefix("Chosen move: ")
    assert decision["usage"]["calls"] == 1


async def test_the_gamebot_graph_decides_through_the_http_api(server: str) -> None:
    decision = await _decide(server, "gamebot", {"game": "tictactoe", "actions": ["(0,1)"]})
    assert decision["raw_outputs"][0] in REPLIES
    assert decision["action"] in GameSession("tictactoe", actions=["(0,1)"]).legal_actions()
    assert decision["info"]["variant"] == "gamebot"


@pytest.mark.parametrize(
    ("player", "game"),
    [
        ("smartplay:local", "bandit"),
        ("spring:local", "rock_paper_scissors"),
        ("eeb:local", "maze"),
        ("minesweeper:local", "minesweeper"),
    ],
)
async def test_every_llm_strategy_decides_through_the_http_api(
    server: str, player: str, game: str
) -> None:
    """Whatever each strategy makes of the scripted replies, the served run completes."""
    decision = await _decide(server, "decide", {"game": game, "player": player, "seed": 1})
    assert decision["raw_outputs"] and decision["usage"]["calls"] >= 1
    legal = GameSession(game, seed=1).legal_actions()
    assert decision["action"] is None or decision["action"] in legal


async def test_expver_trains_through_the_http_api(server: str) -> None:
    level = {"level": 1, "map_set": "train", "map_index": 1, "max_steps": 6}
    training = {
        "game": "maze",
        "train_levels": [{"id": "L1-train1", "options": level, "seed": 1}],
        "test_levels": [{"id": "L1-train1", "options": level, "seed": 1}],
        "options": {"rounds": 1, "levels_per_round": 1, "episode": {"max_steps": 6}},
    }
    client = get_client(url=server)
    thread = await client.threads.create()
    await client.runs.wait(thread["thread_id"], "expver", input=training, raise_error=True)
    values: dict[str, Any] = (await client.threads.get_state(thread["thread_id"]))["values"]  # type: ignore[assignment]
    assert [r["round"] for r in values["rounds"]] == [0, 1]
    assert values["rounds"][0]["decision"] == "baseline"
