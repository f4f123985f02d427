"""The human player: interrupts, answers read by the game's reader, resume through run_episode."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.types import Command

from langgraph_games.games import make
from langgraph_games.graphs import run_episode
from langgraph_games.graphs.human import HUMAN_REQUEST_KIND, HumanPlayer, read_human_move
from langgraph_games.players import Decision, DecisionRequest, MinimaxPlayer, Player, make_player
from support import Pennies


class FirstLegal(Player):
    """Plays the first legal move, as the scripted person below does."""

    async def adecide(self, request: DecisionRequest) -> Decision:
        return Decision(action=request.legal_actions[0])

    def describe(self) -> dict[str, Any]:
        return {"kind": "first_legal"}


class Counting(Player):
    """Always plays ``tails`` and counts how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    async def adecide(self, request: DecisionRequest) -> Decision:
        self.calls += 1
        return Decision(action="tails")

    def describe(self) -> dict[str, Any]:
        return {"kind": "counting"}


def _moves(trajectory: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [step["actions"] for step in trajectory]


async def test_scripted_human_plays_tictactoe_against_minimax_through_interrupts() -> None:
    """Answers given as resume values play the same game as a player making those moves."""
    players = [HumanPlayer(), MinimaxPlayer()]
    run = await run_episode("tictactoe", players, seed=3)
    payloads: list[dict[str, Any]] = []
    typos = iter(["(9,9)", "the middle one", "(0,0) or (1,1)"])
    while run["result"] is None:
        payload = run["interrupt"]["value"]
        payloads.append(payload)
        typo = next(typos, None) if payload["feedback"] is None else None
        answer = typo if typo is not None else payload["legal_moves"][0]
        run = await run_episode(
            "tictactoe",
            players,
            seed=3,
            resume=answer,
            checkpointer=run["checkpointer"],
            thread_id=run["thread_id"],
        )
    reference = await run_episode("tictactoe", [FirstLegal(), MinimaxPlayer()], seed=3)
    assert _moves(run["trajectory"]) == _moves(reference["trajectory"])
    assert run["result"]["record"] == reference["result"]["record"]
    assert run["result"]["returns"] == reference["result"]["returns"] == [-1.0, 1.0]
    first = payloads[0]
    assert first["kind"] == HUMAN_REQUEST_KIND
    assert (first["game"], first["seat"], first["player"]) == ("tictactoe-v1", 0, "X")
    assert first["legal_moves"][0] == "(0,0)" and len(first["legal_moves"]) == 9
    assert "(0,0)" in first["prompt"] and first["board"]
    feedback = [p["feedback"] for p in payloads if p["feedback"]]
    assert feedback == [
        "Your answer was rejected: (9,9) is not a legal move now.",
        "Your answer was rejected: 'the middle one' names no move of TicTacToe.",
        "Your answer was rejected: '(0,0) or (1,1)' names several moves ((0,0), (1,1)); give one.",
    ]
    human_steps = [step["decisions"]["0"] for step in run["trajectory"][::2]]
    assert all(len(decision["attempts"]) == 1 for decision in human_steps)
    rejected = [
        r["answer"] for decision in human_steps for r in decision["attempts"][0]["info"]["rejected"]
    ]
    assert rejected == ["(9,9)", "the middle one", "(0,0) or (1,1)"]
    counters = run["result"]["players"][0]
    assert counters["invalid_answers"] == 0 and counters["fallbacks"] == 0


async def test_other_seats_are_asked_once_per_move_after_the_person() -> None:
    """In a simultaneous game the other seat's call is neither made early nor repeated."""
    other = Counting()
    players = [HumanPlayer(), other]
    run = await run_episode(Pennies(), players, seed=1)
    interrupts = 0
    while run["result"] is None:
        interrupts += 1
        rejections = 1 if interrupts > 2 else 0
        assert other.calls == interrupts - 1 - rejections
        answer = "sideways" if interrupts == 2 else "heads"
        run = await run_episode(
            Pennies(),
            players,
            seed=1,
            resume=Command(resume=answer),
            checkpointer=run["checkpointer"],
            thread_id=run["thread_id"],
        )
    assert interrupts == 4  # three rounds, one answer rejected
    assert other.calls == 3
    assert _moves(run["trajectory"]) == [{"0": "heads", "1": "tails"}] * 3


async def test_resume_needs_the_checkpointer_and_a_pending_interrupt() -> None:
    players = [HumanPlayer(), MinimaxPlayer()]
    with pytest.raises(ValueError, match="checkpointer and thread_id"):
        await run_episode("tictactoe", players, resume="(1,1)")
    run = await run_episode("tictactoe", players, thread_id="t")
    with pytest.raises(ValueError, match="no pending interrupt"):
        await run_episode(
            "tictactoe", players, resume="(1,1)", checkpointer=run["checkpointer"], thread_id="u"
        )


def test_read_human_move_uses_the_games_reader() -> None:
    game = make("tictactoe")
    state, _ = game.apply(game.initial_state(0), {0: "(1,1)"})
    assert read_human_move(game, state, 1, "( 0 , 2 )") == ("(0,2)", None)
    assert read_human_move(game, state, 1, {"move": "(0,2)"}) == ("(0,2)", None)
    assert read_human_move(game, state, 1, "(1,1)") == (None, "(1,1) is not a legal move now")
    assert read_human_move(game, state, 1, "   ") == (None, "the answer was empty")
    assert read_human_move(game, state, 1, 7) == (None, "expected a move as text, got int")
    action, problem = read_human_move(game, state, 1, "(0,0) (0,2)")
    assert action is None and problem is not None and "several moves" in problem


def test_human_is_a_registered_interactive_player() -> None:
    player = make_player("human")
    assert isinstance(player, HumanPlayer) and player.interactive
    assert player.describe() == {"kind": "human", "name": "human"}
    assert not MinimaxPlayer().interactive
