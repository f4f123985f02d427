"""Our rules agree with OpenSpiel on random play-outs: legal moves at every step, ends, winners.

Coordinate maps (our action -> OpenSpiel action string):
- TicTacToe: ``(r,c)`` -> ``x(r,c)``/``o(r,c)``; identical rules.
- Connect4: our rows count from the bottom; OpenSpiel names the column (``x3``).
- Othello: OpenSpiel's start has the colours of our (GAMEBoT's) start mirrored top to
  bottom, so row ``k`` maps to row ``9 - k``; OpenSpiel's explicit ``pass`` action is
  what our engine applies automatically.
- Checkers: OpenSpiel puts the first player's men on rows 1-3 of columns a, c, e, g;
  GAMEBoT uses columns 1, 3, 5, 7 for White's first row, a mirror image, so column ``c``
  maps to letter ``7 - c`` and row ``r`` to rank ``r + 1``.

Rules that differ on purpose: Checkers draws on threefold repetition in our engine (the
GAMEBoT prompt's rule) but not in OpenSpiel, which only has the 40-move rule. A play-out
that our engine ends by repetition is compared up to that point.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pyspiel
import pytest

from langgraph_games.games import GameSession, make

PLAYOUTS = 1000


def _ttt(action: str, player: int) -> str:
    return ("x", "o")[player] + action


def _c4(action: str, player: int) -> str:
    return ("x", "o")[player] + action.strip("()").split(",")[1]


def _othello(action: str, player: int) -> str:
    col, row = action.strip("()").split(",")
    return f"{col.lower()}{9 - int(row)}"


def _checkers(action: str, player: int) -> str:
    r1, c1, r2, c2 = map(int, re.findall(r"\d", action))
    return f"{'abcdefgh'[7 - c1]}{r1 + 1}{'abcdefgh'[7 - c2]}{r2 + 1}"


CASES: dict[str, tuple[str, Callable[[str, int], str]]] = {
    "tictactoe": ("tic_tac_toe", _ttt),
    "connect4": ("connect_four", _c4),
    "othello": ("othello", _othello),
    "checkers": ("checkers", _checkers),
}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_random_playouts_agree_with_openspiel(game_id: str) -> None:
    spiel_name, to_spiel = CASES[game_id]
    game = make(game_id)
    reference = pyspiel.load_game(spiel_name)
    repetition_draws = steps = 0
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        ours = GameSession(game, seed=seed)
        theirs = reference.new_initial_state()
        while True:
            # OpenSpiel's explicit passes are automatic in our engine.
            while not theirs.is_terminal() and [
                theirs.action_to_string(a) for a in theirs.legal_actions()
            ] == ["pass"]:
                theirs.apply_action(theirs.legal_actions()[0])
            if ours.done:
                if game_id == "checkers" and game.draw_reason(ours.state) == "threefold repetition":
                    repetition_draws += 1
                    break
                assert theirs.is_terminal(), f"seed {seed}: we ended, OpenSpiel did not"
                assert list(ours.returns) == list(theirs.returns()), f"seed {seed}: winners"
                break
            assert not theirs.is_terminal(), f"seed {seed} step {steps}: OpenSpiel ended first"
            player = ours.current_players[0]
            assert theirs.current_player() == player, f"seed {seed}: player to move"
            legal = ours.legal_actions()
            spiel_legal = {theirs.action_to_string(a): a for a in theirs.legal_actions()}
            assert sorted(to_spiel(a, player) for a in legal) == sorted(spiel_legal), (
                f"seed {seed} step {len(ours.actions)}: legal moves differ"
            )
            action = rng.choice(legal)
            ours.step(action)
            theirs.apply_action(spiel_legal[to_spiel(action, player)])
            steps += 1
    assert steps > PLAYOUTS * 5
    if game_id == "checkers":
        # Repetition needs kings shuffling, which random play produces only now and then.
        assert repetition_draws < PLAYOUTS // 10
