"""The episode loop: retries, fallbacks, counters, simultaneous moves, checkpoint resume."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions, create_episode_graph, gamebot_player, run_episode
from langgraph_games.graphs.episode.records import first_answers
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
    Decision,
    DecisionRequest,
    MinimaxPlayer,
    ParseStatus,
    Player,
    RandomPlayer,
)
from support import Pennies, oracle


class SlowPlayer(Player):
    """Waits, then answers a fixed action; records when it was asked."""

    def __init__(self, action: str, delay: float) -> None:
        self.action, self.delay, self.asked = action, delay, []

    async def adecide(self, request: DecisionRequest) -> Decision:
        self.asked.append(time.perf_counter())
        await asyncio.sleep(self.delay)
        return Decision(action=self.action)

    def describe(self) -> dict[str, Any]:
        return {"kind": "slow"}


class ScriptedPlayer(Player):
    """Answers from a list; records the feedback it was given."""

    def __init__(self, answers: list[str | None]) -> None:
        self.answers, self.feedback, self.calls = list(answers), [], 0

    async def adecide(self, request: DecisionRequest) -> Decision:
        self.feedback.append(request.feedback)
        answer = self.answers[min(self.calls, len(self.answers) - 1)]
        self.calls += 1
        return Decision(
            action=answer,
            raw_outputs=[str(answer)],
            usage={"calls": 1, "input_tokens": 10, "output_tokens": 2},
        )

    def describe(self) -> dict[str, Any]:
        return {"kind": "scripted"}


async def test_search_players_play_to_the_end() -> None:
    out = await run_episode("tictactoe", [MinimaxPlayer(), MinimaxPlayer(seed=1)], seed=0)
    result = out["result"]
    assert result["status"] == "finished" and result["returns"] == [0.0, 0.0]
    assert len(out["trajectory"]) == result["steps"] == 9
    assert GameSession.from_dict(result["record"]).done


async def test_simultaneous_players_are_asked_concurrently() -> None:
    even, odd = SlowPlayer("heads", 0.2), SlowPlayer("heads", 0.2)
    start = time.perf_counter()
    out = await run_episode(Pennies(), [even, odd])
    elapsed = time.perf_counter() - start
    assert out["result"]["returns"] == [3.0, -3.0]
    assert elapsed < 3 * 0.2 * 1.6  # three rounds of ~0.2 s, not 0.4 s each
    assert all(abs(a - b) < 0.1 for a, b in zip(even.asked, odd.asked, strict=True))
    assert out["trajectory"][0]["actions"] == {"0": "heads", "1": "heads"}


async def test_illegal_then_legal_answer_is_retried_with_feedback() -> None:
    x = ScriptedPlayer(["(1,1)", "(1,1)", "(0,0)"])  # second move repeats an occupied cell
    out = await run_episode(
        "tictactoe", [x, MinimaxPlayer()], options=EpisodeOptions(max_retries=2, max_steps=3)
    )
    second = out["trajectory"][2]["decisions"]["0"]
    assert [a["status"] for a in second["attempts"]] == ["illegal", "ok"]
    assert "Illegal action '(1,1)'" in x.feedback[2] and "(0,0)" in x.feedback[2]
    counters = out["result"]["players"][0]
    assert counters["invalid_answers"] == 1 and counters["retries"] == 1
    assert counters["fallbacks"] == 0 and counters["first_try_valid"] == 1
    assert out["result"]["status"] == "truncated"


async def test_garbage_answers_fall_back_and_are_counted() -> None:
    silent = ScriptedPlayer([None])
    out = await run_episode(
        "connect4", [silent, RandomPlayer()], seed=3, options=EpisodeOptions(max_retries=1)
    )
    result = out["result"]
    mine = [s["decisions"]["0"] for s in out["trajectory"] if "0" in s["decisions"]]
    assert all(d["status"] == "fallback" and d["fallback"] == "game" for d in mine)
    assert all(len(d["attempts"]) == 2 for d in mine)
    assert result["players"][0]["fallbacks"] == len(mine)
    assert result["players"][0]["invalid_answers"] == 2 * len(mine)
    assert "no move I could read" in silent.feedback[1]
    assert result["status"] == "finished"


async def test_forfeit_fallback_ends_the_game() -> None:
    out = await run_episode(
        "tictactoe",
        [ScriptedPlayer([None]), RandomPlayer()],
        options=EpisodeOptions(max_retries=0, fallback="forfeit"),
    )
    result = out["result"]
    assert result["status"] == "forfeit" and result["forfeit"] == 0
    assert result["returns"] == [-1.0, 1.0] and result["winners"] == [1]
    assert out["trajectory"][-1]["events"] == [{"type": "forfeit", "player": 0}]
    assert result["players"][0]["fallbacks"] == 1


async def test_gamebot_oracle_scores_one_and_random_fallbacks_are_exact() -> None:
    model = ScriptedChatModel(script=oracle("right"))
    out = await run_episode(
        "tictactoe", [gamebot_player(model, "tictactoe"), RandomPlayer()], seed=2
    )
    decisions = [step["decisions"]["0"] for step in out["trajectory"] if "0" in step["decisions"]]
    scores = [s for d in decisions for s in first_answers(d)[1]]
    assert scores and all(s["value"] == 1.0 for s in scores)
    seat = out["result"]["players"][0]
    assert seat["model_calls"] == len(scores) // 2
    # The result sums them per subproblem: every answer right, none re-asked.
    answers = len(decisions)
    assert {k: (v["count"], v["correct"]) for k, v in seat["subproblems"]["first"].items()} == {
        "1": (answers, answers),
        "2": (answers, answers),
    }
    assert seat["subproblems"]["retried"] == {}
    assert out["result"]["players"][1]["subproblems"] == {"first": {}, "retried": {}}


class Crash(RuntimeError):
    pass


class CrashOnce(Player):
    """Plays like minimax but crashes the run at a given turn, the first time only."""

    def __init__(self, at_turn: int) -> None:
        self.at_turn, self.crashed, self.inner = at_turn, False, MinimaxPlayer()

    async def adecide(self, request: DecisionRequest) -> Decision:
        if request.state.turn == self.at_turn and not self.crashed:
            self.crashed = True
            raise Crash("power cut")
        return self.inner.decide(request)

    def describe(self) -> dict[str, Any]:
        return {"kind": "crash-once"}


async def test_interrupted_episode_resumes_from_the_sqlite_checkpoint(tmp_path) -> None:  # type: ignore[no-untyped-def]
    reference = await run_episode("connect4", [MinimaxPlayer(), RandomPlayer(seed=4)], seed=4)
    db = str(tmp_path / "episodes.sqlite")
    players = [CrashOnce(at_turn=6), RandomPlayer(seed=4)]
    async with AsyncSqliteSaver.from_conn_string(db) as saver:
        with pytest.raises(Crash):
            await run_episode("connect4", players, seed=4, checkpointer=saver, thread_id="m1")
        saved = await create_episode_graph(checkpointer=saver).aget_state(
            {"configurable": {"thread_id": "m1"}}
        )
        assert len(saved.values["record"]["actions"]) == 6
    # A new process: new graph, same database and thread.
    async with AsyncSqliteSaver.from_conn_string(db) as saver:
        out = await run_episode("connect4", players, seed=4, checkpointer=saver, thread_id="m1")
    assert out["result"]["record"] == reference["result"]["record"]
    assert [s["step"] for s in out["trajectory"]] == list(range(len(reference["trajectory"])))
    async with AsyncSqliteSaver.from_conn_string(db) as saver:  # finished: returned as is
        again = await run_episode("connect4", players, seed=4, checkpointer=saver, thread_id="m1")
    assert again["result"] == out["result"]


async def test_wrong_number_of_players_is_rejected() -> None:
    with pytest.raises(ValueError, match="tictactoe has 2 seats; got 1"):
        await run_episode("tictactoe", [RandomPlayer()])


def test_statuses_in_decisions_are_parse_statuses() -> None:
    assert {s.value for s in ParseStatus} >= {"ok", "unparsable", "illegal", "fallback"}


class TruthRecorder(Player):
    """Plays the first legal move and records the truths it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, ...]] = []

    async def adecide(self, request: DecisionRequest) -> Decision:
        self.seen.append(request.truths)
        return Decision(action=request.legal_actions[0])

    def describe(self) -> dict[str, Any]:
        return {"kind": "truth-recorder"}


async def test_seats_read_the_games_truths_from_the_graphs_store() -> None:
    from langgraph.store.memory import InMemoryStore

    from langgraph_games.memory import Candidate, TruthWeaver

    store = InMemoryStore()
    TruthWeaver(store, "tictactoe", mode="append").insert_many(
        [
            Candidate(id="c1", text="Take the centre first.", round=1),
            Candidate(id="c2", text="Block two in a row.", round=1),
        ]
    )
    learner, other = TruthRecorder(), TruthRecorder()
    await run_episode(
        "tictactoe",
        [learner, other],
        store=store,
        truth_seats=[0],
        options=EpisodeOptions(max_steps=4),
    )
    assert set(learner.seen) == {("Take the centre first.", "Block two in a row.")}
    assert set(other.seen) == {()}
    given = TruthRecorder()
    await run_episode(
        "tictactoe",
        [given, TruthRecorder()],
        store=store,
        truths={0: ["Only this."]},
        truth_limit=1,
        options=EpisodeOptions(max_steps=2),
    )
    assert set(given.seen) == {("Only this.",)}


async def test_an_async_only_store_gives_truths_read_once_per_episode() -> None:
    from langgraph_games.memory import Candidate, TruthWeaver
    from memory_fakes import AsyncOnlyStore

    store = AsyncOnlyStore()
    TruthWeaver(store.inner, "tictactoe", mode="append").insert_many(
        [Candidate(id="c1", text="Take the centre first.", round=1)]
    )
    learner, other = TruthRecorder(), TruthRecorder()
    await run_episode(
        "tictactoe", [learner, other], store=store, options=EpisodeOptions(max_steps=4)
    )
    assert set(learner.seen) == set(other.seen) == {("Take the centre first.",)}
    assert len(learner.seen) == 2 and store.searches == 1  # both seats, one read
