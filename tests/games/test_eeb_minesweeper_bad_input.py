"""Bad input never crashes the maze, Match-2 or Minesweeper: a clear refusal or no action."""

from __future__ import annotations

import random

import pytest

from langgraph_games.games import GameSession, IllegalActionError

NASTY = [
    "",
    " ",
    "\x00\x01",
    "Action: -1",
    "Action: 99999999999999999999999",
    "r,-1,2",
    "f,99,99",
    "r,1",
    "{",
    "}{",
    '{"action": ',
    '{"action": {"type": "row", "index": "3"}}',
    '{"action": {"type": null}}',
    '{"action": {"type": "eliminate", "pos": [1, 2, 3]}}',
    '{"action": {"type": "eliminate", "pos": {"i": 1}}}',
    '{"action": [' * 5000,
    "```json\n" + "[" * 5000 + "\n```",
    "{" * 5000,
    "émoji 🎲 Action：５",
]


def fuzz(rng: random.Random) -> str:
    alphabet = 'rf,0123456789 {}[]":actionypesmlnx\n'
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("maze", {"level": 3}),
        ("match2", {}),
        ("match2", {"invalid_moves": "step"}),
        ("minesweeper", {}),
        ("minesweeper", {"invalid_moves": "reject"}),
    ],
)
def test_garbage_answers_give_a_legal_action_or_none(game_id: str, options: dict) -> None:
    session = GameSession(game_id, seed=1, **options)
    rng = random.Random(game_id)
    texts = NASTY + [fuzz(rng) for _ in range(500)]
    for text in texts:
        action = session.parse_action(text)
        assert action is None or action in session.legal_actions(), (text, action)
        try:
            session.copy().step(text)
        except IllegalActionError as exc:
            assert "Legal actions" in str(exc)
