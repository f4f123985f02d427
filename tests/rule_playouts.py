"""Pinned records of episodes with rule-based seats: every game, every builtin, model vs rule.

Each scenario plays whole episodes (seeded random and builtin players on every registered
game, a scripted GAMEBoT model against builtins with retries, fallbacks and a forfeit,
checkpointed runs, an arena run through the executor) and returns each episode's whole
record (result, counters and trajectory) without wall times, as a SHA-256 digest of its
canonical JSON next to its status, returns and step count in clear. ``graphs/golden/
rule_playouts.json`` holds what the one-step-per-node episode loop wrote;
``graphs/episode/test_instant_seats.py`` checks that the loop still writes exactly that
while it plays instant seats' moves in the node before.

Regenerate (after an intended change only): ``python tests/rule_playouts.py``.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import list_games, make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
    ConcessionNegotiator,
    EquityPlayer,
    Match2Greedy,
    MazeExplorer,
    MinesweeperSolver,
    MinimaxPlayer,
    PongTracker,
    RandomPlayer,
    SurroundSpacePlayer,
)
from langgraph_games.players.base import Decision, DecisionRequest, Player, SearchPlayer
from pinned_trajectories import cycling, normalized, play_scenarios, write_pinned

PINNED = Path(__file__).parent / "graphs" / "golden" / "rule_playouts.json"


def summary(episode: Any) -> dict[str, Any]:
    """An episode's status, returns and steps in clear, and a digest of its whole record."""
    record = normalized(json.loads(json.dumps(episode, default=repr)))
    text = json.dumps(record, sort_keys=True)
    result = record["result"]
    return {
        "status": result["status"],
        "returns": result["returns"],
        "steps": result["steps"],
        "trajectory": len(record["trajectory"]),
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
    }


async def _play(
    game: Any,
    players: Sequence[Player],
    seeds: Sequence[int],
    options: EpisodeOptions | None = None,
    *,
    checkpointed: bool = False,
) -> list[dict[str, Any]]:
    out = []
    for seed in seeds:
        saver = InMemorySaver() if checkpointed else None
        episode = await run_episode(
            game,
            list(players),
            seed=seed,
            options=options,
            checkpointer=saver,
            thread_id=f"pinned-{seed}" if checkpointed else None,
        )
        out.append(summary(episode))
    return out


async def random_every_game() -> list[dict[str, Any]]:
    """Seeded random play-outs of every registered game (long games are cut at 80 steps)."""
    out: list[dict[str, Any]] = []
    for info in list_games():
        game = make(info.id)
        seats = [RandomPlayer(seed=seat + 7) for seat in range(game.num_players)]
        out += await _play(game, seats, [0, 1, 2], EpisodeOptions(max_steps=80))
    return out


async def builtins() -> list[dict[str, Any]]:
    """Every builtin on its games, against a random player where the game has two seats."""
    rival = RandomPlayer(seed=5)
    out: list[dict[str, Any]] = []
    for game_id in ("tictactoe", "connect4", "othello", "checkers"):
        minimax = MinimaxPlayer(depth=None if game_id == "tictactoe" else 2, seed=1)
        out += await _play(game_id, [minimax, rival], [0, 1], EpisodeOptions(max_steps=40))
        out += await _play(game_id, [rival, minimax], [2], EpisodeOptions(max_steps=40))
    out += await _play("tictactoe", [MinimaxPlayer(seed=1), MinimaxPlayer(seed=2)], [3])
    out += await _play("pong", [PongTracker(), rival], [0, 1], EpisodeOptions(max_steps=60))
    out += await _play("pong", [PongTracker(), PongTracker(aim=False)], [2])
    out += await _play("surround", [SurroundSpacePlayer(), rival], [0, 1])
    out += await _play("texas_holdem", [EquityPlayer(samples=40, seed=2), rival], [0, 1, 2])
    out += await _play("negotiation", [ConcessionNegotiator(), rival], [0, 1])
    out += await _play("negotiation", [rival, ConcessionNegotiator()], [2])
    out += await _play("maze", [MazeExplorer()], [0, 1])
    out += await _play("match2", [Match2Greedy()], [0, 1])
    out += await _play("minesweeper", [MinesweeperSolver()], [0, 1, 2])
    return out


class Stubborn(SearchPlayer):
    """A rule player that answers ``move`` whatever it is asked (an illegal move at times)."""

    instant = True

    def __init__(self, moves: Sequence[str]) -> None:
        self.moves = list(moves)
        self.name = "stubborn"

    def decide(self, request: DecisionRequest) -> Decision:
        """The first of its moves that is legal, else its last one."""
        legal = [move for move in self.moves if move in request.legal_actions]
        return Decision(action=legal[0] if legal else self.moves[-1])

    def describe(self) -> dict[str, Any]:
        """``{"kind": "stubborn", "moves": [...]}``."""
        return {"kind": "stubborn", "moves": self.moves}


_GAMEBOT_ANSWERS = [
    "Chosen Move: (1,1)",
    "I am not sure",
    "Chosen Move: (7,7)",
    "Chosen Move: (0,2)",
    "Chosen Move: (2,0) or (0,0)",
    "Chosen Move: (2,2)",
    "Chosen Move: (1,0)",
]


async def model_against_rules() -> list[dict[str, Any]]:
    """A scripted GAMEBoT model against builtins: retries, fallbacks, a forfeit, checkpoints."""
    out: list[dict[str, Any]] = []
    model = ScriptedChatModel(script=cycling(_GAMEBOT_ANSWERS))
    player = gamebot_player(model, "tictactoe")
    out += await _play("tictactoe", [player, MinimaxPlayer(seed=4)], [0, 1])
    out += await _play("tictactoe", [RandomPlayer(seed=2), player], [2], EpisodeOptions(history=3))
    out += await _play(
        "tictactoe", [player, RandomPlayer(seed=3)], [3], EpisodeOptions(fallback="random")
    )
    out += await _play(
        "tictactoe", [MinimaxPlayer(seed=5), player], [4, 5], EpisodeOptions(), checkpointed=True
    )
    out += await _play(
        "tictactoe",
        [player, RandomPlayer(seed=1)],
        [6],
        EpisodeOptions(max_retries=0, fallback="forfeit"),
    )
    # A rule seat that forfeits (an illegal answer, fallback "forfeit") after a model move.
    out += await _play(
        "tictactoe",
        [player, Stubborn(["(1,1)", "(0,1)"])],
        [7],
        EpisodeOptions(max_retries=1, fallback="forfeit"),
    )
    # Two rule seats and a step limit, with and without a checkpointer.
    stubborn = Stubborn(["(1,1)", "(0,0)", "(2,2)", "(0,2)", "(2,0)", "(0,1)"])
    for checkpointed in (False, True):
        out += await _play(
            "tictactoe",
            [stubborn, RandomPlayer(seed=9)],
            [8],
            EpisodeOptions(max_steps=5),
            checkpointed=checkpointed,
        )
        out += await _play(
            "tictactoe",
            [RandomPlayer(seed=9), Stubborn(["(1,1)", "(1,1)"])],
            [9],
            EpisodeOptions(max_retries=2, fallback="forfeit"),
            checkpointed=checkpointed,
        )
    connect4 = ScriptedChatModel(script=cycling(["Chosen Move: 3", "Chosen Move: 9", "hmm"]))
    out += await _play(
        "connect4",
        [gamebot_player(connect4, "connect4"), MinimaxPlayer(depth=2)],
        [0],
        EpisodeOptions(max_steps=20),
    )
    return out


async def arena_run() -> list[dict[str, Any]]:
    """Builtins through the evaluation runner: the results file's records."""
    specs = [
        EvalSpec(
            game="tictactoe",
            agent="minimax",
            opponents=["random"],
            repeats=3,
            episode=EpisodeOptions(),
        ),
        EvalSpec(
            game="pong",
            agent="pong_tracker",
            opponents=["random"],
            repeats=2,
            episode=EpisodeOptions(max_steps=30),
        ),
    ]
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for spec in specs:
            report = await run_eval(spec, folder, progress=False)
            records = ResultsFile(report.results_path).read().records
            for record in sorted(records, key=lambda r: r["seed"]):
                out.append(summary(record))
    return out


SCENARIOS: dict[str, Callable[[], Awaitable[list[dict[str, Any]]]]] = {
    "random_every_game": random_every_game,
    "builtins": builtins,
    "model_against_rules": model_against_rules,
    "arena_run": arena_run,
}


async def play_all() -> dict[str, Any]:
    """Every scenario's episode summaries, by scenario name."""
    return await play_scenarios(SCENARIOS)


def main() -> None:
    write_pinned(PINNED, SCENARIOS)


if __name__ == "__main__":
    main()
