"""Scripted TicTacToe replies built from the rules' own ground truth, for exact-score tests."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from langchain_core.messages import BaseMessage

from langgraph_games.games import Event, Game, GameState, make
from langgraph_games.games.tictactoe import TicTacToeState
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import Player, PlayerBuild, PlayerEntry, registry

_CELL = re.compile(r"\((\d),(\d)\):([XO_])")
_LEGAL = re.compile(r"legal moves: \[(.*)\]")
GAME = make("tictactoe")


def state_from_prompt(messages: Sequence[BaseMessage]) -> tuple[TicTacToeState, int, list[str]]:
    """Rebuild the TicTacToe state, the player and the legal moves from a GAMEBoT prompt."""
    text = messages[-1].text
    cells = {(int(r), int(c)): mark for r, c, mark in _CELL.findall(text)}
    board = "".join(cells[(r, c)] for r in range(3) for c in range(3))
    x, o = board.count("X"), board.count("O")
    state = TicTacToeState(seed=0, turn=x + o, board=board, to_move=x - o, winner=None)
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(text)[-1])
    return state, x - o, legal


def oracle(
    mode: str = "right", move: Callable[[list[str]], str] = lambda legal: legal[0]
) -> Callable[[Sequence[BaseMessage]], str]:
    """A model answering both subproblems (``right``, or ``extra``: truth plus one bogus cell)."""

    def script(messages: Sequence[BaseMessage]) -> str:
        state, player, legal = state_from_prompt(messages)
        truth = GAME.ground_truth(state, player)
        lines = []
        for index in (1, 2):
            items = sorted(truth[index])
            if mode == "extra":
                items.append("(9,9)")
            lines.append(f"[Intermediate Thinking Results {index}: {', '.join(items) or 'None'}]")
        return "\n".join(lines) + f"\n**Conclusion** ok\n**Chosen Move**: {move(legal)}"

    return script


# ----- scripted GAMEBoT strategies for arena and report tests --------------------------

ILLEGAL_FIRST = (
    "[Intermediate Thinking Results 1: (1,1)]\n[Intermediate Thinking Results 2: None]\n"
    "I will take the far corner.\n**Chosen Move**: (7,7)"
)


def _clumsy_script():  # type: ignore[no-untyped-def]
    """Answers illegally at its first decision of each episode, then like the noisy oracle.

    A function of the prompt alone (its first decision: none of its marks on the board yet
    and no feedback), because one player serves every episode of a run, also at once.
    """
    noisy = oracle("extra", move=lambda legal: legal[-1])

    def script(messages):  # type: ignore[no-untyped-def]
        state, player, _ = state_from_prompt(messages)
        first = "XO"[player] not in state.board and "rejected" not in messages[-1].text
        return ILLEGAL_FIRST if first else noisy(messages)

    return script


def install_scripted_strategies(monkeypatch: Any) -> None:
    """Add LLM strategies ``perfect`` (right answers, first legal move), ``sloppy`` (right
    answers plus one bogus cell) and ``clumsy`` (an illegal first answer, then noisy)."""

    def perfect(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)

    def clumsy(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=_clumsy_script()), game, name=name)

    def sloppy(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=oracle("extra")), game, name=name)

    install_strategy(monkeypatch, "perfect", perfect, "oracle")
    install_strategy(monkeypatch, "sloppy", sloppy, "oracle plus a bogus cell")
    install_strategy(monkeypatch, "clumsy", clumsy, "illegal first, noisy")


def install_strategy(
    monkeypatch: Any,
    name: str,
    build: Callable[[Any, Game[Any], str], Player],
    description: str = "test strategy",
) -> None:
    """Register the LLM strategy ``name`` for one test: ``build(model, game, name)``."""

    def builder(request: PlayerBuild[Any]) -> Player:
        return build(request.chat_model, request.engine, request.name)

    players = registry.PLAYERS.copy()
    players.register(
        PlayerEntry(name=name, build=builder, description=description, needs_model=True)
    )
    monkeypatch.setattr(registry, "PLAYERS", players)


# ----- a tiny simultaneous-move game for loop and tool tests ------------------------------


@dataclass(frozen=True, slots=True)
class PenniesState(GameState):
    rounds_left: int
    score: int

    type_name: ClassVar[str] = "pennies"


class Pennies(Game[PenniesState]):
    """Matching pennies for a few rounds: a tiny simultaneous-move game for the tests."""

    id = "pennies"
    name = "Pennies"
    description = "Both show heads or tails at once; player 0 scores on a match."
    player_names = ("Even", "Odd")
    simultaneous = True
    State = PenniesState

    def initial_state(self, seed: int = 0) -> PenniesState:
        return PenniesState(seed=seed, turn=0, rounds_left=3, score=0)

    def current_players(self, state: PenniesState) -> tuple[int, ...]:
        return (0, 1) if state.rounds_left else ()

    def legal_actions(self, state: PenniesState, player: int) -> tuple[str, ...]:
        return ("heads", "tails") if state.rounds_left else ()

    def _apply(
        self, state: PenniesState, actions: Mapping[int, str]
    ) -> tuple[PenniesState, list[Event]]:
        delta = 1 if actions[0] == actions[1] else -1
        new = PenniesState(
            seed=state.seed,
            turn=state.turn + 1,
            rounds_left=state.rounds_left - 1,
            score=state.score + delta,
        )
        return new, [{"type": "round", "delta": delta}]

    def is_terminal(self, state: PenniesState) -> bool:
        return state.rounds_left == 0

    def returns(self, state: PenniesState) -> tuple[float, ...]:
        return (float(state.score), float(-state.score))

    def observation(self, state: PenniesState, player: int) -> str:
        return f"{state.rounds_left} rounds left"
