"""A mention finder's start hint only makes it faster: it finds the same mentions.

A game that gives :func:`~langgraph_games.games._answer.regex_mentions` the characters its
mentions start with is searched only where one stands. Every such finder of a registered
game must find exactly what its patterns find without the hint, on hostile replies, on
the game's own actions written in several cases, and on letters that match others only
when case is ignored (``ſ`` is an ``s``, the Kelvin sign a ``k``).
"""

from __future__ import annotations

import random
import sys

import pytest

from fuzz.replies import WORST, replies
from langgraph_games.games import list_games, make
from langgraph_games.games._answer import RegexMentions

FINDERS = {
    f"{info.id}.{name}": finder
    for info in list_games()
    for name, finder in vars(sys.modules[type(make(info.id)).__module__]).items()
    if isinstance(finder, RegexMentions)
}
CASE_FOLDED = {"s": "ſ", "k": "\u212a"}
"""Letters that ignoring case makes an ``s`` and a ``k``."""


def _texts(game_id: str) -> list[str]:
    game = make(game_id)
    state = game.initial_state(0)
    actions = list(game.legal_actions(state, game.current_players(state)[0]))
    rng = random.Random(game_id)
    texts = [shape(2_000) for shape in WORST.values()]
    texts += list(replies(rng.randrange(2**32), 3_000))
    for action in actions:
        texts += [action, action.lower(), action.upper(), f"x{action}x", f"I pick {action}."]
        texts.append("".join(CASE_FOLDED.get(c.lower(), c) for c in action))
    texts.append(" ".join(rng.choice(actions) for _ in range(200)))
    return texts


def test_the_games_with_hints_are_found() -> None:
    hinted = [name for name, finder in FINDERS.items() if finder.scan is not finder.combined]
    assert {"othello._MOVES", "texas_holdem._PHRASES"} <= set(hinted), hinted


@pytest.mark.parametrize("name", sorted(FINDERS))
def test_a_start_hint_changes_no_mention(name: str) -> None:
    finder = FINDERS[name]
    for text in _texts(name.split(".")[0]):
        hinted = [(m.span(), m.lastgroup) for m in finder.scan.finditer(text)]
        plain = [(m.span(), m.lastgroup) for m in finder.combined.finditer(text)]
        assert hinted == plain, text[:200]
