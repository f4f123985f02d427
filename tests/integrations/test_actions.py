"""Action universes: sizes from first principles, and every legal move of many games in them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from langgraph_games.games import GameSession, list_games, make
from langgraph_games.games.tictactoe import TicTacToe
from langgraph_games.integrations.actions import (
    ActionUniverse,
    all_actions,
    register_action_universe,
)

GAME_IDS = [info.id for info in list_games()]
# Options that reach other parts of some universes.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *((game_id, {}) for game_id in GAME_IDS),
    ("match2", {"invalid_moves": "step"}),
    ("match2", {"props": False}),
    ("minesweeper", {"rows": 4, "cols": 6, "invalid_moves": "reject"}),
    ("crafter", {"length": 80}),
]


def _pools() -> list[tuple[int, int, int]]:
    return [
        (a, b, n - a - b)
        for n in range(8, 13)
        for a in range(1, n)
        for b in range(1, n - a)
        if n - a - b >= 1
    ]


def test_universe_sizes_follow_from_each_game() -> None:
    # Negotiation: Agree, plus (a+1)(b+1)(c+1) divisions of each pool of 8-12 items.
    divisions = sum((a + 1) * (b + 1) * (c + 1) for a, b, c in _pools())
    assert len(all_actions("negotiation")) == 1 + divisions == 12544
    # Checkers: ordered pairs of dark squares one or two diagonal steps apart.
    dark = [(r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 1]
    pairs = [(a, b) for a in dark for b in dark if abs(a[0] - b[0]) == abs(a[1] - b[1]) in (1, 2)]
    assert len(all_actions("checkers")) == len(pairs) == 170
    assert len(all_actions("tictactoe")) == 9
    assert len(all_actions("connect4")) == 42
    assert len(all_actions("othello")) == 64
    assert len(all_actions("crafter")) == 17
    assert len(all_actions("hanoi")) == 6
    # Match-2: 64 tiles; row/col props on 8 lines, bomb/hammer on 64 tiles; 'invalid' in step mode.
    assert len(all_actions("match2")) == 64 + 8 + 8 + 64 + 64
    assert len(all_actions("match2", invalid_moves="step")) == 209
    assert len(all_actions("match2", props=False)) == 64
    # Minesweeper: r/f on every cell, and the three invalid answers in step mode.
    assert len(all_actions("minesweeper")) == 2 * 81 + 3
    assert len(all_actions("minesweeper", rows=4, cols=6, invalid_moves="reject")) == 48


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=lambda v: str(v) if v else "")
def test_every_legal_action_of_random_playouts_is_in_the_universe(
    game_id: str, options: dict[str, Any]
) -> None:
    game = make(game_id, **options)
    universe = ActionUniverse.of(game)
    assert len(set(universe.actions)) == len(universe)
    for seed in range(4):
        session = GameSession(game, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            if session.done:
                break
            joint = {}
            for player in session.current_players:
                legal = session.legal_actions(player)
                assert set(legal) <= set(universe.index), set(legal) - set(universe.index)
                mask = universe.mask(legal)
                assert int(mask.sum()) == len(legal)
                joint[player] = rng.choice(legal)
            session.step(joint)


def test_unknown_game_asks_for_an_enumerator_and_a_registered_one_is_used() -> None:
    class Tiny(TicTacToe):
        id = "tiny_adapter_game"

    with pytest.raises(
        ValueError, match=r"No action universe is known for game 'tiny_adapter_game'"
    ):
        all_actions(Tiny())
    register_action_universe("tiny_adapter_game", lambda game: ["(0,0)", "(0,0)"])
    with pytest.raises(ValueError, match=r"lists '\(0,0\)' twice"):
        all_actions(Tiny())
    register_action_universe("tiny_adapter_game", lambda game: ["(0,0)"])
    universe = ActionUniverse.of(Tiny())
    with pytest.raises(ValueError, match=r"legal action '\(0,1\)' is not in the game's action"):
        universe.mask(["(0,0)", "(0,1)"])


def test_action_index_must_be_an_integer_in_range() -> None:
    universe = ActionUniverse.of(make("tictactoe"))
    assert universe.action(4) == "(1,1)"
    with pytest.raises(ValueError, match=r"outside the action universe \(0..8\)"):
        universe.action(9)
    with pytest.raises(ValueError, match=r"must be an integer index"):
        universe.action("(1,1)")
    with pytest.raises(ValueError, match=r"must be an integer index"):
        universe.action(True)
