"""The play server's JSON API: whole games through HTTP, refused moves, the results record."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.eval.running.records import load_results
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.serve.app import PlayServer, check_host
from langgraph_games.eval.serve.matches import MatchError, MatchTable
from langgraph_games.eval.serve.opponents import Opponents
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.players import registry
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer
from langgraph_games.players.budget import SERVED_MAX_NODES
from langgraph_games.players.entry import PlayerEntry
from process_support import DEADLINE_S
from serve_support import Client
from support import install_scripted_strategies
from table_support import rows_by_first


def _play_first_legal(client: Client, match: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    played = []
    while not match["finished"]:
        assert match["your_turn"] and match["legal_moves"]
        move = match["legal_moves"][0]
        played.append(move)
        status, match = client("POST", f"/api/matches/{match['match_id']}/move", {"move": move})
        assert status == 200, match
    return match, played


def test_a_whole_tictactoe_game_against_minimax_is_played_recorded_and_replayed(
    client: Client, server: PlayServer, tmp_path: Path
) -> None:
    status, catalog = client("GET", "/api/catalog")
    assert status == 200
    assert "tictactoe" in [g["id"] for g in catalog["games"]]
    assert "bandit" not in [g["id"] for g in catalog["games"]]  # one seat: nobody to play
    names = [p["name"] for p in catalog["players"]]
    assert {"minimax", "random", "gamebot"} <= set(names) and "human" not in names

    status, match = client(
        "POST", "/api/matches", {"game": "tictactoe", "opponent": "minimax", "human_seat": 0}
    )
    assert status == 201, match
    assert match["seats"] == ["X (human)", "O (minimax)"]
    assert match["to_move"] == ["X"] and match["agent"] is None
    assert [cell["move"] for cell in match["grid"]["cells"][1]] == ["(1,0)", "(1,1)", "(1,2)"]

    final, played = _play_first_legal(client, match)
    # The first legal move every time loses to minimax, which never loses: O wins, and the
    # record holds exactly the moves clicked, the agent's in between.
    record_path = tmp_path / "serve.jsonl"
    [record] = ResultsFile(record_path).read().records
    session = GameSession.from_dict(record["result"]["record"])
    assert final["winners"] == [1] and final["status"] == "finished"
    assert final["outcome"] == f"O (minimax) wins (finished, {len(session.actions)} moves)"
    assert [session.actions[i][0] for i in range(0, len(session.actions), 2)] == played
    assert final["agent"]["action"] == session.actions[-1][1]
    assert session.returns == (-1.0, 1.0)

    loaded = load_results([record_path], kinds=("match",))
    assert loaded.notes == []
    [read] = loaded.of_kind("match")
    assert read["match_id"] == final["match_id"] and read["seats"] == ["human", "minimax"]
    assert read["result"]["returns"] == [-1.0, 1.0] and read["human_seat"] == 0
    assert len(read["trajectory"]) == len(session.actions)

    status, page = client("GET", final["replay"])
    assert status == 200 and "O (minimax) wins" in page and "tictactoe-v1 seed 0" in page
    assert main(["report", str(record_path), "--out", str(tmp_path / "report"), "--no-plots"]) == 0
    report = (tmp_path / "report" / "report.md").read_text()
    assert rows_by_first(report)["human"][:2] == ["1", "0-0-1"]


def test_a_move_that_names_no_legal_move_is_refused_with_the_reason_and_the_legal_moves(
    client: Client,
) -> None:
    _, match = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "random"})
    url = f"/api/matches/{match['match_id']}/move"
    assert client("POST", url, {"move": "(1,1)"})[0] == 200
    _, now = client("GET", f"/api/matches/{match['match_id']}")
    for move, reason in [
        ("(1,1)", "(1,1) is not a legal move now"),
        ("(5,5)", "(5,5) is not a legal move now"),
        ("middle", "'middle' names no move of TicTacToe"),
        ("", "the answer was empty"),
        (7, "expected a move as text, got int"),
    ]:
        status, body = client("POST", url, {"move": move})
        assert status == 400, move
        assert body["error"].startswith(reason), body
        assert body["legal_moves"] == now["legal_moves"]
    status, body = client("POST", url, {"turn": 1})
    assert status == 400 and "move" in body["error"]
    _, after = client("GET", f"/api/matches/{match['match_id']}")
    assert after["turn"] == now["turn"] and after["board"] == now["board"]  # nothing played


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"game": "chess", "opponent": "minimax"}, 400, "chess"),
        ({"game": "bandit", "opponent": "random"}, 400, "two-player game"),
        ({"game": "tictactoe", "opponent": "nobody"}, 400, "nobody"),
        ({"game": "tictactoe", "opponent": "human"}, 403, "not offered"),
        ({"game": "tictactoe", "opponent": "minimax", "human_seat": 2}, 400, "human_seat"),
        ({"game": "tictactoe", "opponent": "minimax", "seed": "x"}, 400, "seed"),
        ({"opponent": "minimax"}, 400, "'game'"),
    ],
)
def test_bad_new_match_requests_are_refused_with_what_was_wrong(
    client: Client, body: dict[str, Any], status: int, says: str
) -> None:
    got, reply = client("POST", "/api/matches", body)
    assert got == status and says in reply["error"], reply


def test_unknown_matches_and_paths_are_404_and_finished_matches_take_no_move(
    client: Client,
) -> None:
    assert client("GET", "/api/matches/nope")[0] == 404
    assert client("POST", "/api/matches/nope/move", {"move": "(0,0)"})[0] == 404
    assert client("GET", "/replays/none.html")[0] == 404
    assert client("GET", "/etc/passwd")[0] == 404
    _, match = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "minimax"})
    final, _ = _play_first_legal(client, match)
    status, body = client("POST", f"/api/matches/{final['match_id']}/move", {"move": "(0,0)"})
    assert status == 409 and "over" in body["error"]


def test_the_agent_moves_first_when_the_person_takes_the_second_seat_and_connect4_clicks_columns(
    client: Client,
) -> None:
    _, match = client(
        "POST", "/api/matches", {"game": "connect4", "opponent": "random", "human_seat": 1}
    )
    assert match["seats"] == ["X (random)", "O (human)"]
    assert match["turn"] == 1 and match["agent"]["step"] == 0
    grid = match["grid"]
    assert grid["rows"] == 6 and grid["cols"] == 7
    bottom = grid["cells"][-1]
    assert [cell["row"] for cell in bottom] == [0] * 7  # row 0 drawn at the bottom
    played = match["agent"]["action"]
    column = int(played.strip("()").split(",")[1])
    assert bottom[column]["mark"] != "" and grid["cells"][0][column]["move"] == f"(1,{column})"


def test_an_llm_opponent_shows_its_reasoning_and_scored_intermediate_answers(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scripted_strategies(monkeypatch)
    for spec, right in (("perfect", True), ("sloppy", False)):
        _, match = client(
            "POST", "/api/matches", {"game": "tictactoe", "opponent": spec, "human_seat": 1}
        )
        agent = match["agent"]
        assert agent["status"] == "ok" and agent["action"] == "(0,0)"
        assert "[Intermediate Thinking Results 1:" in agent["attempts"][0]["text"]
        assert "**Chosen Move**: (0,0)" in agent["attempts"][0]["text"]
        truth = make("tictactoe").ground_truth(make("tictactoe").initial_state(0), 0)
        assert [a["index"] for a in agent["answers"]] == [1, 2]
        for answer in agent["answers"]:
            assert answer["correct"] is right
            assert sorted(answer["truth"]) == sorted(truth[answer["index"]])
            assert ("(9,9)" in answer["answer"]) is not right


def test_the_table_is_capped_and_idle_matches_expire(tmp_path: Path) -> None:
    table = MatchTable(tmp_path, max_matches=2, idle_s=60)
    server = PlayServer(table, port=0)
    server.start()
    try:
        client = Client(server.url, server.token)
        ids = [
            client("POST", "/api/matches", {"game": "tictactoe", "opponent": "random"})[1][
                "match_id"
            ]
            for _ in range(2)
        ]
        status, body = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "random"})
        assert status == 503 and "2 matches are open" in body["error"]
        table.matches[ids[0]].touched = time.monotonic() - 61
        status, _ = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "random"})
        assert status == 201
        assert client("GET", f"/api/matches/{ids[0]}")[0] == 404
        assert client("GET", f"/api/matches/{ids[1]}")[0] == 200
    finally:
        server.close()


def test_only_local_hosts_unless_remote_is_allowed() -> None:
    check_host("127.0.0.1", allow_remote=False)
    check_host("0.0.0.0", allow_remote=True)
    with pytest.raises(ValueError, match="--allow-remote"):
        check_host("0.0.0.0", allow_remote=False)
    assert issubclass(MatchError, ValueError)


def test_the_serve_command_refuses_a_remote_host_and_a_bad_port(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--out", str(tmp_path)]) == 2
    assert "pass --allow-remote" in capsys.readouterr().err
    assert main(["serve", "--port", "70000", "--out", str(tmp_path)]) == 2
    assert "--port must be 0 (any free port) to 65535" in capsys.readouterr().err


def _ctrl_c_at_its_default() -> None:
    """In the server: Ctrl-C as a terminal's (a shell's background job starts with it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_the_serve_command_prints_its_url_serves_the_page_and_stops_on_ctrl_c(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "langgraph_games.cli", "serve", "--port", "0"]
    command += ["--opponents", "minimax", "random"]
    process = subprocess.Popen(
        [*command, "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=_ctrl_c_at_its_default,
    )
    try:
        # Each step waits for what the server printed or answered, never for a time: on a
        # loaded machine its start-up and its exit each take several seconds.
        assert process.stdout is not None
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        status, page = Client(url[0])("GET", "/")
        assert status == 200 and '<script src="/assets/serve.js">' in page
        assert process.stdout.readline() == "Opponents offered: minimax, random\n"
        assert Client(url[0])("GET", "/api/catalog")[1]["opponents"] == ["minimax", "random"]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=DEADLINE_S)
        assert process.returncode == 0, err
        assert out.strip() == "stopped" and "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


class _Held(SearchPlayer):
    """A search player that thinks until the test lets it go."""

    name = "held"

    def __init__(self, release: threading.Event, started: threading.Event) -> None:
        self.release, self.started = release, started

    def describe(self) -> dict[str, Any]:
        return {"kind": "held"}

    def decide(self, request: DecisionRequest) -> Decision:
        self.started.set()
        assert self.release.wait(60)
        return Decision(action=request.legal_actions[0], status=ParseStatus.OK)


def test_a_thinking_search_player_does_not_hold_other_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, started = threading.Event(), threading.Event()
    players = registry.PLAYERS.copy()
    players.register(PlayerEntry(name="held", build=lambda _: _Held(release, started),
                                 description="held"))  # fmt: skip
    monkeypatch.setattr(registry, "PLAYERS", players)
    server = PlayServer(MatchTable(tmp_path, opponents=Opponents(["held", "random"])), port=0)
    server.start()
    try:
        client = Client(server.url, server.token)
        slow: dict[str, Any] = {}

        def start_held() -> None:  # the agent moves first and thinks
            slow["reply"] = client(
                "POST", "/api/matches", {"game": "tictactoe", "opponent": "held", "human_seat": 1}
            )

        waiting = threading.Thread(target=start_held)
        waiting.start()
        assert started.wait(60)
        # While it thinks, another match starts and plays on the same server.
        status, other = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "random"})
        assert status == 201 and other["your_turn"]
        assert client("POST", f"/api/matches/{other['match_id']}/move", {"move": "(1,1)"})[0] == 200
        release.set()
        waiting.join(60)
        assert slow["reply"][0] == 201 and slow["reply"][1]["agent"]["action"] == "(0,0)"
    finally:
        release.set()
        server.close()


def test_served_search_players_are_bounded(tmp_path: Path) -> None:
    table = MatchTable(tmp_path, opponents=Opponents(["minimax:depth=30"]))
    server = PlayServer(table, port=0)
    server.start()
    try:
        client = Client(server.url, server.token)
        status, match = client(
            "POST", "/api/matches", {"game": "othello", "opponent": "minimax:depth=30",
                                     "human_seat": 1},
        )  # fmt: skip
        assert status == 201, match
        [record] = [m for m in table.matches.values()]
        info = record.run["trajectory"][0]["decisions"]["0"]["attempts"][0]["info"]
        assert info["nodes"] <= SERVED_MAX_NODES + 64 and info["searched_depth"] < 30
    finally:
        server.close()
